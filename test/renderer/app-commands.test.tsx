import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMMANDS, shortcutText } from '../../shared/commands/commands.ts';
import { useAppCommands } from '../../renderer/src/commands.ts';
import { ShortcutsTable } from '../../renderer/src/components/help-dialogs.tsx';
import { useNavigation } from '../../renderer/src/state/navigation.ts';

function Shell() {
  useAppCommands();
  return null;
}

let menu: ((payload: { command: string }) => void) | undefined;

beforeEach(() => {
  menu = undefined;
  vi.stubGlobal('tracker', {
    on: vi.fn((event: string, listener: (payload: { command: string }) => void) => {
      if (event === 'menu.command') menu = listener;
      return () => {
        menu = undefined;
      };
    }),
  });
  useNavigation.setState({ view: 'generators', profile: null, settingsOpen: false, dialog: null });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const key = (init: KeyboardEventInit) => {
  const event = new KeyboardEvent('keydown', { ...init, cancelable: true });
  act(() => {
    window.dispatchEvent(event);
  });
  return event;
};

describe('app commands', () => {
  it('run from the page’s own shortcuts, which keep the browser from acting on them', () => {
    render(<Shell />);
    expect(key({ key: '2', ctrlKey: true }).defaultPrevented).toBe(true);
    expect(useNavigation.getState().view).toBe('manifests');
    key({ key: ',', ctrlKey: true });
    expect(useNavigation.getState().settingsOpen).toBe(true);
    key({ key: '1', ctrlKey: true });
    expect(useNavigation.getState()).toMatchObject({ view: 'generators', settingsOpen: false });
    const before = useNavigation.getState().refreshes.generators;
    expect(key({ key: 'F5' }).defaultPrevented).toBe(true);
    expect(useNavigation.getState().refreshes.generators).toBe(before + 1);
    expect(key({ key: 'c', ctrlKey: true }).defaultPrevented).toBe(false);
  });

  it('run from the application menu, and stop listening when the shell goes', () => {
    const { unmount } = render(<Shell />);
    act(() => menu?.({ command: 'show-about' }));
    expect(useNavigation.getState().dialog).toBe('about');
    act(() => menu?.({ command: 'show-manifests' }));
    expect(useNavigation.getState().view).toBe('manifests');
    unmount();
    expect(menu).toBeUndefined();
  });
});

describe('Help → Keyboard shortcuts', () => {
  it('lists every command that has a shortcut, with the keys the page answers', () => {
    render(<ShortcutsTable />);
    const rows = within(screen.getByRole('table', { name: 'Keyboard shortcuts' })).getAllByRole('row');
    const listed = rows.slice(1).map((row) => row.textContent);
    for (const info of Object.values(COMMANDS)) {
      if (info.shortcut)
        expect(listed).toContain(`${info.label.replace(/…$/, '')}${shortcutText(info.shortcut)}`);
    }
    expect(listed).toContain('CopyCtrl+C');
    expect(listed).toContain("Open a grid row's generator profileEnter");
  });
});
