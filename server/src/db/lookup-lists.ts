/**
 * What each filter box's lookup lists (docs/api.md "Lookups"): its distinct values, each with the text it
 * is shown, searched and sorted by. One definition read both by finalize, which writes every list into the
 * lookup index (lookup-index.ts), and by the repositories, which hold the short lists in memory.
 */
import type { Database } from 'better-sqlite3';
import type { GeneratorLookupField, ManifestLookupField } from '../../../shared/api/index.ts';
import type { LookupEntry } from '../../../shared/query/lookup.ts';

export type LookupLoad = (db: Database) => LookupEntry[];

/** Plain values from one SQL column: value and text are equal. */
function column(sql: string): LookupLoad {
  return (db) => (db.prepare(sql).pluck().all() as string[]).map((value) => ({ value, text: value }));
}

export const GENERATOR_LOOKUP_LISTS: Record<GeneratorLookupField, LookupLoad> = {
  generator_city: column('SELECT DISTINCT location_city FROM generators'),
  generator_state: column('SELECT DISTINCT location_state FROM generators'),
  generator_name: column('SELECT DISTINCT generator_name FROM generators'),
  epa_handler_id: column('SELECT epa_handler_id FROM generators'),
  naics: (db) =>
    (
      db
        .prepare(
          `SELECT primary_naics_code AS value, min(primary_naics_desc) AS description
           FROM generators GROUP BY primary_naics_code`,
        )
        .all() as { value: string; description: string }[]
    ).map(({ value, description }) => ({
      value,
      text: description === '' ? value : `${value} - ${description}`,
    })),
  epa_waste_code: column('SELECT DISTINCT code FROM generator_waste_codes'),
  mmc: column('SELECT DISTINCT code FROM generator_handling_codes'),
  shipped_year: column('SELECT DISTINCT year FROM generator_shipped_years'),
  status: column('SELECT DISTINCT status FROM generator_statuses'),
};

export const MANIFEST_LOOKUP_LISTS: Record<ManifestLookupField, LookupLoad> = {
  manifest_number: column('SELECT manifest_tracking_number FROM manifests'),
  generator_name: column('SELECT DISTINCT generator_name FROM manifests'),
  transporter_name: column('SELECT DISTINCT transporter FROM manifests'),
  designated_facility_name: column('SELECT DISTINCT designated_facility_name FROM manifests'),
  dot_id_no: column("SELECT DISTINCT code FROM manifest_line_sets WHERE member = 'dot'"),
  container_type: column("SELECT DISTINCT code FROM manifest_line_sets WHERE member = 'container'"),
  handling_code: column("SELECT DISTINCT code FROM manifest_line_sets WHERE member = 'handling'"),
};

/** Every list under its name in the lookup index: "<table>.<field>". */
export function lookupLists(): [string, LookupLoad][] {
  return [
    ...Object.entries(GENERATOR_LOOKUP_LISTS).map(([field, load]): [string, LookupLoad] => [
      `generators.${field}`,
      load,
    ]),
    ...Object.entries(MANIFEST_LOOKUP_LISTS).map(([field, load]): [string, LookupLoad] => [
      `manifests.${field}`,
      load,
    ]),
  ];
}
