/** App lifecycle and the window: one instance, one window, closed means quit (except on macOS). */
import { app, BrowserWindow } from 'electron';

export function createMainWindow(options: { preload: string; url: string }): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 600,
    title: 'Waste Tracker',
    // Shown once painted, so the user never sees an empty white frame.
    show: false,
    // Written out here, where the window is made, so a reader and the scanner (npm run scan:electron) see
    // every switch without following a call. hardenAppBeforeReady (security.ts) sandboxes every renderer
    // again, whatever a window asks for.
    webPreferences: {
      preload: options.preload,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      // A middle click on a link would ask for a new window; new windows are denied, and this stops the ask.
      disableBlinkFeatures: 'Auxclick',
    },
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
  /** Work to end before the app quits (running exports cancelled, their temporary files removed). */
  beforeQuit(): Promise<void>;
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
  // Quitting waits once for running work to end cleanly, then quits for real.
  let quitting: 'no' | 'ending' | 'ended' = 'no';
  app.on('before-quit', (event) => {
    if (quitting === 'ended') return;
    event.preventDefault();
    if (quitting === 'ending') return;
    quitting = 'ending';
    void lifecycle
      .beforeQuit()
      .catch((error: unknown) => console.error('Ending work before quitting failed:', error))
      .finally(() => {
        quitting = 'ended';
        app.quit();
      });
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
