/**
 * `npm run data:load` copies a file an import built into PostgreSQL, its importer's ledger too: the next
 * import gives the same data there as in the file, the row week 1 left pending applied when week 2 brings its
 * manifest. It refuses a database that holds data (without --force), a file that is not a tracker database,
 * and one whose import has not finished.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importFiles } from '../../../server/src/import/import-files.ts';
import {
  FIXTURES,
  contentOf,
  newTarget,
  onePerRowLists,
  openSink,
  servedContent,
  sqliteFile,
  type ImportTarget,
} from '../import/import-support.ts';

const LOAD = resolve(import.meta.dirname, '../../../server/src/cli/data-load.ts');

let dir = '';
let file: ImportTarget;
let loaded: ImportTarget;

function load(...args: string[]): { code: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [LOAD, ...args], { encoding: 'utf8' });
  return { code: run.status, stderr: run.stderr };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tracker-data-load-'));
  file = sqliteFile(join(dir, 'week1.db'));
  await importFiles({ db: file.db, paths: [join(FIXTURES, 'week1')], report: join(dir, 'week1.csv') });
  loaded = await newTarget(dir, 'unused.db');
});

afterAll(async () => {
  await file?.close();
  await loaded?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('copies the file with its pending rows: the next import gives PostgreSQL what it gives the file', async () => {
  const pending = Number(await file.value('SELECT count(*) FROM import_pending'));
  expect(pending).toBeGreaterThan(0);
  const copied = load('--from', file.db, '--out', loaded.db);
  expect(copied.code, copied.stderr).toBe(0);
  expect(copied.stderr).toContain(`${pending} rows pending`);
  expect(Number(await loaded.value('SELECT count(*) FROM import_pending'))).toBe(pending);

  for (const target of [file, loaded]) {
    await importFiles({
      db: target.db,
      paths: [join(FIXTURES, 'week2')],
      report: join(dir, `week2-${target.backend}.csv`),
    });
  }
  const [there, here] = [await contentOf(loaded), await contentOf(file)];
  expect(servedContent(there)).toEqual(servedContent(here));
  expect(onePerRowLists(there)).toEqual(onePerRowLists(here));
  // Week 2's manifest let the line week 1 kept pending through, in both.
  const lines = async (target: ImportTarget) =>
    Number(
      await target.value(`SELECT count(*) FROM waste_lines w JOIN manifests m ON m.id = w.manifest_id
                          WHERE m.manifest_tracking_number = '000000199ELC'`),
    );
  expect(await lines(loaded)).toBe(1);
  expect(await lines(file)).toBe(1);
});

it('refuses a database that holds data without --force, and a file it cannot load', () => {
  const again = load('--from', file.db, '--out', loaded.db);
  expect(again.code).toBe(2);
  expect(again.stderr).toMatch(/already holds data; add --force/);

  const notTracker = join(dir, 'not-a-tracker.db');
  writeFileSync(notTracker, 'plain text');
  // Refusals of what the arguments name print the sentence alone, without the usage.
  expect(load('--from', notTracker, '--out', loaded.db).stderr.trim()).toMatch(
    /^\S+ is not a tracker database[^\n]*$/,
  );

  const unfinished = join(dir, 'unfinished.db');
  const copy = new Database(file.db, { readonly: true });
  copy.prepare('VACUUM INTO ?').run(unfinished);
  copy.close();
  const db = new Database(unfinished);
  db.prepare("UPDATE import_runs SET state = 'running' WHERE id = (SELECT max(id) FROM import_runs)").run();
  db.close();
  const refused = load('--from', unfinished, '--out', loaded.db, '--force');
  expect(refused.code).toBe(2);
  expect(refused.stderr.trim()).toMatch(/^\S+ holds an import that has not finished[^\n]*$/);
});

it('refuses a database an import is writing into, even with --force, and empties nothing', async () => {
  const manifests = async () => Number(await loaded.value('SELECT count(*) FROM manifests'));
  const before = await manifests();
  expect(before).toBeGreaterThan(0);
  const importing = await openSink(loaded);
  try {
    const refused = load('--from', file.db, '--out', loaded.db, '--force');
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toMatch(/^another import or load is writing into .+: wait until it ends$/);
    expect(await manifests()).toBe(before);
  } finally {
    await importing.close();
  }
});
