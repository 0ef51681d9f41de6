/**
 * npm run server: arguments it cannot use end it with the message and the usage, before the server or a
 * database client is loaded; a database it cannot open ends it with the sentence saying why, alone, since
 * the usage would not help (exit code 2 either way).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { commandRefusal } from '../helpers/command-refusal.ts';

const CLI = resolve(import.meta.dirname, '../../server/src/cli/server.ts');
const dir = mkdtempSync(join(tmpdir(), 'tracker-server-cli-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const server = (...args: string[]) => {
  const { TRACKER_DATABASE_URL: _ignored, ...env } = process.env;
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, timeout: 30_000 });
};

it('refuses a database file that does not exist with that sentence alone', () => {
  const missing = join(dir, 'missing.db');
  const result = server('--db', missing, '--port', '0');
  expect(result.status).toBe(2);
  expect(result.stderr.trim()).toBe(`no database at ${missing}`);
});

it('refuses a folder given as the database with that sentence alone', () => {
  const result = server('--db', dir, '--port', '0');
  expect(result.status).toBe(2);
  expect(result.stderr.trim()).toBe(`${dir} is a folder, not a database file`);
});

it.each([
  ['an option it does not know', ['--colour', 'blue'], /Unknown option '--colour'/],
  ['a word for the port', ['--port', 'http'], /--port must be a non-negative integer, got "http"/],
  ['an unknown dialect', ['--dialect', 'loose'], /--dialect must be sample or typed, got "loose"/],
  ['a token lifetime of 0', ['--token-ttl-minutes', '0'], /--token-ttl-minutes must be a positive integer/],
  [
    'an allowed host with a scheme',
    ['--allowed-host', 'https://a.example'],
    /--allowed-host takes a host name/,
  ],
  ['a demo too large', ['--demo-manifests', '100000001'], /--demo-manifests must be at most 100000000/],
  ['several processes on SQLite', ['--workers', '2'], /--workers needs a PostgreSQL database/],
])('refuses %s with the message and the usage, loading no database client', (_, args, message) => {
  const result = commandRefusal(CLI, ['--db', join(dir, 'missing.db'), ...args]);
  expect(result.status, result.stderr).toBe(2);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).toContain('usage: npm run server --');
});
