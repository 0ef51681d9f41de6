/**
 * Facts about the whole dataset that requests read on every unfiltered list and totals box: each table's
 * row count, each list's totals as shared/query's definition declares them, and how many days receipt may
 * follow shipment. Kept in the database rather than in the server's memory so that they are current the
 * moment an import commits: finalize computes them, each import batch moves them by what it changed
 * (import/sqlite/derived.ts), and the end of an import computes them again exactly. A request reads them
 * in one indexed statement.
 *
 * The totals are built from the definition (db/sqlite-query.ts `partialTotalsSql`): stored before rounding,
 * as counts and sums that add up batch by batch, and rounded as the definition says when read.
 */
import type { Database } from 'better-sqlite3';
import {
  GENERATOR_QUERY,
  MANIFEST_QUERY,
  type GeneratorTotal,
  type ManifestTotal,
  type Reduction,
} from '../../../shared/query/definition.ts';
import { roundTotals } from '../../../shared/query/totals.ts';
import { GENERATOR_QUANTITY_COLUMNS } from './fact-storage.ts';
import { partialTotalsSql, type ReceiptLag } from './sqlite-query.ts';
import type { StatementCache } from './statements.ts';

export type TallyTable = 'manifests' | 'generators';

interface TableTallies {
  totals: Readonly<Record<string, Reduction<string>>>;
  /** Each tally's name and its SQL over the rows read: the row count first, then each total. */
  columns: { name: string; sql: string; counts: boolean }[];
}

function tableTallies<Quantity extends string, Total extends string>(
  table: TallyTable,
  totals: Readonly<Record<Total, Reduction<Quantity>>>,
  column: (quantity: Quantity) => string,
): TableTallies {
  return {
    totals,
    columns: [
      { name: `${table}.rows`, sql: 'count(*)', counts: true },
      ...partialTotalsSql(totals, column).map(([total, sql]) => ({
        name: `${table}.${total}`,
        sql,
        counts: totals[total].reduce === 'rows',
      })),
    ],
  };
}

const TABLES: Record<TallyTable, TableTallies> = {
  manifests: tableTallies('manifests', MANIFEST_QUERY.totals, (quantity) => quantity),
  generators: tableTallies(
    'generators',
    GENERATOR_QUERY.totals,
    (quantity) => GENERATOR_QUANTITY_COLUMNS[quantity],
  ),
};

/** A table's tallies over the rows read, as a select list (`tallyShift` takes two of its rows). */
export function tallySelect(table: TallyTable): string {
  return TABLES[table].columns.map((column) => column.sql).join(', ');
}

/** The fewest and most days between shipment and receipt over the manifests read (null for none). */
export const LAG_SELECT = `min(julianday(received_date) - julianday(shipped_date)),
  max(julianday(received_date) - julianday(shipped_date))`;

/** Computes every tally from the tables (one pass each; seconds over a million manifests). */
export function computeTallies(db: Database): void {
  const rows: [string, number][] = [];
  for (const [table, tallies] of Object.entries(TABLES) as [TallyTable, TableTallies][]) {
    const values = db
      .prepare(`SELECT ${tallySelect(table)} FROM ${table}`)
      .raw()
      .get() as number[];
    tallies.columns.forEach((column, index) => rows.push([column.name, values[index] ?? 0]));
  }
  const [lagMin, lagMax] = db.prepare(`SELECT ${LAG_SELECT} FROM manifests`).raw().get() as (number | null)[];
  rows.push(['lag_min_days', lagMin ?? 0], ['lag_max_days', lagMax ?? 0]);
  const write = db.prepare('INSERT INTO data_tallies (name, value) VALUES (?, ?)');
  db.transaction(() => {
    db.prepare('DELETE FROM data_tallies').run();
    for (const [name, value] of rows) write.run(name, value);
  })();
}

/**
 * Moves a table's tallies by what a batch changed: `before` and `after` are tallySelect over the rows it
 * touched, read before and after it. Counts of rows move by the rows it added (the same rows are read
 * both times, so their difference would be none).
 */
export function shiftTallies(
  db: Database,
  table: TallyTable,
  change: { before: readonly number[]; after: readonly number[]; added: number },
): void {
  const add = db.prepare('UPDATE data_tallies SET value = value + ? WHERE name = ?');
  TABLES[table].columns.forEach((column, index) => {
    const delta = column.counts ? change.added : (change.after[index] ?? 0) - (change.before[index] ?? 0);
    if (delta !== 0) add.run(delta, column.name);
  });
}

/** Widens the receipt lag to take in a batch's manifests (a bound: imports only widen it). */
export function widenLag(db: Database, lag: ReceiptLag): void {
  db.prepare("UPDATE data_tallies SET value = min(value, ?) WHERE name = 'lag_min_days'").run(lag.minDays);
  db.prepare("UPDATE data_tallies SET value = max(value, ?) WHERE name = 'lag_max_days'").run(lag.maxDays);
}

function readAll(statements: StatementCache): Map<string, number> {
  const rows = statements.get('SELECT name, value FROM data_tallies').raw().all() as [string, number][];
  return new Map(rows);
}

/** A table's rows, as stored now. */
export function tallyRows(statements: StatementCache, table: TallyTable): number {
  return (
    (statements.get('SELECT value FROM data_tallies WHERE name = ?').pluck().get(`${table}.rows`) as
      number | undefined) ?? 0
  );
}

/** The whole list's totals, as stored now, rounded as the definition says. */
export function tallyTotals(statements: StatementCache, table: 'manifests'): Record<ManifestTotal, number>;
export function tallyTotals(statements: StatementCache, table: 'generators'): Record<GeneratorTotal, number>;
export function tallyTotals(statements: StatementCache, table: TallyTable): Record<string, number> {
  const stored = readAll(statements);
  const { totals } = TABLES[table];
  const sums: Record<string, number> = {};
  for (const total of Object.keys(totals)) sums[total] = stored.get(`${table}.${total}`) ?? 0;
  return roundTotals(totals, sums);
}

/** The receipt lag, as stored now. */
export function tallyLag(statements: StatementCache): ReceiptLag {
  const stored = readAll(statements);
  return { minDays: stored.get('lag_min_days') ?? 0, maxDays: stored.get('lag_max_days') ?? 0 };
}
