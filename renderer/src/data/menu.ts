/** The application menu's commands, as main sends them (Electron only; the browser bridge has no menu). */
import type { AppCommand } from '../../../shared/commands/commands.ts';

export function followMenu(run: (command: AppCommand) => void): () => void {
  return window.tracker.on('menu.command', (payload) => run(payload.command));
}
