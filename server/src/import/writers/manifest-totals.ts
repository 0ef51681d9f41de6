/**
 * How an imported manifest's transporter and quantities are made from its rows: its quantities reduce its
 * waste lines as shared/query's MANIFEST_FROM_LINES says, except those its source states itself; its
 * transporter is its first transporter's name, else its EPA id. As SQL for the derived data of both
 * databases (import/sqlite/derived-sql.ts, import/postgres/pg-derived.ts) and as JavaScript for the first
 * guess of a new manifest's totals (held-totals.ts).
 */
import type { ManifestQuantity } from '../../../../shared/query/definition.ts';

/** The manifests column holding the source's own value of a quantity, which its lines' do not replace. */
export const MANIFEST_SOURCE_COLUMNS: Partial<Record<ManifestQuantity, string>> = {
  total_waste_quantity_tons: 'source_total_tons',
};

/** A manifest quantity as SQL: the source's own (of the manifests row `alias`) before `fromLines`. */
export function manifestQuantitySql(quantity: ManifestQuantity, alias: string, fromLines: string): string {
  const source = MANIFEST_SOURCE_COLUMNS[quantity];
  return source === undefined ? fromLines : `coalesce(${alias}.${source}, ${fromLines})`;
}

/** Of its first transporter's manifest_transporters row, the first of these columns that is not empty. */
const TRANSPORTER_NAME_FROM = ['name', 'epa_id'] as const;
type TransporterColumn = (typeof TRANSPORTER_NAME_FROM)[number];

/** The manifest's transporter as SQL over its first transporter's row `alias`, the same in both databases. */
export function transporterNameSql(alias: string): string {
  return `coalesce(${TRANSPORTER_NAME_FROM.map((column) => `nullif(${alias}.${column}, '')`).join(', ')}, '')`;
}

/** The manifest's transporter from its first transporter's values, as transporterNameSql reads them. */
export function transporterName(row: Readonly<Record<TransporterColumn, string>>): string {
  return TRANSPORTER_NAME_FROM.map((column) => row[column]).find((value) => value !== '') ?? '';
}
