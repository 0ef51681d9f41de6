/**
 * Where the server keeps each derived fact and quantity of shared/query's definition (derive.ts writes
 * them after a load). Typed by the definition's names, so a new fact cannot be read before it is stored.
 * The layout is the storage's, not SQLite's: a PostgreSQL backend keeps the same tables.
 */
import type {
  GeneratorFact,
  GeneratorQuantity,
  ManifestFact,
  ManifestQuantity,
  ManifestTotal,
} from '../../../shared/query/definition.ts';

/** Each generator fact as a table of (value, generator_id) rows, one per distinct value of a generator. */
export const GENERATOR_FACT_TABLES: Record<GeneratorFact, { table: string; column: string }> = {
  shippedYears: { table: 'generator_shipped_years', column: 'year' },
  wasteCodes: { table: 'generator_waste_codes', column: 'code' },
  handlingCodes: { table: 'generator_handling_codes', column: 'code' },
  statuses: { table: 'generator_statuses', column: 'status' },
};

/** The generators column holding each generator quantity. */
export const GENERATOR_QUANTITY_COLUMNS: Record<GeneratorQuantity, string> = {
  shippedTons: 'shipped_tons',
  shippedCount: 'shipped_count',
  containerCount: 'container_count',
};

/** Each manifest fact's member of manifest_line_sets, and the waste line column whose values it holds. */
export const MANIFEST_FACT_SETS = {
  dotIds: { member: 'dot', lineColumn: 'usdot_id_number' },
  containerTypes: { member: 'container', lineColumn: 'container_type_code' },
  handlingCodes: { member: 'handling', lineColumn: 'management_method_code' },
} as const satisfies Record<ManifestFact, { member: string; lineColumn: string }>;
export type LineSetMember = (typeof MANIFEST_FACT_SETS)[ManifestFact]['member'];

/** The manifest_line_sets columns copying each manifest quantity of the row the set lists. */
export const LINE_SET_QUANTITY_COLUMNS: Record<ManifestQuantity, string> = {
  total_waste_quantity_tons: 'tons',
  container_count: 'containers',
  waste_stream_count: 'streams',
};

/** The manifest_line_set_totals column holding each manifest total of one set value. */
export const LINE_SET_TOTAL_COLUMNS: Record<ManifestTotal, string> = {
  total_waste: 'tons',
  shipped_count: 'manifests',
  container_count: 'containers',
  waste_streams: 'streams',
};

/**
 * The manifest_line_sets rows of the waste lines `lines` picks (a condition on `w`, a waste line; every line
 * when empty): the column list and the SELECT that fills it, in SQL both backends run. Each line is read
 * once for all the members, and its manifest looked up once: three statements, one per member, each joined
 * every line to its manifest again (63 s of a 1M build against 32 s). Each backend inserts the rows with its
 * own words for "skip a row already there" (db/derive.ts, import/postgres/pg-derived.ts).
 */
export function lineSetRows(lines = ''): { columns: string; select: string } {
  const members = Object.values(MANIFEST_FACT_SETS);
  const quantities = Object.entries(LINE_SET_QUANTITY_COLUMNS);
  const codeOf = members.map(({ member, lineColumn }) => `WHEN '${member}' THEN w.${lineColumn}`).join(' ');
  const memberRows = members.map(({ member }) => `SELECT '${member}' AS member`).join(' UNION ALL ');
  return {
    columns: `(member, code, shipped_date, manifest_tracking_number, manifest_id, ${quantities.map(([, column]) => column).join(', ')})`,
    select: `SELECT s.member, s.code, m.shipped_date, m.manifest_tracking_number, m.id, ${quantities.map(([quantity]) => `m.${quantity}`).join(', ')}
FROM (SELECT w.manifest_id, k.member, CASE k.member ${codeOf} END AS code
      FROM waste_lines w CROSS JOIN (${memberRows}) k
      ${lines === '' ? '' : `WHERE ${lines}`}) s
JOIN manifests m ON m.id = s.manifest_id
WHERE s.code <> ''`,
  };
}
