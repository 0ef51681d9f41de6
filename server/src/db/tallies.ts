/**
 * Facts about the whole dataset that requests read on every unfiltered list and totals box: the row
 * counts, the unfiltered totals of both lists and how many days receipt may follow shipment. Kept in the
 * database rather than in the server's memory so that they are current the moment an import commits:
 * finalize computes them, each import batch moves them by what it changed (import/sqlite/derived.ts), and
 * the end of an import computes them again exactly. A request reads them in one indexed statement.
 */
import type { Database } from 'better-sqlite3';
import type { StatementCache } from './statements.ts';

export interface Tallies {
  manifests: number;
  manifest_tons: number;
  manifest_containers: number;
  manifest_streams: number;
  generators: number;
  generator_tons: number;
  generator_shipped: number;
  generator_containers: number;
  /** Generators with at least one manifest. */
  generator_shippers: number;
  /** The fewest and most days between a manifest's shipment and its receipt (a bound: imports only widen it). */
  lag_min_days: number;
  lag_max_days: number;
}

const COMPUTE_SQL = `
SELECT 'manifests', count(*) FROM manifests
UNION ALL SELECT 'manifest_tons', total(total_waste_quantity_tons) FROM manifests
UNION ALL SELECT 'manifest_containers', total(container_count) FROM manifests
UNION ALL SELECT 'manifest_streams', total(waste_stream_count) FROM manifests
UNION ALL SELECT 'generators', count(*) FROM generators
UNION ALL SELECT 'generator_tons', total(shipped_tons) FROM generators
UNION ALL SELECT 'generator_shipped', total(shipped_count) FROM generators
UNION ALL SELECT 'generator_containers', total(container_count) FROM generators
UNION ALL SELECT 'generator_shippers', total(shipped_count > 0) FROM generators
UNION ALL SELECT 'lag_min_days', coalesce(min(julianday(received_date) - julianday(shipped_date)), 0) FROM manifests
UNION ALL SELECT 'lag_max_days', coalesce(max(julianday(received_date) - julianday(shipped_date)), 0) FROM manifests`;

/** Computes every tally from the tables (one pass each; seconds over a million manifests). */
export function computeTallies(db: Database): void {
  const rows = db.prepare(COMPUTE_SQL).raw().all() as [string, number][];
  const write = db.prepare('INSERT OR REPLACE INTO data_tallies (name, value) VALUES (?, ?)');
  db.transaction(() => {
    for (const [name, value] of rows) write.run(name, value);
  })();
}

/** Adds `delta` to the sums and counts; the receipt lag only widens to the given bounds. */
export function shiftTallies(db: Database, delta: Partial<Tallies>): void {
  const add = db.prepare('UPDATE data_tallies SET value = value + ? WHERE name = ?');
  for (const [name, value] of Object.entries(delta)) {
    if (name === 'lag_min_days') {
      db.prepare("UPDATE data_tallies SET value = min(value, ?) WHERE name = 'lag_min_days'").run(value);
    } else if (name === 'lag_max_days') {
      db.prepare("UPDATE data_tallies SET value = max(value, ?) WHERE name = 'lag_max_days'").run(value);
    } else if (value !== 0) {
      add.run(value, name);
    }
  }
}

/** Every tally as stored now. */
export function readTallies(statements: StatementCache): Tallies {
  const rows = statements.get('SELECT name, value FROM data_tallies').raw().all() as [
    keyof Tallies,
    number,
  ][];
  const tallies = {} as Tallies;
  for (const [name, value] of rows) tallies[name] = value;
  return tallies;
}

/** One tally, as stored now. */
export function readTally(statements: StatementCache, name: keyof Tallies): number {
  return (
    (statements.get('SELECT value FROM data_tallies WHERE name = ?').pluck().get(name) as
      number | undefined) ?? 0
  );
}
