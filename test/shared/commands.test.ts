import { describe, expect, it } from 'vitest';
import {
  COMMANDS,
  acceleratorOf,
  commandForKey,
  shortcutText,
  type KeyPress,
} from '../../shared/commands/commands.ts';

const press = (key: string, modifiers: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...modifiers,
});

describe('the command shortcuts', () => {
  it.each([
    [press('1', { ctrlKey: true }), 'show-generators'],
    [press('2', { ctrlKey: true }), 'show-manifests'],
    [press('2', { metaKey: true }), 'show-manifests'],
    [press('F5'), 'refresh'],
    [press('f', { ctrlKey: true }), 'focus-search'],
    [press('F', { ctrlKey: true }), 'focus-search'],
    [press(',', { ctrlKey: true }), 'open-settings'],
    [press('e', { ctrlKey: true }), 'export'],
    [press('/', { ctrlKey: true }), 'show-shortcuts'],
  ])('%o asks for %s', (key, command) => {
    expect(commandForKey(key)).toBe(command);
  });

  it.each([
    [press('1')],
    [press('f')],
    [press('F5', { ctrlKey: true })],
    [press('f', { ctrlKey: true, shiftKey: true })],
    [press('1', { ctrlKey: true, altKey: true })],
    [press('c', { ctrlKey: true })],
  ])('%o asks for nothing', (key) => {
    expect(commandForKey(key)).toBeUndefined();
  });

  it('gives every shortcut to one command only', () => {
    const texts = Object.values(COMMANDS).flatMap((info) =>
      info.shortcut ? [shortcutText(info.shortcut)] : [],
    );
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('writes shortcuts for Help and accelerators for the menu', () => {
    expect(shortcutText({ key: 'f', commandKey: true })).toBe('Ctrl+F');
    expect(shortcutText({ key: 'F5', commandKey: false })).toBe('F5');
    expect(acceleratorOf({ key: '1', commandKey: true })).toBe('CmdOrCtrl+1');
  });
});
