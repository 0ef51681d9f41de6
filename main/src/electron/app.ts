/** App lifecycle and the window: one instance, one window, closed means quit (except on macOS). */
import { app, BrowserWindow } from 'electron';
import { secureWebPreferences } from './security.ts';

export function createMainWindow(options: { preload: string; url: string }): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 600,
    title: 'Waste Tracker',
    // Shown once painted, so the user never sees an empty white frame.
    show: false,
    webPreferences: secureWebPreferences(options.preload),
  });
  window.once('ready-to-show', () => window.show());
  window.loadURL(options.url).catch((error: unknown) => console.error('The app page did not load:', error));
  return window;
}

export interface Lifecycle {
  /** Everything that needs Electron's `ready`: services, IPC handlers, the first window. */
  ready(): Promise<void>;
  openWindow(): void;
  getWindow(): BrowserWindow | undefined;
}

export function runApp(lifecycle: Lifecycle): void {
  // A second copy would share the user-data folder (settings, saved sign-in); it hands over to the first.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  let started = false;
  app.on('second-instance', () => {
    const window = lifecycle.getWindow();
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (started && BrowserWindow.getAllWindows().length === 0) lifecycle.openWindow();
  });
  app
    .whenReady()
    .then(async () => {
      await lifecycle.ready();
      started = true;
    })
    .catch((error: unknown) => {
      console.error('Waste Tracker could not start:', error);
      app.exit(1);
    });
}
