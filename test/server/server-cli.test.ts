/**
 * npm run server: arguments it cannot use end it with the message and the usage; a database it cannot open
 * ends it with the sentence saying why, alone, since the usage would not help (exit code 2 either way).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';

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

it('refuses an option it does not know with the message and the usage', () => {
  const result = server('--db', join(dir, 'missing.db'), '--colour', 'blue');
  expect(result.status).toBe(2);
  expect(result.stderr).toContain("Unknown option '--colour'");
  expect(result.stderr).toContain('usage: npm run server --');
});
