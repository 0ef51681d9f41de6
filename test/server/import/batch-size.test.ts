/**
 * How many CSV rows each transaction of an import into SQLite holds when not told (sqlite/sqlite-sink.ts):
 * 5,000 into an empty database, where a smaller batch was quicker and held less memory, and 20,000 into one
 * that has data, where a larger one rewrites each index page fewer times. A transaction shows as one progress
 * event of its file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFiles } from '../../../server/src/import/import-files.ts';
import type { ImportEvent } from '../../../server/src/import/run.ts';

const HEADER = 'HANDLER ID,HANDLER NAME,LOCATION CITY,LOCATION STATE,LOCATION ZIP,HHANDLER LAST CHANGE';

/** An HD_REPORTING file of `count` handlers, each named for `week`. */
function handlers(folder: string, count: number, week: string): string {
  const rows = Array.from(
    { length: count },
    (_, index) =>
      `TXD${String(index + 1).padStart(9, '0')},Handler ${index + 1} ${week},HOUSTON,TX,77001,${week}`,
  );
  writeFileSync(join(folder, 'HD_REPORTING.csv'), [HEADER, ...rows, ''].join('\r\n'));
  return folder;
}

/** Rows stored by the end of each transaction of the import, from its progress events. */
async function transactions(db: string, folder: string): Promise<number[]> {
  const ends: number[] = [];
  const result = await importFiles({
    db,
    paths: [folder],
    report: join(folder, 'report.csv'),
    onEvent: (event: ImportEvent) => {
      if (event.kind === 'progress') ends.push(event.rows);
    },
  });
  expect(result.totals.rejected).toBe(0);
  return ends;
}

describe('rows per transaction of a CSV import into SQLite', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-batch-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is 5,000 into an empty database and 20,000 into one that has data', async () => {
    const db = join(dir, 'tracker.db');
    const first = mkdtempSync(join(dir, 'first-'));
    expect(await transactions(db, handlers(first, 6_000, '2026-11-02'))).toEqual([5_000, 6_000]);
    // The same handlers changed a week later: a run into a database that has data.
    const second = mkdtempSync(join(dir, 'second-'));
    expect(await transactions(db, handlers(second, 6_000, '2026-11-09'))).toEqual([6_000]);
  });
});
