/**
 * npm run data:load: arguments it cannot use end it with the message and the usage (exit code 2) before a
 * database client is loaded. What it does with good ones is in postgres/data-load.test.ts.
 */
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { commandRefusal } from '../helpers/command-refusal.ts';

const CLI = resolve(import.meta.dirname, '../../server/src/cli/data-load.ts');

it.each([
  ['no file to load', ['--out', 'postgres://tracker@127.0.0.1:1/tracker'], /--from FILE is required/],
  ['a file as the target', ['--from', 'a.db', '--out', 'b.db'], /--out postgres:\/\/… is required/],
])('refuses %s with the message and the usage, loading no database client', (_, args, message) => {
  const result = commandRefusal(CLI, args);
  expect(result.status, result.stderr).toBe(2);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).toContain('usage: npm run data:load --');
});
