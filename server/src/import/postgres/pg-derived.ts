/**
 * What PostgreSQL's serving queries read beside the rows (postgres/pg-reads.ts), brought up to date for the
 * rows one import batch touched, in the batch's transaction, so that every server process sees each
 * transaction whole: each touched manifest's transporter, containers, line count and tons, its lines'
 * transporter id and stored waste-line JSON, its line sets and the per-value totals of the values they
 * hold; each touched generator's sets, shipment totals, method counts and their texts, worked out from its
 * rows; the new rows' tracking numbers and handler ids added to their lookup lists (pg-lookup-lists.ts).
 * Search needs nothing (a generated column, pg-schema.ts) and the other lookups are read from the rows.
 *
 * The same facts as SQLite's (import/sqlite/derived.ts, db/derive.ts), each worked out whole for the rows a
 * batch touched rather than moved by differences: set-based statements over the batch's ids.
 */
import type { TransactionSql } from 'postgres';
import { GENERATOR_QUERY, MANIFEST_QUERY, type Reduction } from '../../../../shared/query/definition.ts';
import {
  GENERATOR_QUANTITY_COLUMNS,
  LINE_SET_QUANTITY_COLUMNS,
  LINE_SET_TOTAL_COLUMNS,
  MANIFEST_FACT_SETS,
} from '../../db/fact-storage.ts';
import { WASTE_LINE_COLUMNS, wasteLine } from '../../db/waste-lines-json.ts';
import { ONE_PER_ROW, appendLookupEntries } from '../../postgres/pg-lookup-lists.ts';
import {
  RECEIPT_LAG_DAYS,
  RECEIPT_LAG_ROWS,
  RECEIPT_LAG_SELECT,
  totalsSelect,
} from '../../postgres/pg-query.ts';
import type { Touched } from '../writers/writers.ts';

const IDS = 'ANY($1::int[])';

/**
 * Each touched manifest's transporter and totals from its rows, written only where they change (as SQLite's,
 * import/sqlite/derived-sql.ts): an UPDATE writes a new version of every row it matches, changed or not,
 * and unless no indexed column's value changes (a HOT update), a new entry in every index of the table.
 * One statement for the transporter and the totals, unlike SQLite's two: a row that changes in both gets
 * one new version, not two.
 */
const MANIFEST_AGGREGATES_SQL = [
  `UPDATE manifests m SET transporter = a.transporter, container_count = a.containers,
  waste_stream_count = a.lines, total_waste_quantity_tons = a.tons
FROM (SELECT x.id,
        coalesce((SELECT coalesce(nullif(t.name, ''), t.epa_id) FROM manifest_transporters t
                  WHERE t.manifest_id = x.id AND t.transporter_order = 1), '') AS transporter,
        coalesce((SELECT sum(w.container_count) FROM waste_lines w WHERE w.manifest_id = x.id), 0) AS containers,
        (SELECT count(*) FROM waste_lines w WHERE w.manifest_id = x.id) AS lines,
        coalesce(x.source_total_tons,
          (SELECT round(coalesce(sum(w.waste_quantity_tons::numeric), 0), 4)::float8 FROM waste_lines w
           WHERE w.manifest_id = x.id)) AS tons
      FROM manifests x WHERE x.id = ${IDS}) a
WHERE m.id = a.id
  AND (m.transporter, m.container_count, m.waste_stream_count, m.total_waste_quantity_tons)
      IS DISTINCT FROM (a.transporter, a.containers, a.lines, a.tons)`,
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

const LINE_SETS_SQL = [
  `DELETE FROM manifest_line_sets WHERE manifest_id = ${IDS}`,
  ...Object.values(MANIFEST_FACT_SETS).map(
    ({ member, lineColumn }) => `INSERT INTO manifest_line_sets
  (member, code, shipped_date, manifest_tracking_number, manifest_id, tons, containers, streams)
SELECT '${member}', w.${lineColumn}, m.shipped_date, m.manifest_tracking_number, m.id,
       m.total_waste_quantity_tons, m.container_count, m.waste_stream_count
FROM manifests m JOIN waste_lines w ON w.manifest_id = m.id
WHERE m.id = ${IDS} AND w.${lineColumn} <> ''
ON CONFLICT DO NOTHING`,
  ),
];

/** The set values whose totals a batch may move: those its manifests' sets held before it and hold after. */
const LINE_SET_VALUES_SQL = `SELECT DISTINCT member, code FROM manifest_line_sets WHERE manifest_id = ${IDS}`;

const TOTAL_NAMES = Object.keys(MANIFEST_QUERY.totals) as (keyof typeof MANIFEST_QUERY.totals)[];

/** Each listed value's totals worked out again from all its line sets ($1 members, $2 codes). */
const LINE_SET_TOTALS_SQL = [
  `DELETE FROM manifest_line_set_totals
WHERE (member, code) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
  `INSERT INTO manifest_line_set_totals (member, code, ${TOTAL_NAMES.map((total) => LINE_SET_TOTAL_COLUMNS[total]).join(', ')})
SELECT member, code, ${totalsSelect(MANIFEST_QUERY.totals, (quantity) => LINE_SET_QUANTITY_COLUMNS[quantity])}
FROM manifest_line_sets
WHERE (member, code) IN (SELECT * FROM unnest($1::text[], $2::text[]))
GROUP BY member, code`,
];

/** db/derive.ts's per-generator sets and totals, worked out from all of these generators' rows. */
const GENERATOR_SQL = [
  `DELETE FROM generator_shipped_years WHERE generator_id = ${IDS}`,
  `DELETE FROM generator_waste_codes WHERE generator_id = ${IDS}`,
  `DELETE FROM generator_handling_codes WHERE generator_id = ${IDS}`,
  `DELETE FROM generator_method_lines WHERE generator_id = ${IDS}`,
  `INSERT INTO generator_method_lines (generator_id, code, lines)
SELECT m.generator_id, w.management_method_code, count(*)
FROM manifests m JOIN waste_lines w ON w.manifest_id = m.id
WHERE m.generator_id = ${IDS} AND w.management_method_code <> '' GROUP BY 1, 2`,
  `INSERT INTO generator_shipped_years (year, generator_id)
SELECT DISTINCT substr(shipped_date, 1, 4), generator_id FROM manifests
WHERE generator_id = ${IDS} AND shipped_date <> ''`,
  `INSERT INTO generator_handling_codes (code, generator_id)
SELECT DISTINCT w.management_method_code, m.generator_id
FROM manifests m JOIN waste_lines w ON w.manifest_id = m.id
WHERE m.generator_id = ${IDS} AND w.management_method_code <> ''`,
  `INSERT INTO generator_waste_codes (code, generator_id)
SELECT DISTINCT trim(c.code), m.generator_id
FROM manifests m JOIN waste_lines w ON w.manifest_id = m.id,
     unnest(string_to_array(w.federal_waste_codes, ',')) AS c(code)
WHERE m.generator_id = ${IDS} AND w.federal_waste_codes <> '' AND trim(c.code) <> ''`,
  // Written only where a value changes, as the manifests' aggregates are: a new generator of a handler file
  // has none yet, and rewriting each (a new version of the row, in each of its two dozen indexes, with its
  // search text) held an import of 100,000 handlers into an empty database at ~730 rows/s, ~1,080 without.
  `UPDATE generators g SET shipped_tons = a.tons, shipped_count = a.manifests, container_count = a.containers,
  shipped_years = a.years, federal_waste_codes = a.codes, mmc_count = a.methods, management_method_code = a.method
FROM (SELECT x.id, coalesce(s.tons, 0) AS tons, coalesce(s.manifests, 0) AS manifests,
        coalesce(s.containers, 0) AS containers,
        coalesce((SELECT string_agg(year, ',' ORDER BY year) FROM generator_shipped_years
                  WHERE generator_id = x.id), '') AS years,
        coalesce((SELECT string_agg(code, ',' ORDER BY code) FROM generator_waste_codes
                  WHERE generator_id = x.id), '') AS codes,
        (SELECT count(*) FROM generator_handling_codes WHERE generator_id = x.id) AS methods,
        coalesce((SELECT code FROM generator_method_lines WHERE generator_id = x.id
                  ORDER BY lines DESC, code LIMIT 1), '') AS method
      FROM generators x
      -- Their manifests read once for the three sums, not once each.
      LEFT JOIN (SELECT generator_id, round(sum(total_waste_quantity_tons::numeric), 4)::float8 AS tons,
                        count(*) AS manifests, sum(container_count) AS containers
                 FROM manifests WHERE generator_id = ${IDS} GROUP BY generator_id) s ON s.generator_id = x.id
      WHERE x.id = ${IDS}) a
WHERE g.id = a.id
  AND (g.shipped_tons, g.shipped_count, g.container_count, g.shipped_years, g.federal_waste_codes, g.mmc_count,
       g.management_method_code)
      IS DISTINCT FROM (a.tons, a.manifests, a.containers, a.years, a.codes, a.methods, a.method)`,
];

/** Each generator's statuses, for the generators whose own rows a batch wrote. */
const GENERATOR_STATUS_SQL = [
  `DELETE FROM generator_statuses WHERE generator_id = ${IDS}`,
  `INSERT INTO generator_statuses (status, generator_id)
SELECT registration_status, id FROM generators WHERE registration_status <> '' AND id = ${IDS}
UNION
SELECT federal_generator_status_universe, id FROM generators
WHERE federal_generator_status_universe <> '' AND id = ${IDS}
ON CONFLICT DO NOTHING`,
];

async function each(sql: TransactionSql, statements: readonly string[], ids: number[]): Promise<void> {
  for (const statement of statements) await sql.unsafe(statement, [ids]);
}

async function setValues(sql: TransactionSql, ids: number[]): Promise<Set<string>> {
  const rows = (await sql.unsafe(LINE_SET_VALUES_SQL, [ids]).values()) as unknown as [string, string][];
  return new Set(rows.map(([member, code]) => `${member}\u0000${code}`));
}

/** Brings what the serving queries read up to date for the batch's touched rows. */
export async function afterBatch(sql: TransactionSql, touched: Touched): Promise<void> {
  const manifests = [...touched.manifests];
  if (manifests.length > 0) {
    await each(sql, MANIFEST_AGGREGATES_SQL, manifests);
    await sql.unsafe(WIDEN_LAG_SQL, [manifests]);
    await wasteLinesJson(sql, manifests);
    const values = await setValues(sql, manifests);
    await each(sql, LINE_SETS_SQL, manifests);
    for (const value of await setValues(sql, manifests)) values.add(value);
    const pairs = [...values].map((value) => value.split('\u0000'));
    const members = pairs.map(([member = '']) => member);
    const codes = pairs.map(([, code = '']) => code);
    for (const statement of LINE_SET_TOTALS_SQL) await sql.unsafe(statement, [members, codes]);
  }
  if (touched.generators.size > 0) await each(sql, GENERATOR_SQL, [...touched.generators]);
  const own = [...touched.newGenerators, ...touched.existingGenerators];
  if (own.length > 0) await each(sql, GENERATOR_STATUS_SQL, own);
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
