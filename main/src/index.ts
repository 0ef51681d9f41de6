/**
 * The Electron entry: hardens the app, builds the services (settings, API client, session), registers the
 * IPC handlers and opens the window. Everything here is wiring; the behaviour lives in the modules it joins.
 */
import { join } from 'node:path';
import { app, session as electronSession, type BrowserWindow } from 'electron';
import { createApiClient } from './api/client.ts';
import { createMainWindow, runApp } from './electron/app.ts';
import { registerIpc, windowEventSender } from './electron/ipc.ts';
import { installMenu } from './electron/menu.ts';
import { recoverPageOf } from './electron/recovery.ts';
import { safeStorageEncryption } from './electron/safe-storage.ts';
import { hardenAppBeforeReady, hardenSession, serveAppProtocol } from './electron/security.ts';
import { openExternal } from './electron/shell.ts';
import { handlers } from './ipc/handlers.ts';
import { APP_ENTRY_URL, devServerOrigin, trustedOrigins } from './security/policy.ts';
import { createSession } from './session/session.ts';
import { createTokenStore } from './session/token-store.ts';
import { launchDefaults } from './settings/launch-options.ts';
import { openSettingsStore } from './settings/settings-store.ts';

hardenAppBeforeReady();

const devRendererUrl = process.env.ELECTRON_RENDERER_URL;
const devOrigin = devServerOrigin(devRendererUrl, app.isPackaged);
const rendererUrl = devOrigin && devRendererUrl ? devRendererUrl : APP_ENTRY_URL;
// The sandbox runs preloads as classic scripts, so the preload is built as CommonJS.
const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
const rendererRoot = join(import.meta.dirname, '../renderer');

let mainWindow: BrowserWindow | undefined;

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

  const userData = app.getPath('userData');
  const launch = launchDefaults(process.argv, process.env);
  if (launch.problem) console.warn(launch.problem);
  const { store: settings, problem } = await openSettingsStore({
    file: join(userData, 'settings.json'),
    defaults: launch.defaults,
  });
  if (problem) console.warn(problem);

  const client = createApiClient({ timeoutMs: () => settings.get().requestTimeoutMs });
  const tokens = createTokenStore({ file: join(userData, 'session.bin'), encryption: safeStorageEncryption });
  const emit = windowEventSender(() => mainWindow);
  const session = createSession({ client, tokens, settings, emit });
  await session.restore();

  registerIpc({
    handlers,
    context: { session, settings, openExternal },
    getWindow: () => mainWindow,
    trustedOrigins: trustedOrigins(devOrigin),
  });
  installMenu({ packaged: app.isPackaged, send: (command) => emit('menu.command', { command }) });
  openWindow();
}

runApp({ ready, openWindow, getWindow: () => mainWindow });
