/**
 * npm run data:demo: bad arguments get a clear message, the usage line and exit code 2, before a database
 * client is loaded; a file an import writes into or a server has open is not replaced.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandRefusal } from '../../helpers/command-refusal.ts';
import { takeImportLock } from '../../../server/src/db/import-lock.ts';
import { openDatabase } from '../../../server/src/db/open.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'server/src/cli/data-demo.ts');

let dir: string;

function run(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
}

/** The command run where loading a database client fails it: a refusal of its arguments loads none. */
const refusal = (...args: string[]) => commandRefusal(CLI, args);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'data-demo-cli-'));
  writeFileSync(join(dir, 'taken.db'), '');
  mkdirSync(join(dir, 'DIR'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run data:demo', () => {
  it.each([
    ['no arguments', [], /--out FILE is required/],
    ['no --manifests', ['--out', 'OUT'], /--manifests N is required/],
    ['zero manifests', ['--out', 'OUT', '--manifests', '0'], /--manifests must be a positive integer/],
    [
      'a word for N',
      ['--out', 'OUT', '--manifests', 'many'],
      /--manifests must be a positive integer.*"many"/,
    ],
    ['a fraction for N', ['--out', 'OUT', '--manifests', '2.5'], /--manifests must be a positive integer/],
    ['too many manifests', ['--out', 'OUT', '--manifests', '100000001'], /at most 100000000/],
    [
      'a negative seed',
      ['--out', 'OUT', '--manifests', '10', '--seed=-1'],
      /--seed must be a non-negative integer/,
    ],
    ['an unknown option', ['--out', 'OUT', '--manifests', '10', '--rows', '5'], /Unknown option '--rows'/],
    ['a stray argument', ['--out', 'OUT', '--manifests', '10', 'extra'], /Unexpected argument 'extra'/],
    ['an existing file', ['--out', 'taken.db', '--manifests', '10'], /already exists; add --force/],
    ['a missing folder', ['--out', 'missing/demo.db', '--manifests', '10'], /does not exist/],
    [
      'a folder, even with --force',
      ['--out', 'DIR', '--manifests', '10', '--force'],
      /DIR is a folder: --out names the database file \(such as .*DIR\/demo\.db\)/,
    ],
  ])('refuses %s', (_name, args, message) => {
    const result = refusal(
      ...args.map((arg) => (arg === 'OUT' || arg === 'DIR' || arg.endsWith('.db') ? join(dir, arg) : arg)),
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('usage: npm run data:demo -- --out FILE|postgres://… --manifests N');
    expect(existsSync(join(dir, 'OUT'))).toBe(false);
  });

  it('builds a small dataset and prints a summary', () => {
    const out = join(dir, 'small.db');
    const result = run('--out', out, '--manifests', '40', '--seed', '5');
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(
      /Built .*small\.db: 4 generators, 40 manifests, \d+ waste lines in [\d.]+ s/,
    );
    expect(existsSync(out)).toBe(true);
    expect(run('--out', out, '--manifests', '40', '--force').status).toBe(0);
  });

  it('refuses to build over a file while an import writes into it, leaving the file as it was', () => {
    const out = join(dir, 'importing.db');
    expect(run('--out', out, '--manifests', '20', '--seed', '1').status).toBe(0);
    const before = readFileSync(out);
    const importing = takeImportLock(out);
    expect(importing).toBeDefined();
    try {
      const refused = run('--out', out, '--manifests', '40', '--force');
      expect(refused.status).toBe(2);
      // What is refused is the file, not the arguments: the sentence ends the output, without the usage.
      expect(refused.stderr.trim().split('\n').at(-1)).toBe(
        `another import or load is writing into ${out}: wait until it ends`,
      );
      expect(refused.stderr).not.toContain('usage:');
      expect(readFileSync(out).equals(before)).toBe(true);
    } finally {
      importing?.release();
    }
    expect(run('--out', out, '--manifests', '40', '--force').status).toBe(0);
  });

  it('refuses to build over a file a server has open, leaving the file as it was', () => {
    const out = join(dir, 'served.db');
    expect(run('--out', out, '--manifests', '20', '--seed', '1').status).toBe(0);
    // As the server opens it (WAL), with a first read.
    const served = openDatabase(out);
    const count = () => served.prepare('SELECT count(*) FROM manifests').pluck().get();
    const before = count();
    try {
      const refused = run('--out', out, '--manifests', '40', '--force');
      expect(refused.status).toBe(2);
      expect(refused.stderr.trim().split('\n').at(-1)).toBe(
        `${out} is open in another program (a server serving it?): stop that program before replacing the ` +
          'file; to add data to a served database, use npm run data:import',
      );
      expect(count()).toBe(before);
    } finally {
      served.close();
    }
    expect(run('--out', out, '--manifests', '40', '--force').status).toBe(0);
  });
});
