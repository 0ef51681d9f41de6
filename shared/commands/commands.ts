/**
 * The app's commands and their keyboard shortcuts, described once: the Electron menu is built from this
 * list (main/src/windows/menu-template.ts), the page's own keyboard handler matches the same shortcuts
 * (so the browser bridge behaves like the desktop app), and Help → Keyboard shortcuts lists it.
 *
 * An app command is carried out by the page; a system command (copy, zoom, full screen) is the menu's
 * or the browser's own, and is listed here only so Help can name its shortcut.
 */

export const APP_COMMANDS = [
  'show-generators',
  'show-manifests',
  'refresh',
  'focus-search',
  'open-settings',
  'export',
  'sign-out',
  'show-shortcuts',
  'show-about',
] as const;
export type AppCommand = (typeof APP_COMMANDS)[number];

/** A key with the platform's command modifier (Ctrl, or Cmd on macOS) or none. */
export interface Shortcut {
  /** KeyboardEvent.key, e.g. "1", "F5", "f", ","; letters lower-case. */
  key: string;
  commandKey: boolean;
}

export interface CommandInfo {
  label: string;
  shortcut?: Shortcut;
}

export const COMMANDS: Readonly<Record<AppCommand, CommandInfo>> = {
  'show-generators': {
    label: 'Generators',
    shortcut: { key: '1', commandKey: true },
  },
  'show-manifests': {
    label: 'Manifests',
    shortcut: { key: '2', commandKey: true },
  },
  refresh: { label: 'Refresh', shortcut: { key: 'F5', commandKey: false } },
  'focus-search': {
    label: 'Search',
    shortcut: { key: 'f', commandKey: true },
  },
  'open-settings': {
    label: 'Settings…',
    shortcut: { key: ',', commandKey: true },
  },
  export: { label: 'Export to Excel…', shortcut: { key: 'e', commandKey: true } },
  'sign-out': { label: 'Sign out' },
  'show-shortcuts': {
    label: 'Keyboard shortcuts',
    shortcut: { key: '/', commandKey: true },
  },
  'show-about': { label: 'About Waste Tracker' },
};

/** Shortcuts the menu's roles or the browser provide; listed in Help, never handled by the page. */
export const SYSTEM_SHORTCUTS: readonly { label: string; keys: string }[] = [
  { label: 'Copy', keys: 'Ctrl+C' },
  { label: 'Select all', keys: 'Ctrl+A' },
  { label: 'Zoom in', keys: 'Ctrl+Plus' },
  { label: 'Zoom out', keys: 'Ctrl+Minus' },
  { label: 'Actual size', keys: 'Ctrl+0' },
  { label: 'Full screen', keys: 'F11' },
];

/** Keys the views themselves answer (a grid row, the profile and settings screens). */
export const VIEW_KEYS: readonly { label: string; keys: string }[] = [
  { label: 'Move between rows of a grid', keys: 'Up / Down' },
  { label: 'Select more rows of a grid', keys: 'Ctrl+click / Shift+click' },
  { label: 'Copy the focused cell, or the selected rows with headers', keys: 'Ctrl+C' },
  { label: "Open a grid row's generator profile", keys: 'Enter' },
  { label: 'Close the profile or the settings', keys: 'Escape' },
];

/** How Help writes a shortcut: "Ctrl+1" (Cmd on macOS, where the menu shows its own symbols). */
export function shortcutText(shortcut: Shortcut): string {
  const key = shortcut.key.length === 1 ? shortcut.key.toUpperCase() : shortcut.key;
  return shortcut.commandKey ? `Ctrl+${key}` : key;
}

/** Electron's accelerator for a shortcut: CmdOrCtrl is Cmd on macOS and Ctrl elsewhere. */
export function acceleratorOf(shortcut: Shortcut): string {
  const key = shortcut.key.length === 1 ? shortcut.key.toUpperCase() : shortcut.key;
  return shortcut.commandKey ? `CmdOrCtrl+${key}` : key;
}

/** The fields of a keyboard event the matcher reads, so it runs (and is tested) without a DOM. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/**
 * The app command a key press asks for, if any. Ctrl and Cmd both count as the command key, so the page
 * answers the same keys on every platform; Alt or Shift make it another shortcut (Ctrl+Shift+F is not
 * Ctrl+F).
 */
export function commandForKey(press: KeyPress): AppCommand | undefined {
  if (press.altKey || press.shiftKey) return undefined;
  const commandKey = press.ctrlKey || press.metaKey;
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  for (const command of APP_COMMANDS) {
    const { shortcut } = COMMANDS[command];
    if (shortcut && shortcut.key === key && shortcut.commandKey === commandKey) return command;
  }
  return undefined;
}
