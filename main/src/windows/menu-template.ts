/**
 * The application menu as plain data: File, Edit, View and Help, built from the shared command list
 * (shared/commands) so the menu, the page's own shortcuts and Help agree. App commands are sent to the
 * page; the rest are Electron's roles. Developer tools are offered only when the app is not packaged.
 * main/src/electron/menu.ts turns this into Electron's menu.
 */
import { COMMANDS, acceleratorOf, type AppCommand } from '../../../shared/commands/commands.ts';

/** Electron menu roles this menu uses. */
export type MenuRole =
  'quit' | 'copy' | 'selectAll' | 'zoomIn' | 'zoomOut' | 'resetZoom' | 'togglefullscreen' | 'toggleDevTools';

export type MenuEntry =
  | { kind: 'command'; command: AppCommand; label: string; accelerator?: string }
  | { kind: 'role'; role: MenuRole; label: string }
  | { kind: 'separator' };

export interface MenuSection {
  label: string;
  entries: MenuEntry[];
}

function command(name: AppCommand): MenuEntry {
  const info = COMMANDS[name];
  return {
    kind: 'command',
    command: name,
    label: info.label,
    ...(info.shortcut ? { accelerator: acceleratorOf(info.shortcut) } : {}),
  };
}

const role = (name: MenuRole, label: string): MenuEntry => ({ kind: 'role', role: name, label });
const separator: MenuEntry = { kind: 'separator' };

export function menuTemplate(options: { packaged: boolean; platform: string }): MenuSection[] {
  const mac = options.platform === 'darwin';
  const sections: MenuSection[] = [];
  // macOS puts About, Settings and Quit under the app's own name, first in the menu bar.
  if (mac) {
    sections.push({
      label: 'Waste Tracker',
      entries: [command('show-about'), separator, command('open-settings'), separator, role('quit', 'Quit')],
    });
  }
  sections.push(
    {
      label: 'File',
      entries: mac
        ? [command('export'), separator, command('sign-out')]
        : [
            command('export'),
            separator,
            command('open-settings'),
            separator,
            command('sign-out'),
            separator,
            role('quit', 'Quit'),
          ],
    },
    { label: 'Edit', entries: [role('copy', 'Copy'), role('selectAll', 'Select all')] },
    {
      label: 'View',
      entries: [
        command('show-generators'),
        command('show-manifests'),
        separator,
        command('refresh'),
        command('focus-search'),
        separator,
        role('zoomIn', 'Zoom in'),
        role('zoomOut', 'Zoom out'),
        role('resetZoom', 'Actual size'),
        separator,
        role('togglefullscreen', 'Full screen'),
        ...(options.packaged ? [] : [separator, role('toggleDevTools', 'Developer tools')]),
      ],
    },
    {
      label: 'Help',
      entries: mac ? [command('show-shortcuts')] : [command('show-shortcuts'), command('show-about')],
    },
  );
  return sections;
}
