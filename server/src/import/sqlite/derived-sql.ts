/**
 * The SQL that keeps what the serving queries read beside the rows up to date (derived.ts runs it): per
 * manifest and per generator aggregates, line sets and their per-value totals, built from the query
 * definition's reductions and the fact storage's columns.
 */
import {
  GENERATOR_FROM_MANIFESTS,
  GENERATOR_QUANTITIES,
  MANIFEST_FROM_LINES,
  MANIFEST_QUERY,
} from '../../../../shared/query/definition.ts';
import {
  GENERATOR_QUANTITY_COLUMNS,
  LINE_SET_QUANTITY_COLUMNS,
  LINE_SET_TOTAL_COLUMNS,
} from '../../db/fact-storage.ts';
import { lineSetRowsSql } from '../../db/derive.ts';
import { roundedSql } from '../../db/reduction-sql.ts';
import { partialTotalsSql, totalsSql } from '../../db/sqlite-query.ts';
import { LAG_SELECT, tallySelect } from '../../db/tallies.ts';
import {
  MANIFEST_SOURCE_COLUMNS,
  manifestQuantitySql,
  transporterNameSql,
} from '../writers/manifest-totals.ts';

export const IDS = 'SELECT value FROM json_each(?)';

/** Each manifest quantity (MANIFEST_FROM_LINES) as SQL over the waste lines `w`. */
const FROM_LINES = totalsSql(MANIFEST_FROM_LINES, (quantity) => `w.${quantity}`);
/** The manifest quantities, each written where its value differs from `t`'s. */
const SET_QUANTITIES = FROM_LINES.map(([quantity]) => `${quantity} = t.${quantity}`).join(', ');
const QUANTITIES_DIFFER = FROM_LINES.map(([quantity]) => `manifests.${quantity} IS NOT t.${quantity}`).join(
  ' OR ',
);

/**
 * Each touched manifest's transporter and totals from its rows. Only rows whose values change are written,
 * and the transporter apart from the totals: a manifest row written rewrites its entry in every index on a
 * column set, and into a served database of a million manifests those random index writes are most of an
 * append's time (bench:import). A batch of EM_MANIFEST rows then rewrites none, one of EM_TRANSPORTER only
 * the transporter's indexes, one of EM_WASTE_LINE only the totals'.
 */
export const MANIFEST_AGGREGATES_SQL = `
UPDATE manifests SET transporter = t.transporter
FROM (SELECT m.id, coalesce((SELECT ${transporterNameSql('t')} FROM manifest_transporters t
                             WHERE t.manifest_id = m.id AND t.transporter_order = 1), '') AS transporter
      FROM manifests m WHERE m.id IN (${IDS})) t
WHERE manifests.id = t.id AND manifests.transporter IS NOT t.transporter;
UPDATE manifests SET ${SET_QUANTITIES}
FROM (SELECT m.id, ${FROM_LINES.map(
  ([quantity, sql]) =>
    `${manifestQuantitySql(quantity, 'm', `(SELECT ${sql} FROM waste_lines w WHERE w.manifest_id = m.id)`)} AS ${quantity}`,
).join(', ')}
      FROM manifests m WHERE m.id IN (${IDS})) t
WHERE manifests.id = t.id AND (${QUANTITIES_DIFFER});
UPDATE waste_lines SET transporter = coalesce((SELECT t.epa_id FROM manifest_transporters t
    WHERE t.manifest_id = waste_lines.manifest_id AND t.transporter_order = 1), '')
WHERE manifest_id IN (${IDS}) AND transporter IS NOT coalesce((SELECT t.epa_id FROM manifest_transporters t
    WHERE t.manifest_id = waste_lines.manifest_id AND t.transporter_order = 1), '');`;

/**
 * The same for every manifest at once, after a bulk load (joins instead of a subquery per row); a manifest
 * without lines keeps the source's values it was stored with.
 */
export const ALL_MANIFEST_AGGREGATES_SQL = `
UPDATE manifests SET ${FROM_LINES.map(([quantity]) => `${quantity} = ${manifestQuantitySql(quantity, 'manifests', `t.${quantity}`)}`).join(', ')}
FROM (SELECT w.manifest_id, ${FROM_LINES.map(([quantity, sql]) => `${sql} AS ${quantity}`).join(', ')}
      FROM waste_lines w GROUP BY w.manifest_id) t
WHERE manifests.id = t.manifest_id;
${Object.entries(MANIFEST_SOURCE_COLUMNS)
  .map(
    ([quantity, source]) =>
      `UPDATE manifests SET ${quantity} = ${source} WHERE ${source} IS NOT NULL AND ${quantity} IS NOT ${source};`,
  )
  .join('\n')}
UPDATE manifests SET transporter = ${transporterNameSql('t')}
FROM manifest_transporters t WHERE t.manifest_id = manifests.id AND t.transporter_order = 1;
UPDATE waste_lines SET transporter = t.epa_id
FROM manifest_transporters t
WHERE t.manifest_id = waste_lines.manifest_id AND t.transporter_order = 1 AND waste_lines.transporter <> t.epa_id;`;

/** Of these manifests, those that have waste lines or their stored JSON (they had lines). */
export const WITH_LINES_SQL = `SELECT value FROM json_each(?) WHERE
  EXISTS (SELECT 1 FROM waste_lines WHERE manifest_id = value)
  OR EXISTS (SELECT 1 FROM manifest_waste_lines_json WHERE manifest_id = value)`;

export const MANIFEST_SUMS_SQL = `SELECT ${tallySelect('manifests')} FROM manifests WHERE id IN (${IDS})`;
export const GENERATOR_SUMS_SQL = `SELECT ${tallySelect('generators')} FROM generators WHERE id IN (${IDS})`;
export const LAG_SQL = `SELECT ${LAG_SELECT} FROM manifests WHERE id IN (${IDS})`;

/** Each generator's statuses, for the generators whose own rows a batch wrote. */
export const GENERATOR_STATUS_SQL = `
DELETE FROM generator_statuses WHERE generator_id IN (${IDS});
INSERT OR IGNORE INTO generator_statuses (status, generator_id)
SELECT registration_status, id FROM generators WHERE registration_status <> '' AND id IN (${IDS})
UNION ALL
SELECT federal_generator_status_universe, id FROM generators
WHERE federal_generator_status_universe <> '' AND id IN (${IDS});`;

/** The column that picks the manifests a statement reads: the batch's own (by id), or all of some generators'. */
type ManifestScope = 'm.id' | 'm.generator_id';

/** The sets of the generators of the manifests `scope` picks, added to (never emptied here). */
function setsSql(scope: ManifestScope): string {
  return `
INSERT OR IGNORE INTO generator_shipped_years (year, generator_id)
SELECT DISTINCT substr(m.shipped_date, 1, 4), m.generator_id FROM manifests m
WHERE ${scope} IN (${IDS}) AND m.shipped_date <> '';
INSERT OR IGNORE INTO generator_handling_codes (code, generator_id)
SELECT DISTINCT w.management_method_code, m.generator_id
FROM manifests m JOIN waste_lines w ON w.manifest_id = m.id
WHERE ${scope} IN (${IDS}) AND w.management_method_code <> '';
INSERT OR IGNORE INTO generator_waste_codes (code, generator_id)
SELECT DISTINCT trim(j.value), m.generator_id
FROM manifests m JOIN waste_lines w ON w.manifest_id = m.id,
     json_each('["' || replace(w.federal_waste_codes, ',', '","') || '"]') j
WHERE ${scope} IN (${IDS}) AND w.federal_waste_codes <> '' AND trim(j.value) <> '';`;
}

/** Each generator's lines per management method over the manifests `scope` picks. */
const methodLinesSql = (scope: ManifestScope) => `SELECT m.generator_id, w.management_method_code, count(*)
FROM manifests m JOIN waste_lines w ON w.manifest_id = m.id
WHERE ${scope} IN (${IDS}) AND w.management_method_code <> '' GROUP BY 1, 2`;

/** The generators' texts read from their sets and method counts (cheap: a generator's sets are short). */
const GENERATOR_TEXTS = `
  shipped_years = coalesce((SELECT group_concat(year, ',') FROM (SELECT year FROM generator_shipped_years
                            WHERE generator_id = generators.id ORDER BY year)), ''),
  federal_waste_codes = coalesce((SELECT group_concat(code, ',') FROM (SELECT code FROM generator_waste_codes
                                  WHERE generator_id = generators.id ORDER BY code)), ''),
  mmc_count = (SELECT count(*) FROM generator_handling_codes WHERE generator_id = generators.id),
  management_method_code = coalesce((SELECT code FROM generator_method_lines WHERE generator_id = generators.id
                                     ORDER BY lines DESC, code LIMIT 1), '')`;

/**
 * What the batch's manifests add to their generators' sets: a batch that only adds rows (new manifests, new
 * lines) only adds to them, so they grow from the touched manifests alone, never from all of a generator's.
 */
export const GENERATOR_GROWTH_SQL = setsSql('m.id');

export const GENERATOR_TEXT_SQL = `UPDATE generators SET${GENERATOR_TEXTS}
WHERE id IN (${IDS});`;

/** The batch's manifests' lines per generator and management method. */
export const METHOD_LINES_SQL = methodLinesSql('m.id');

/** The same per manifest, for the stored manifests of some tracking numbers (led by the manifest's id). */
export const STORED_METHOD_LINES_SQL = `SELECT m.id, m.generator_id, w.management_method_code, count(*)
FROM manifests m JOIN waste_lines w ON w.manifest_id = m.id
WHERE m.manifest_tracking_number IN (${IDS}) AND w.management_method_code <> '' GROUP BY m.id, 3`;

/**
 * Each generator's quantities (GENERATOR_FROM_MANIFESTS) over the picked manifests of it, before rounding:
 * the parts an import's growth moves them by. Each row is the generator's id, then the quantities in the
 * definition's order.
 */
export const SHIPPED_SQL = `SELECT generator_id, ${partialTotalsSql(
  GENERATOR_FROM_MANIFESTS,
  (quantity) => quantity,
)
  .map(([, sql]) => sql)
  .join(', ')}
FROM manifests WHERE id IN (${IDS}) GROUP BY generator_id`;

/**
 * Moves a generator's quantities by a change (bound in SHIPPED_SQL's order, then the generator's id), each
 * rounded as a whole reduction is.
 */
export const MOVE_SHIPPED_SQL = `UPDATE generators SET ${GENERATOR_QUANTITIES.map((quantity) => {
  const column = GENERATOR_QUANTITY_COLUMNS[quantity];
  return `${column} = ${roundedSql(GENERATOR_FROM_MANIFESTS[quantity], `${column} + ?`)}`;
}).join(', ')} WHERE id = ?`;

/**
 * derive.ts's per-generator sets and totals worked out again from all of some generators' rows: for those
 * whose manifests lost something (Touched.rewrittenGenerators), which no growth can express.
 */
export const GENERATOR_SQL = `
DELETE FROM generator_shipped_years WHERE generator_id IN (${IDS});
DELETE FROM generator_waste_codes WHERE generator_id IN (${IDS});
DELETE FROM generator_handling_codes WHERE generator_id IN (${IDS});
DELETE FROM generator_method_lines WHERE generator_id IN (${IDS});
INSERT INTO generator_method_lines (generator_id, code, lines)
${methodLinesSql('m.generator_id')};
${setsSql('m.generator_id')}
UPDATE generators SET ${totalsSql(GENERATOR_FROM_MANIFESTS, (quantity) => `m.${quantity}`)
  .map(
    ([quantity, sql]) =>
      `${GENERATOR_QUANTITY_COLUMNS[quantity]} = (SELECT ${sql} FROM manifests m WHERE m.generator_id = generators.id)`,
  )
  .join(', ')},${GENERATOR_TEXTS}
WHERE id IN (${IDS});`;

/** The line sets of a batch's manifests' waste lines, by the rule a whole build writes them with. */
export const BATCH_LINE_SETS_SQL = lineSetRowsSql(`w.manifest_id IN (${IDS})`);

/**
 * Moves the per-value totals of manifest_line_set_totals by the line sets of the batch's manifests: `sign`
 * -1 takes out their old sets, 1 adds their new ones. The totals are the definition's, each kept rounded
 * as it says.
 */
export function lineSetTotalsShiftSql(sign: 1 | -1): string {
  const partials = partialTotalsSql(MANIFEST_QUERY.totals, (quantity) => LINE_SET_QUANTITY_COLUMNS[quantity]);
  const columns = partials.map(([total]) => LINE_SET_TOTAL_COLUMNS[total]);
  // Rounded as a whole build rounds it (derive.ts), a value's first row as well as each sum after it.
  const rounded = (total: (typeof partials)[number][0], sql: string) =>
    roundedSql<string>(MANIFEST_QUERY.totals[total], sql);
  const updates = partials.map(([total]) => {
    const column = LINE_SET_TOTAL_COLUMNS[total];
    return `${column} = ${rounded(total, `${column} + excluded.${column}`)}`;
  });
  return `INSERT INTO manifest_line_set_totals (member, code, ${columns.join(', ')})
SELECT member, code, ${partials.map(([total, sql]) => rounded(total, `${sign} * ${sql}`)).join(', ')}
FROM manifest_line_sets WHERE manifest_id IN (${IDS}) GROUP BY member, code
ON CONFLICT (member, code) DO UPDATE SET ${updates.join(', ')}`;
}
