/** Installs the application menu (main/src/windows/menu-template.ts); its commands go to the page. */
import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { AppCommand } from '../../../shared/commands/commands.ts';
import { menuTemplate, type MenuEntry } from '../windows/menu-template.ts';

function item(entry: MenuEntry, send: (command: AppCommand) => void): MenuItemConstructorOptions {
  switch (entry.kind) {
    case 'separator':
      return { type: 'separator' };
    case 'role':
      return { role: entry.role, label: entry.label };
    case 'command':
      return {
        label: entry.label,
        ...(entry.accelerator ? { accelerator: entry.accelerator } : {}),
        click: () => send(entry.command),
      };
  }
}

export function installMenu(options: { packaged: boolean; send: (command: AppCommand) => void }): void {
  const template = menuTemplate({ packaged: options.packaged, platform: process.platform }).map(
    (section): MenuItemConstructorOptions => ({
      label: section.label,
      submenu: section.entries.map((entry) => item(entry, options.send)),
    }),
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
