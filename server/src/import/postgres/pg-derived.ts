/**
 * What PostgreSQL's serving queries read beside the rows (postgres/pg-reads.ts), brought up to date for the
 * rows one import batch touched, in the batch's transaction, so that every server process sees each
 * transaction whole: each touched manifest's transporter, containers, line count and tons, its lines'
 * transporter id and stored waste-line JSON, its line sets and the per-value totals of the values they
 * hold; each touched generator's sets, shipment totals, method counts and their texts (pg-generators.ts);
 * the new rows' tracking numbers and handler ids added to their lookup lists (pg-lookup-lists.ts). Search
 * needs nothing (a generated column, pg-schema.ts) and the other lookups are read from the rows.
 *
 * The same facts as SQLite's (import/sqlite/derived.ts, db/derive.ts), by set-based statements over the
 * batch's ids: what belongs to one manifest worked out whole, what adds up over many (a value's totals, a
 * generator's) moved by what the batch changed.
 */
import type { TransactionSql } from 'postgres';
import {
  GENERATOR_QUERY,
  MANIFEST_FROM_LINES,
  MANIFEST_QUERY,
  type Reduction,
} from '../../../../shared/query/definition.ts';
import {
  GENERATOR_QUANTITY_COLUMNS,
  LINE_SET_QUANTITY_COLUMNS,
  LINE_SET_TOTAL_COLUMNS,
  lineSetRows,
} from '../../db/fact-storage.ts';
import { WASTE_LINE_COLUMNS, wasteLine } from '../../db/waste-lines-json.ts';
import { ONE_PER_ROW, appendLookupEntries } from '../../postgres/pg-lookup-lists.ts';
import {
  RECEIPT_LAG_DAYS,
  RECEIPT_LAG_ROWS,
  RECEIPT_LAG_SELECT,
  totalsSql,
} from '../../postgres/pg-query.ts';
import { manifestQuantitySql, transporterNameSql } from '../writers/manifest-totals.ts';
import type { Touched } from '../writers/writers.ts';
import { shippedBefore, updateGenerators, type MethodLinesBefore } from './pg-generators.ts';

const IDS = 'ANY($1::int[])';

/**
 * Each touched manifest's transporter and totals from its rows, written only where they change (as SQLite's,
 * import/sqlite/derived-sql.ts): an UPDATE writes a new version of every row it matches, changed or not,
 * and unless no indexed column's value changes (a HOT update), a new entry in every index of the table.
 * One statement for the transporter and the totals, unlike SQLite's two: a row that changes in both gets
 * one new version, not two.
 */
const FROM_LINES = totalsSql(MANIFEST_FROM_LINES, (quantity) => `w.${quantity}`);
const WRITTEN = ['transporter', ...FROM_LINES.map(([quantity]) => quantity)];
const MANIFEST_AGGREGATES_SQL = [
  `UPDATE manifests m SET ${WRITTEN.map((column) => `${column} = a.${column}`).join(', ')}
FROM (SELECT x.id,
        coalesce((SELECT ${transporterNameSql('t')} FROM manifest_transporters t
                  WHERE t.manifest_id = x.id AND t.transporter_order = 1), '') AS transporter,
        ${FROM_LINES.map(
          ([quantity, sql]) =>
            `${manifestQuantitySql(quantity, 'x', `(SELECT ${sql} FROM waste_lines w WHERE w.manifest_id = x.id)`)} AS ${quantity}`,
        ).join(', ')}
      FROM manifests x WHERE x.id = ${IDS}) a
WHERE m.id = a.id
  AND (${WRITTEN.map((column) => `m.${column}`).join(', ')})
      IS DISTINCT FROM (${WRITTEN.map((column) => `a.${column}`).join(', ')})`,
  `UPDATE waste_lines w SET transporter = a.transporter
FROM (SELECT x.id, coalesce((SELECT t.epa_id FROM manifest_transporters t
                             WHERE t.manifest_id = x.id AND t.transporter_order = 1), '') AS transporter
      FROM manifests x WHERE x.id = ${IDS}) a
WHERE w.manifest_id = a.id AND w.transporter IS DISTINCT FROM a.transporter`,
];

/**
 * Widens the stored receipt lag to take in the batch's manifests (db/tallies.ts `widenLag`, as SQLite's
 * importer does per batch), so that a server reading it (pg-manifest-reads.ts) bounds a received-date page
 * by it while the import runs. A bound: an import only widens it, and `computeTallies` makes it exact at the
 * end. A database without the tally (one never imported into) is left without it: the server reads the
 * lag from the rows then.
 */
const WIDEN_LAG_SQL = `UPDATE data_tallies d
SET value = CASE d.name WHEN 'lag_min_days' THEN least(d.value, b.low) ELSE greatest(d.value, b.high) END
FROM (SELECT min(${RECEIPT_LAG_DAYS}) AS low, max(${RECEIPT_LAG_DAYS}) AS high
      FROM manifests t WHERE t.id = ${IDS} AND ${RECEIPT_LAG_ROWS}) b
WHERE (d.name = 'lag_min_days' AND b.low < d.value) OR (d.name = 'lag_max_days' AND b.high > d.value)`;

/** The line sets of the batch's manifests' waste lines, by the rule a whole build writes them with. */
const LINE_SETS = lineSetRows(`w.manifest_id = ${IDS}`);
const LINE_SETS_SQL = [
  `DELETE FROM manifest_line_sets WHERE manifest_id = ${IDS}`,
  `INSERT INTO manifest_line_sets ${LINE_SETS.columns}\n${LINE_SETS.select}\nON CONFLICT DO NOTHING`,
];

const TOTALS = Object.entries(MANIFEST_QUERY.totals) as [
  keyof typeof MANIFEST_QUERY.totals,
  Reduction<keyof typeof LINE_SET_QUANTITY_COLUMNS>,
][];

/** What line sets add to one total of their value, unrounded (only a whole total is rounded). */
function partSql(reduction: Reduction<keyof typeof LINE_SET_QUANTITY_COLUMNS>): string {
  switch (reduction.reduce) {
    case 'rows':
      return 'count(*)::numeric';
    case 'sum':
      return `coalesce(sum(${LINE_SET_QUANTITY_COLUMNS[reduction.of]}::numeric), 0)`;
    case 'rowsAbove0':
      return `(count(*) FILTER (WHERE ${LINE_SET_QUANTITY_COLUMNS[reduction.of]} > 0))::numeric`;
  }
}

/** A total (`was`, 0 for a value new to the table) moved by a part, rounded as a whole one is. */
function movedSql(reduction: Reduction<string>, was: string, part: string): string {
  const sum = `${was}::numeric + ${part}`;
  return reduction.reduce === 'sum' && reduction.decimals !== undefined
    ? `round(${sum}, ${reduction.decimals})`
    : sum;
}

const PARTS = TOTALS.map(([name, reduction]) => `${partSql(reduction)} AS ${name}`).join(', ');
const column = (name: keyof typeof MANIFEST_QUERY.totals) => LINE_SET_TOTAL_COLUMNS[name];

/** The total counting a value's line sets: a value none holds any more has no totals row. */
const COUNTED = TOTALS.filter(([, reduction]) => reduction.reduce === 'rows').map(([name]) =>
  column(name),
)[0];

/**
 * The per-value totals moved by the difference between the touched manifests' line sets after the batch and
 * before it (kept in a temporary table while they are written again), where they were worked out again from
 * every line set of each value the batch's manifests hold: a common waste code is held by hundreds of
 * thousands, which each batch of an import into a million manifests read again. The parts are summed in
 * numeric, and only a total is rounded.
 */
const LINE_SETS_BEFORE_TABLE_SQL = `CREATE TEMPORARY TABLE line_sets_before
  (member text COLLATE "C", code text COLLATE "C", ${TOTALS.map(([name]) => `${name} numeric`).join(', ')})
  ON COMMIT DROP`;
const LINE_SETS_BEFORE_SQL = `INSERT INTO line_sets_before
SELECT member, code, ${PARTS} FROM manifest_line_sets WHERE manifest_id = ${IDS} GROUP BY member, code`;

const LINE_SET_TOTALS_MOVED_SQL = `WITH moved AS (
  SELECT member, code, ${TOTALS.map(([name]) => `sum(${name}) AS ${name}`).join(', ')}
  FROM (SELECT member, code, ${PARTS} FROM manifest_line_sets WHERE manifest_id = ${IDS} GROUP BY member, code
        UNION ALL
        SELECT member, code, ${TOTALS.map(([name]) => `-${name}`).join(', ')} FROM line_sets_before) parts
  GROUP BY member, code
  HAVING ${TOTALS.map(([name]) => `sum(${name}) <> 0`).join(' OR ')}
), updated AS (
  UPDATE manifest_line_set_totals t
  SET ${TOTALS.map(([name, reduction]) => `${column(name)} = ${movedSql(reduction, `t.${column(name)}`, `m.${name}`)}`).join(', ')}
  FROM moved m WHERE t.member = m.member AND t.code = m.code
)
INSERT INTO manifest_line_set_totals (member, code, ${TOTALS.map(([name]) => column(name)).join(', ')})
SELECT member, code, ${TOTALS.map(([name, reduction]) => movedSql(reduction, '0', name)).join(', ')} FROM moved m
WHERE NOT EXISTS (SELECT 1 FROM manifest_line_set_totals t WHERE t.member = m.member AND t.code = m.code)`;

/** Values that no line set holds any more, once the batch's were taken out. */
const LINE_SET_TOTALS_EMPTIED_SQL = `DELETE FROM manifest_line_set_totals t USING line_sets_before b
WHERE t.member = b.member AND t.code = b.code AND t.${COUNTED} <= 0`;

async function each(sql: TransactionSql, statements: readonly string[], ids: number[]): Promise<void> {
  for (const statement of statements) await sql.unsafe(statement, [ids]);
}

/**
 * Brings what the serving queries read up to date for the batch's touched rows; `methodLines` was read
 * before the batch's writers ran (pg-generators.ts).
 */
export async function afterBatch(
  sql: TransactionSql,
  touched: Touched,
  methodLines: MethodLinesBefore,
): Promise<void> {
  const manifests = [...touched.manifests];
  // Before their aggregates are written again.
  const shipped = await shippedBefore(sql, touched);
  if (manifests.length > 0) {
    await each(sql, MANIFEST_AGGREGATES_SQL, manifests);
    await sql.unsafe(WIDEN_LAG_SQL, [manifests]);
    await wasteLinesJson(sql, manifests);
    await sql.unsafe(LINE_SETS_BEFORE_TABLE_SQL);
    await sql.unsafe(LINE_SETS_BEFORE_SQL, [manifests]);
    await each(sql, LINE_SETS_SQL, manifests);
    await sql.unsafe(LINE_SET_TOTALS_MOVED_SQL, [manifests]);
    await sql.unsafe(LINE_SET_TOTALS_EMPTIED_SQL);
  }
  await updateGenerators(sql, touched, { methodLines, shipped });
  // A tracking number or handler id is its row's key: only the rows the batch created bring one to a list.
  for (const entry of ONE_PER_ROW) {
    const created = entry.list.from === 'manifests' ? touched.newManifests : touched.newGenerators;
    await appendLookupEntries(sql, entry, [...created]);
  }
}

/**
 * Manifests whose waste-line JSON is made at a time: a batch of EM_WASTE_LINE touches thousands, and their
 * lines read at once, as objects and as JSON, held more than the importer's heap bound (package.json).
 */
const JSON_MANIFESTS = 1000;

/** The touched manifests' lines as the wire's JSON (db/waste-lines-json.ts), one statement each way per chunk. */
async function wasteLinesJson(sql: TransactionSql, ids: number[]): Promise<void> {
  for (let start = 0; start < ids.length; start += JSON_MANIFESTS) {
    await wasteLinesJsonOf(sql, ids.slice(start, start + JSON_MANIFESTS));
  }
}

async function wasteLinesJsonOf(sql: TransactionSql, ids: number[]): Promise<void> {
  const rows = await sql
    .unsafe<unknown[][]>(
      `SELECT w.manifest_id, m.manifest_tracking_number, ${WASTE_LINE_COLUMNS.map((column) => `w.${column}`).join(', ')}
       FROM waste_lines w JOIN manifests m ON m.id = w.manifest_id
       WHERE w.manifest_id = ${IDS} ORDER BY w.manifest_id, w.waste_line_number`,
      [ids],
    )
    .values();
  const byManifest = new Map<number, Record<string, unknown>[]>();
  for (const [id, number, ...values] of rows) {
    const lines = byManifest.get(Number(id)) ?? [];
    lines.push(wasteLine(number, values));
    byManifest.set(Number(id), lines);
  }
  await sql.unsafe(`DELETE FROM manifest_waste_lines_json WHERE manifest_id = ${IDS}`, [ids]);
  if (byManifest.size === 0) return;
  await sql.unsafe(
    `INSERT INTO manifest_waste_lines_json (manifest_id, json) SELECT * FROM unnest($1::int[], $2::text[])`,
    [[...byManifest.keys()], [...byManifest.values()].map((lines) => JSON.stringify(lines))],
  );
}

/** A partial tally: what add up batch by batch (db/tallies.ts), in PostgreSQL's SQL. */
function tallySql<Quantity extends string>(
  reduction: Reduction<Quantity>,
  column: (quantity: Quantity) => string,
): string {
  switch (reduction.reduce) {
    case 'rows':
      return 'count(*)::float8';
    case 'sum':
      return `coalesce(sum(${column(reduction.of)}::numeric), 0)::float8`;
    case 'rowsAbove0':
      return `(count(*) FILTER (WHERE ${column(reduction.of)} > 0))::float8`;
  }
}

/**
 * The dataset's tallies (data_tallies, db/tallies.ts), computed from the rows at the end of an import: the
 * table SQLite's requests read, kept equal on PostgreSQL so that a database moved between them carries it.
 */
export async function computeTallies(sql: TransactionSql): Promise<void> {
  const lists = [
    ['manifests', MANIFEST_QUERY.totals, (quantity: string) => quantity],
    [
      'generators',
      GENERATOR_QUERY.totals,
      (quantity: string) => GENERATOR_QUANTITY_COLUMNS[quantity as keyof typeof GENERATOR_QUANTITY_COLUMNS],
    ],
  ] as const;
  const rows: [string, number][] = [];
  for (const [table, totals, column] of lists) {
    const entries = Object.entries(totals) as [string, Reduction<string>][];
    const [values = []] = (await sql
      .unsafe(
        `SELECT count(*)::float8, ${entries.map(([, reduction]) => tallySql(reduction, column)).join(', ')} FROM ${table}`,
      )
      .values()) as unknown as number[][];
    rows.push([`${table}.rows`, Number(values[0] ?? 0)]);
    entries.forEach(([name], index) => rows.push([`${table}.${name}`, Number(values[index + 1] ?? 0)]));
  }
  const [lag = []] = (await sql
    .unsafe(`SELECT ${RECEIPT_LAG_SELECT} FROM manifests t WHERE ${RECEIPT_LAG_ROWS}`)
    .values()) as unknown as (number | null)[][];
  rows.push(['lag_min_days', lag[0] ?? 0], ['lag_max_days', lag[1] ?? 0]);
  await sql`DELETE FROM data_tallies`;
  await sql.unsafe('INSERT INTO data_tallies (name, value) SELECT * FROM unnest($1::text[], $2::float8[])', [
    rows.map(([name]) => name),
    rows.map(([, value]) => value),
  ] as never);
}
