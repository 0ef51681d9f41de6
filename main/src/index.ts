/**
 * The Electron entry: hardens the app, builds the services (settings, API client, session), registers the
 * IPC handlers and opens the window. Everything here is wiring; the behaviour lives in the modules it joins.
 */
import { join } from 'node:path';
import { app, session as electronSession, type BrowserWindow } from 'electron';
import { createMainWindow, runApp } from './electron/app.ts';
import { registerIpc, windowEventSender } from './electron/ipc.ts';
import { installMenu } from './electron/menu.ts';
import { recoverPageOf } from './electron/recovery.ts';
import { safeStorageEncryption } from './electron/safe-storage.ts';
import { saveDialog } from './electron/save-dialog.ts';
import { hardenAppBeforeReady, hardenSession, serveAppProtocol } from './electron/security.ts';
import { openExternal } from './electron/shell.ts';
import { handlers } from './ipc/handlers.ts';
import { createMainServices } from './ipc/services.ts';
import { APP_ENTRY_URL, devServerOrigin, trustedOrigins } from './security/policy.ts';

hardenAppBeforeReady();

const devRendererUrl = process.env.ELECTRON_RENDERER_URL;
const devOrigin = devServerOrigin(devRendererUrl, app.isPackaged);
const rendererUrl = devOrigin && devRendererUrl ? devRendererUrl : APP_ENTRY_URL;
// The sandbox runs preloads as classic scripts, so the preload is built as CommonJS.
const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
const rendererRoot = join(import.meta.dirname, '../renderer');

let mainWindow: BrowserWindow | undefined;
/** Running exports, once the services exist; cancelled when the app quits. */
let runningExports: { cancelAll(): Promise<void> } | undefined;

function openWindow(): void {
  const window = createMainWindow({ preload: preloadPath, url: rendererUrl });
  recoverPageOf(window);
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = undefined;
  });
  mainWindow = window;
}

async function ready(): Promise<void> {
  hardenSession(electronSession.defaultSession, devOrigin);
  serveAppProtocol(rendererRoot);

  const emit = windowEventSender(() => mainWindow);
  const services = await createMainServices({
    userDataDir: app.getPath('userData'),
    argv: process.argv,
    env: process.env,
    encryption: safeStorageEncryption,
    emit,
    openExternal,
    chooseSaveTarget: saveDialog(() => mainWindow),
  });
  runningExports = services.exports;

  registerIpc({
    handlers,
    context: services,
    getWindow: () => mainWindow,
    trustedOrigins: trustedOrigins(devOrigin),
  });
  installMenu({ packaged: app.isPackaged, send: (command) => emit('menu.command', { command }) });
  openWindow();
}

runApp({
  ready,
  openWindow,
  getWindow: () => mainWindow,
  beforeQuit: () => runningExports?.cancelAll() ?? Promise.resolve(),
});
