/**
 * npm run users: arguments it cannot use end it with the message and the usage (exit code 2) before either
 * database client is loaded, so a mistyped command is told at once and touches no database. What it does
 * with good arguments, on both backends, is in auth.test.ts.
 */
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { expect, it } from 'vitest';
import { commandRefusal } from '../helpers/command-refusal.ts';

const CLI = resolve(import.meta.dirname, '../../server/src/cli/users.ts');
/** Never opened: every refusal here comes first. */
const DB = join(tmpdir(), 'tracker-users-cli-never-made.db');

it.each([
  ['no database', ['list'], /--db FILE is required/],
  ['an unknown command', ['--db', DB, 'delete', 'alice'], /unknown command "delete"/],
  ['add without scopes', ['--db', DB, 'add', 'alice'], /add needs --scopes/],
  [
    'an unknown scope',
    ['--db', DB, 'add', 'alice', '--scopes', 'generators,admin'],
    /unknown scope "admin"; scopes are generators, manifests/,
  ],
  ['remove without a name', ['--db', DB, 'remove'], /remove needs a user name/],
  ['list with a name', ['--db', DB, 'list', 'alice'], /unexpected arguments: alice$/m],
  ['an unknown option', ['--db', DB, 'list', '--all'], /Unknown option '--all'/],
])('refuses %s with the message and the usage, loading no database client', (_, args, message) => {
  const result = commandRefusal(CLI, args);
  expect(result.status, result.stderr).toBe(2);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).toContain('npm run users -- --db FILE list');
});
