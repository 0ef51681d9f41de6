/**
 * The plans of the statements that keep the line sets, where the plan is the speed:
 *
 * An import into a served SQLite database moves each line-set value's totals by what its batch changed
 * (import/sqlite/derived.ts): once down by the line sets its manifests held, once up by those they hold now.
 * Both sums read the line sets' index alone, which carries their quantities, rather than one table row per
 * line set. For 20,000 manifests of the 1M bench database that is 0.23 s against 1.1 s, and an append of
 * 100,000 manifests ran 3 % faster into the 1M bench database and 7 % faster into the 100k one.
 *
 * The line sets themselves are written by one statement (db/derive.ts lineSetRowsSql) that reads each waste
 * line once and looks its manifest up once for all three members: per member, a build of the 1M demo
 * database joined every line to its manifest three times (63 s against 32 s). It writes them in the table's
 * key order, which an append's batches feel most (their rows land all over the table).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildDemoDatabase } from '../../../server/src/data/demo/build-demo.ts';
import { lineSetRowsSql } from '../../../server/src/db/derive.ts';
import { lineSetTotalsShiftSql } from '../../../server/src/import/sqlite/derived-sql.ts';

let dir = '';
let path = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tracker-derived-plans-'));
  path = join(dir, 'demo.db');
  await buildDemoDatabase(path, { manifests: 200, seed: 3 });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

it.each([-1, 1] as const)('moves the line-set totals by %i from the index alone', (sign) => {
  const db = new Database(path);
  try {
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${lineSetTotalsShiftSql(sign)}`)
      .all(JSON.stringify([1, 2, 3])) as { detail: string }[];
    expect(plan.map((step) => step.detail)).toContain(
      'SEARCH manifest_line_sets USING COVERING INDEX manifest_line_sets_by_manifest (manifest_id=?)',
    );
  } finally {
    db.close();
  }
});

const planOf = (sql: string, ...parameters: unknown[]): string[] => {
  const db = new Database(path);
  try {
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map(
      (step) => step.detail,
    );
  } finally {
    db.close();
  }
};

it.each([
  ['every waste line (a whole build)', lineSetRowsSql(), [], 'SCAN w'],
  [
    "a batch's manifests' lines (an import)",
    lineSetRowsSql('w.manifest_id IN (SELECT value FROM json_each(?))'),
    [JSON.stringify([1, 2, 3])],
    'SEARCH w USING PRIMARY KEY (manifest_id=?)',
  ],
])(
  'writes the line sets of %s reading each line and its manifest once, in key order',
  (_, sql, parameters, lines) => {
    const plan = planOf(sql, ...parameters);
    const reads = plan.filter((step) => /^(SCAN|SEARCH) (w|m)\b/.test(step));
    expect(reads).toEqual([lines, 'SEARCH m USING INTEGER PRIMARY KEY (rowid=?)']);
    // The members are the innermost loop: a line's three rows come from the one read of it.
    expect(plan.filter((step) => /^(SCAN|SEARCH) /.test(step)).at(-1)).toBe('SCAN k');
    // Sorted into the table's key order before they are written (db/derive.ts lineSetRowsSql).
    expect(plan.at(-1)).toBe('USE TEMP B-TREE FOR ORDER BY');
  },
);
