/** Applies the recovery policy (main/src/windows/recovery.ts) to a window's page when it dies or hangs. */
import type { BrowserWindow } from 'electron';
import { createRecoveryPolicy, type PageTrouble } from '../windows/recovery.ts';

export function recoverPageOf(window: BrowserWindow): void {
  const decide = createRecoveryPolicy();
  const contents = window.webContents;
  const handle = (trouble: PageTrouble) => {
    if (window.isDestroyed()) return;
    const recovery = decide(trouble);
    if (recovery.log !== '') console.warn(recovery.log);
    switch (recovery.action) {
      case 'leave':
        return;
      case 'end-and-reload':
        // Reloading right after this runs the page in a new process (Electron's webContents docs).
        contents.forcefullyCrashRenderer();
        contents.reload();
        return;
      case 'reload':
        contents.reload();
        return;
    }
  };
  contents.on('render-process-gone', (_event, details) => handle({ kind: 'gone', reason: details.reason }));
  contents.on('unresponsive', () => handle({ kind: 'unresponsive' }));
}
