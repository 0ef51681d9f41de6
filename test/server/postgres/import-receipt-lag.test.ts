/**
 * An import into a served PostgreSQL database keeps the stored receipt lag (data_tallies) wide enough for
 * the manifests it has committed, batch by batch, as SQLite's importer does: the servers bound a
 * received-date page by it (pg-manifest-reads.ts), and a bound narrower than the rows would leave out
 * manifests received long after they were shipped.
 */
import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildDemoDatabase } from '../../../server/src/data/demo/build-demo.ts';
import { importFiles } from '../../../server/src/import/import-files.ts';
import type { SinkBatch } from '../../../server/src/import/model/sink.ts';
import { runImport } from '../../../server/src/import/run.ts';
import { discoverSources } from '../../../server/src/import/sources.ts';
import { writeEpaFiles } from '../../helpers/epa-files.ts';
import { newTarget, openSink, wrapSink, type ImportTarget } from '../import/import-support.ts';

const MANIFESTS = 300;

let dir = '';
let target: ImportTarget;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tracker-lag-'));
  target = await newTarget(dir, 'lag.db');
});

afterAll(async () => {
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Lag {
  low: number;
  high: number;
}

async function stored(): Promise<Lag> {
  const rows = await target.values(
    "SELECT name, value FROM data_tallies WHERE name IN ('lag_min_days', 'lag_max_days')",
  );
  const named = new Map(rows.map(([name, value]) => [String(name), Number(value)]));
  return { low: named.get('lag_min_days') ?? Number.NaN, high: named.get('lag_max_days') ?? Number.NaN };
}

async function ofRows(): Promise<Lag> {
  const [[low, high] = []] = await target.values(
    `SELECT min(received_date::date - shipped_date::date)::float8, max(received_date::date - shipped_date::date)::float8
     FROM manifests WHERE received_date <> '' AND shipped_date <> ''`,
  );
  return { low: Number(low), high: Number(high) };
}

it('widens the stored receipt lag with each batch that commits, not only at the end', async () => {
  // The demo's last manifest received three years after it was shipped: a lag none of the others has.
  const demo = join(dir, 'demo.db');
  await buildDemoDatabase(demo, { manifests: MANIFESTS, seed: 5 });
  const source = new BetterSqlite3(demo);
  source
    .prepare(
      `UPDATE manifests SET received_date = date(shipped_date, '+3 years')
       WHERE id = (SELECT max(id) FROM manifests WHERE shipped_date <> '')`,
    )
    .run();
  const first = join(dir, 'first');
  const all = join(dir, 'all');
  mkdirSync(first);
  mkdirSync(all);
  await writeEpaFiles(source, first, { manifests: MANIFESTS / 2 });
  await writeEpaFiles(source, all);
  source.close();

  // The first half, then every file, as into a database its servers serve.
  await importFiles({ db: target.db, paths: [first], report: join(dir, 'first.csv') });
  const before = await ofRows();
  expect(await stored()).toEqual(before);

  const sink = await openSink(target);
  const seen: { stored: Lag; rows: Lag }[] = [];
  const watched = wrapSink(sink, {
    write: async (batch: SinkBatch) => {
      const counts = await sink.write(batch);
      seen.push({ stored: await stored(), rows: await ofRows() });
      return counts;
    },
  });
  try {
    await runImport({ sink: watched, sources: await discoverSources([all]), batchRows: 100 });
  } finally {
    await sink.close();
  }
  const after = await ofRows();
  expect(after.high).toBeGreaterThan(before.high + 900);
  // After every batch, the stored lag holds every committed manifest's.
  for (const { stored: lag, rows } of seen) {
    expect(lag.low).toBeLessThanOrEqual(rows.low);
    expect(lag.high).toBeGreaterThanOrEqual(rows.high);
  }
  expect(seen.some(({ rows }) => rows.high === after.high)).toBe(true);
  expect(await stored()).toEqual(after);
});
