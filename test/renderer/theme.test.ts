import { afterEach, describe, expect, it, vi } from 'vitest';
import { followTheme, resolveTheme, type ThemePreference } from '../../renderer/src/theme.ts';

describe('resolveTheme', () => {
  it.each<[ThemePreference, boolean, 'light' | 'dark']>([
    ['system', false, 'light'],
    ['system', true, 'dark'],
    ['light', true, 'light'],
    ['dark', false, 'dark'],
  ])('%s with a dark OS %s is %s', (preference, dark, theme) => {
    expect(resolveTheme(preference, dark)).toBe(theme);
  });
});

/** A matchMedia whose answer the test flips, as the OS would. */
function fakeOs(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    matches: dark,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', () => query);
  return {
    switchTo(next: boolean) {
      query.matches = next;
      for (const listener of listeners) listener();
    },
    listening: () => listeners.size,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('followTheme', () => {
  it('follows the OS by default, for the app and the grid, as it changes', () => {
    const os = fakeOs(true);
    const stop = followTheme('system');
    const root = document.documentElement;
    expect([root.dataset.theme, root.dataset.agThemeMode]).toEqual(['dark', 'dark']);
    os.switchTo(false);
    expect([root.dataset.theme, root.dataset.agThemeMode]).toEqual(['light', 'light']);
    stop();
    expect(os.listening()).toBe(0);
  });

  it('keeps a chosen theme whatever the OS does', () => {
    const os = fakeOs(true);
    followTheme('light');
    os.switchTo(true);
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(os.listening()).toBe(0);
  });
});
