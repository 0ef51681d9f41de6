/**
 * The generators of an import batch's manifests brought up to date on PostgreSQL (pg-derived.ts calls it in
 * the batch's transaction), by the rule SQLite's importer follows (import/sqlite/derived.ts): a generator
 * whose manifests only gained rows grows its sets from the batch's manifests and moves its shipment totals
 * and method line counts by their difference; one whose manifests lost something (`rewrittenGenerators`: a
 * manifest replaced by a newer version, a waste line corrected) is worked out again from all its rows.
 *
 * Worked out whole for every touched generator, each batch re-read every manifest and waste line of each:
 * into a database of a million manifests, a batch of 20,000 appended ones (~18,000 generators) read about a
 * fifth of the manifests again, and the import did more of that the more data it held.
 *
 * What a difference needs from before the batch: each stored manifest's totals, read from its row before its
 * aggregates are written again (the writers change them only by replacing the manifest, which rewrites its
 * generator), and its method line counts, read by `methodLinesBefore` ahead of the writers, for the stored
 * manifests the batch's rows name. A manifest the batch changed that was not read then has its generator
 * worked out whole: the rule never depends on the read covering every path.
 */
import type { TransactionSql } from 'postgres';
import {
  GENERATOR_FROM_MANIFESTS,
  GENERATOR_QUANTITIES,
  type ManifestQuantity,
  type Reduction,
} from '../../../../shared/query/definition.ts';
import { GENERATOR_QUANTITY_COLUMNS } from '../../db/fact-storage.ts';
import { roundedSql } from '../../db/reduction-sql.ts';
import { totalsSql } from '../../postgres/pg-query.ts';
import type { ImportRecord } from '../model/records.ts';
import type { Touched } from '../writers/writers.ts';

const IDS = 'ANY($1::int[])';

/** A manifest's part of a generator quantity (GENERATOR_FROM_MANIFESTS), exact: its value, or 1 for a row. */
function partSql(reduction: Reduction<ManifestQuantity>): string {
  switch (reduction.reduce) {
    case 'rows':
      return '1::numeric';
    case 'sum':
      return `${reduction.of}::numeric`;
    case 'rowsAbove0':
      return `(${reduction.of} > 0)::int::numeric`;
  }
}

/** Each generator quantity with its generators column and its part of one manifest, in the definition's order. */
const QUANTITIES = GENERATOR_QUANTITIES.map((quantity) => ({
  quantity,
  column: GENERATOR_QUANTITY_COLUMNS[quantity],
  reduction: GENERATOR_FROM_MANIFESTS[quantity],
  part: partSql(GENERATOR_FROM_MANIFESTS[quantity]),
}));

/** A stored manifest's method line counts before the batch: its id, generator and [code, lines] pairs. */
export interface MethodLinesBefore {
  /** Stored manifests the batch's rows name, read before any of its rows was written. */
  read: Set<number>;
  /** Lines per (manifest, generator, code), for the manifests of `read` that have any with a code. */
  rows: [manifest: number, generator: number, code: string, lines: number][];
}

/** The method line counts of the stored manifests these rows name (a generator's own rows name none). */
export async function methodLinesBefore(
  sql: TransactionSql,
  records: readonly ImportRecord[],
): Promise<MethodLinesBefore> {
  const tracking = new Set<string>();
  for (const entry of records) {
    if (entry.kind !== 'generator' && entry.kind !== 'naics') tracking.add(entry.record.trackingNumber);
  }
  const before: MethodLinesBefore = { read: new Set(), rows: [] };
  if (tracking.size === 0) return before;
  const rows = (await sql
    .unsafe(
      `SELECT m.id, m.generator_id, w.management_method_code, count(w.manifest_id)::int
       FROM manifests m
       LEFT JOIN waste_lines w ON w.manifest_id = m.id AND w.management_method_code <> ''
       WHERE m.manifest_tracking_number = ANY($1::text[])
       GROUP BY m.id, m.generator_id, w.management_method_code`,
      [[...tracking]],
    )
    .values()) as unknown as [number, number, string | null, number][];
  for (const [manifest, generator, code, lines] of rows) {
    before.read.add(manifest);
    if (code !== null) before.rows.push([manifest, generator, code, lines]);
  }
  return before;
}

/** What a batch's touched manifests held before it, read before their aggregates are written again. */
export interface ShippedBefore {
  /** Of each stored manifest the batch touched, its generator, then its parts (QUANTITIES' order, numeric text). */
  rows: [generator: number, ...parts: string[]][];
}

/** The shipment parts of the touched manifests that were stored before the batch, as their rows hold them. */
export async function shippedBefore(sql: TransactionSql, touched: Touched): Promise<ShippedBefore> {
  const stored = [...touched.manifests].filter((id) => !touched.newManifests.has(id));
  if (stored.length === 0) return { rows: [] };
  const rows = (await sql
    .unsafe(
      `SELECT generator_id, ${QUANTITIES.map(({ part }) => part).join(', ')} FROM manifests WHERE id = ${IDS}`,
      [stored],
    )
    .values()) as unknown as ShippedBefore['rows'];
  return { rows };
}

/**
 * The generators' sets from the manifests `scope` picks ($1: the batch's manifests by id, or all of some
 * generators' by generator): an insert that only adds (ON CONFLICT DO NOTHING), for the growth and the whole.
 */
const setsSql = (scope: 'm.id' | 'm.generator_id') => [
  `INSERT INTO generator_shipped_years (year, generator_id)
SELECT DISTINCT substr(m.shipped_date, 1, 4), m.generator_id FROM manifests m
WHERE ${scope} = ${IDS} AND m.shipped_date <> ''
ON CONFLICT DO NOTHING`,
  `INSERT INTO generator_handling_codes (code, generator_id)
SELECT DISTINCT w.management_method_code, m.generator_id
FROM manifests m JOIN waste_lines w ON w.manifest_id = m.id
WHERE ${scope} = ${IDS} AND w.management_method_code <> ''
ON CONFLICT DO NOTHING`,
  `INSERT INTO generator_waste_codes (code, generator_id)
SELECT DISTINCT trim(c.code), m.generator_id
FROM manifests m JOIN waste_lines w ON w.manifest_id = m.id,
     unnest(string_to_array(w.federal_waste_codes, ',')) AS c(code)
WHERE ${scope} = ${IDS} AND w.federal_waste_codes <> '' AND trim(c.code) <> ''
ON CONFLICT DO NOTHING`,
];

/** Method line counts of the manifests `scope` picks, per generator and code (as setsSql). */
const methodLinesSql = (
  scope: 'm.id' | 'm.generator_id',
) => `SELECT m.generator_id, w.management_method_code, count(*)
FROM manifests m JOIN waste_lines w ON w.manifest_id = m.id
WHERE ${scope} = ${IDS} AND w.management_method_code <> '' GROUP BY 1, 2`;

/**
 * Method line counts moved by the batch: its manifests' lines now ($1) less what methodLinesBefore read ($2–$4),
 * for generators not worked out whole ($5).
 */
const METHOD_LINES_MOVED_SQL = `INSERT INTO generator_method_lines (generator_id, code, lines)
SELECT generator_id, code, sum(lines) FROM (
  ${methodLinesSql('m.id')}
  UNION ALL
  SELECT generator_id, code, -lines FROM unnest($2::int[], $3::text[], $4::int[]) AS b(generator_id, code, lines)
) d(generator_id, code, lines)
WHERE NOT (generator_id = ANY($5::int[]))
GROUP BY generator_id, code HAVING sum(lines) <> 0
ON CONFLICT (generator_id, code) DO UPDATE SET lines = generator_method_lines.lines + excluded.lines`;

/**
 * Shipment quantities moved by the batch: its manifests' parts now ($1) less what they held before (the
 * generators $2, then one array per quantity), exact in numeric and rounded as a whole reduction is
 * (GENERATOR_WHOLE_SQL), for generators not worked out whole (the last parameter).
 */
const SHIPPED_MOVED_SQL = `UPDATE generators g
SET ${QUANTITIES.map(({ quantity, column, reduction }) => `${column} = ${roundedSql(reduction, `g.${column}::numeric + d.${quantity}`)}`).join(', ')}
FROM (SELECT generator_id, ${QUANTITIES.map(({ quantity }) => `sum(${quantity}) AS ${quantity}`).join(', ')}
      FROM (SELECT generator_id, ${QUANTITIES.map(({ quantity, part }) => `${part} AS ${quantity}`).join(', ')}
            FROM manifests WHERE id = ${IDS}
            UNION ALL
            SELECT generator_id, ${QUANTITIES.map(({ quantity }) => `-${quantity}`).join(', ')}
            FROM unnest($2::int[], ${QUANTITIES.map((_, index) => `$${index + 3}::numeric[]`).join(', ')})
              AS b(generator_id, ${QUANTITIES.map(({ quantity }) => quantity).join(', ')})) x
      GROUP BY generator_id) d
WHERE g.id = d.generator_id AND NOT (g.id = ANY($${QUANTITIES.length + 3}::int[]))
  AND (${QUANTITIES.map(({ quantity }) => `d.${quantity} <> 0`).join(' OR ')})`;

/** db/derive.ts's per-generator sets, method counts and shipment totals, worked out from all their rows. */
const GENERATOR_WHOLE_SQL = [
  `DELETE FROM generator_shipped_years WHERE generator_id = ${IDS}`,
  `DELETE FROM generator_waste_codes WHERE generator_id = ${IDS}`,
  `DELETE FROM generator_handling_codes WHERE generator_id = ${IDS}`,
  `DELETE FROM generator_method_lines WHERE generator_id = ${IDS}`,
  `INSERT INTO generator_method_lines (generator_id, code, lines) ${methodLinesSql('m.generator_id')}`,
  ...setsSql('m.generator_id'),
  `UPDATE generators g SET ${QUANTITIES.map(({ quantity, column }) => `${column} = a.${quantity}`).join(', ')}
FROM (SELECT x.id, ${QUANTITIES.map(({ quantity }) => `coalesce(s.${quantity}, 0) AS ${quantity}`).join(', ')}
      FROM generators x
      -- Their manifests read once for every quantity, not once each.
      LEFT JOIN (SELECT generator_id, ${totalsSql(GENERATOR_FROM_MANIFESTS, (quantity) => quantity)
        .map(([quantity, sql]) => `${sql} AS ${quantity}`)
        .join(', ')}
                 FROM manifests WHERE generator_id = ${IDS} GROUP BY generator_id) s ON s.generator_id = x.id
      WHERE x.id = ${IDS}) a
WHERE g.id = a.id
  AND (${QUANTITIES.map(({ column }) => `g.${column}`).join(', ')})
      IS DISTINCT FROM (${QUANTITIES.map(({ quantity }) => `a.${quantity}`).join(', ')})`,
];

/**
 * The generators' texts and method count read from their sets and method line counts (cheap: a generator's
 * sets are short), written only where a value changes: a new generator of a handler file has none yet, and
 * rewriting each (a new version of the row, in each of its two dozen indexes, with its search text) held an
 * import of 100,000 handlers into an empty database at ~730 rows/s, ~1,080 without.
 */
const GENERATOR_TEXT_SQL = `UPDATE generators g
SET shipped_years = a.years, federal_waste_codes = a.codes, mmc_count = a.methods, management_method_code = a.method
FROM (SELECT x.id,
        coalesce((SELECT string_agg(year, ',' ORDER BY year) FROM generator_shipped_years
                  WHERE generator_id = x.id), '') AS years,
        coalesce((SELECT string_agg(code, ',' ORDER BY code) FROM generator_waste_codes
                  WHERE generator_id = x.id), '') AS codes,
        (SELECT count(*) FROM generator_handling_codes WHERE generator_id = x.id) AS methods,
        coalesce((SELECT code FROM generator_method_lines WHERE generator_id = x.id
                  ORDER BY lines DESC, code LIMIT 1), '') AS method
      FROM generators x WHERE x.id = ${IDS}) a
WHERE g.id = a.id
  AND (g.shipped_years, g.federal_waste_codes, g.mmc_count, g.management_method_code)
      IS DISTINCT FROM (a.years, a.codes, a.methods, a.method)`;

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

/**
 * The generators worked out whole: those the writers marked, and those of stored manifests the batch
 * changed whose method lines were not read before it.
 */
async function rewritten(
  sql: TransactionSql,
  touched: Touched,
  before: MethodLinesBefore,
): Promise<number[]> {
  const ids = new Set(touched.rewrittenGenerators);
  const unread = [...touched.manifests].filter((id) => !touched.newManifests.has(id) && !before.read.has(id));
  if (unread.length > 0) {
    const rows = (await sql
      .unsafe(`SELECT DISTINCT generator_id FROM manifests WHERE id = ${IDS}`, [unread])
      .values()) as unknown as [number][];
    for (const [generator] of rows) ids.add(generator);
  }
  return [...ids];
}

/** Brings the batch's generators up to date (see the module's comment). */
export async function updateGenerators(
  sql: TransactionSql,
  touched: Touched,
  before: { methodLines: MethodLinesBefore; shipped: ShippedBefore },
): Promise<void> {
  const manifests = [...touched.manifests];
  const whole = manifests.length > 0 ? await rewritten(sql, touched, before.methodLines) : [];
  if (manifests.length > 0) {
    await each(sql, setsSql('m.id'), manifests);
    const stored = before.methodLines.rows.filter(([manifest]) => touched.manifests.has(manifest));
    await sql.unsafe(METHOD_LINES_MOVED_SQL, [
      manifests,
      stored.map(([, generator]) => generator),
      stored.map(([, , code]) => code),
      stored.map(([, , , lines]) => lines),
      whole,
    ]);
    // Only a count the batch lowered can reach 0.
    const lowered = [...new Set(stored.map(([, generator]) => generator))];
    if (lowered.length > 0) {
      await sql.unsafe(`DELETE FROM generator_method_lines WHERE generator_id = ${IDS} AND lines <= 0`, [
        lowered,
      ]);
    }
    const shipped = before.shipped.rows;
    await sql.unsafe(SHIPPED_MOVED_SQL, [
      manifests,
      shipped.map(([generator]) => generator),
      ...QUANTITIES.map((_, index) => shipped.map((row) => row[index + 1] ?? '0')),
      whole,
    ]);
    if (whole.length > 0) await each(sql, GENERATOR_WHOLE_SQL, whole);
  }
  const texts = new Set([...touched.generators, ...whole]);
  if (texts.size > 0) await sql.unsafe(GENERATOR_TEXT_SQL, [[...texts]]);
  const own = [...touched.newGenerators, ...touched.existingGenerators];
  if (own.length > 0) await each(sql, GENERATOR_STATUS_SQL, own);
}
