import { describe, expect, it } from 'vitest';
import { menuTemplate, type MenuSection } from '../../main/src/windows/menu-template.ts';

/** Each section as "label (accelerator)" lines, separators left out. */
function outline(sections: MenuSection[]): Record<string, string[]> {
  return Object.fromEntries(
    sections.map((section) => [
      section.label,
      section.entries.flatMap((entry) =>
        entry.kind === 'separator'
          ? []
          : [
              entry.kind === 'command' && entry.accelerator
                ? `${entry.label} (${entry.accelerator})`
                : entry.label,
            ],
      ),
    ]),
  );
}

describe('the application menu', () => {
  it('has File, Edit, View and Help with the shared shortcuts (Windows and Linux)', () => {
    expect(outline(menuTemplate({ packaged: true, platform: 'linux' }))).toEqual({
      File: ['Export to Excel… (CmdOrCtrl+E)', 'Settings… (CmdOrCtrl+,)', 'Sign out', 'Quit'],
      Edit: ['Copy', 'Select all'],
      View: [
        'Generators (CmdOrCtrl+1)',
        'Manifests (CmdOrCtrl+2)',
        'Refresh (F5)',
        'Search (CmdOrCtrl+F)',
        'Zoom in',
        'Zoom out',
        'Actual size',
        'Full screen',
      ],
      Help: ['Keyboard shortcuts (CmdOrCtrl+/)', 'About Waste Tracker'],
    });
  });

  it('offers developer tools only when the app is not packaged', () => {
    const view = (packaged: boolean) => outline(menuTemplate({ packaged, platform: 'win32' })).View ?? [];
    expect(view(false)).toContain('Developer tools');
    expect(view(true)).not.toContain('Developer tools');
  });

  it('puts About, Settings and Quit under the app name on macOS', () => {
    const mac = outline(menuTemplate({ packaged: true, platform: 'darwin' }));
    expect(Object.keys(mac)).toEqual(['Waste Tracker', 'File', 'Edit', 'View', 'Help']);
    expect(mac['Waste Tracker']).toEqual(['About Waste Tracker', 'Settings… (CmdOrCtrl+,)', 'Quit']);
    expect(mac.File).toEqual(['Export to Excel… (CmdOrCtrl+E)', 'Sign out']);
  });

  it('sends app commands to the page and leaves the rest to Electron roles', () => {
    const entries = menuTemplate({ packaged: false, platform: 'linux' }).flatMap(
      (section) => section.entries,
    );
    expect(entries.filter((entry) => entry.kind === 'command').map((entry) => entry.command)).toEqual([
      'export',
      'open-settings',
      'sign-out',
      'show-generators',
      'show-manifests',
      'refresh',
      'focus-search',
      'show-shortcuts',
      'show-about',
    ]);
    expect(entries.filter((entry) => entry.kind === 'role').map((entry) => entry.role)).toEqual([
      'quit',
      'copy',
      'selectAll',
      'zoomIn',
      'zoomOut',
      'resetZoom',
      'togglefullscreen',
      'toggleDevTools',
    ]);
  });
});
