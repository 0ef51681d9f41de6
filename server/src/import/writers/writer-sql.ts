/**
 * What the import writers (writers.ts, generator-writer.ts) share: the columns each record kind writes, every
 * statement they run (in SQL both SQLite and PostgreSQL accept, or each its own where they differ; a driver
 * prepares a statement once and finds it again by its text), the outcome of applying a row, and what a batch
 * touched.
 */
import { GENERATOR_SITE_COLUMNS } from '../../data/generator-columns.ts';
import { streetLine } from '../../../../shared/address.ts';
import type { GeneratorRecord } from '../model/records.ts';
import { MANIFEST_QUANTITIES } from '../../../../shared/query/definition.ts';

export type Outcome =
  'stored' | 'updated' | 'unchanged' | 'skipped' | { pending: string } | { rejected: string; column: string };

/** What a generator created from manifests says in its public notes. */
export const FROM_MANIFESTS_NOTE =
  'Not in the RCRAInfo handler files imported: created from the generator details on its manifests.';

const GENERATOR_COLUMNS = [...GENERATOR_SITE_COLUMNS, 'record_source', 'source_updated'] as const;

export function generatorValues(record: GeneratorRecord): (string | number)[] {
  const { location, mailing } = record;
  return [
    record.name,
    streetLine(location.streetNumber, location.street1),
    location.streetNumber,
    location.street1,
    location.street2,
    location.city,
    location.state,
    location.zip,
    mailing.streetNumber,
    mailing.street1,
    mailing.street2,
    mailing.city,
    mailing.state,
    mailing.zip,
    record.contactName,
    record.contactPhone,
    record.contactEmail,
    record.registrationStatus,
    record.stateHandlerId,
    record.federalGeneratorStatus,
    record.federalGeneratorCode,
    record.landType,
    record.shortTermGenerator,
    record.mixedWasteGenerator,
    record.transporter,
    record.transferFacility,
    record.importer,
    record.latitude,
    record.longitude,
    record.source === 'manifest' ? FROM_MANIFESTS_NOTE : record.publicNotes,
    record.source,
    record.updated,
  ];
}

const MANIFEST_COLUMNS = [
  'generator_id',
  'generator_name',
  'generator_epa_id',
  'generator_location_state',
  'designated_facility_name',
  'designated_facility_epa_id',
  'shipped_date',
  'received_date',
  'updated_date',
  'source_total_tons',
] as const;

export const LINE_COLUMNS = [
  'usdot_haz_indicator',
  'usdot_id_number',
  'usdot_desc',
  'container_count',
  'container_type_code',
  'epa_waste_indicator',
  'waste_quantity_tons',
  'federal_waste_codes',
  'management_method_code',
  'mmc_and_desc',
] as const;

const list = (columns: readonly string[]) => columns.join(', ');

/** Of a manifest's values in MANIFEST_COLUMNS' order (insertManifest, updateManifest), one column's. */
export const manifestColumn = (values: readonly unknown[], column: string): unknown =>
  values[(MANIFEST_COLUMNS as readonly string[]).indexOf(column)];

/**
 * A stored manifest as StoredManifest reads it, with its first transporter; its values are read only when
 * a row of the same manifest is compared with them (materialising them for every line of a batch was a
 * tenth of a bulk import's time).
 */
const STORED_MANIFEST = `m.id, m.generator_id, m.updated_date, m.import_run, coalesce(t.epa_id, '')
  FROM manifests m
  LEFT JOIN manifest_transporters t ON t.manifest_id = m.id AND t.transporter_order = 1`;
const marks = (columns: readonly string[]) => columns.map(() => '?').join(', ');
const sets = (columns: readonly string[]) => columns.map((column) => `${column} = ?`).join(', ');

/** Every statement the writers run, written once for both databases. */
export const SQL = {
  generator: `SELECT id, record_source, source_updated, ${list(GENERATOR_COLUMNS)} FROM generators WHERE epa_handler_id = ?`,
  /** A new generator with its primary NAICS code and title (one statement, not an insert and an update). */
  /** The same for many handler ids (one list parameter, steps.ts), each row led by its handler id. */
  generators: {
    sqlite: `SELECT epa_handler_id, id, record_source, source_updated, ${list(GENERATOR_COLUMNS)} FROM generators
             WHERE epa_handler_id IN (SELECT value FROM json_each(?))`,
    postgres: `SELECT epa_handler_id, id, record_source, source_updated, ${list(GENERATOR_COLUMNS)} FROM generators
               WHERE epa_handler_id = ANY(?::text[])`,
  },
  insertGenerator: `INSERT INTO generators (id, epa_handler_id, ${list(GENERATOR_COLUMNS)}, primary_naics_code, primary_naics_desc)
                    VALUES (?, ?, ${marks(GENERATOR_COLUMNS)}, ?, ?)`,
  updateGenerator: `UPDATE generators SET ${sets(GENERATOR_COLUMNS)} WHERE id = ?`,
  generatorId: 'SELECT id FROM generators WHERE epa_handler_id = ?',
  naicsDescriptions: 'SELECT code, description FROM naics_codes',
  generatorName: 'SELECT generator_name FROM generators WHERE id = ?',
  primaryNaics: 'SELECT primary_naics_code FROM generators WHERE id = ?',
  setPrimaryNaics: 'UPDATE generators SET primary_naics_code = ?, primary_naics_desc = ? WHERE id = ?',
  deleteNaics: 'DELETE FROM generator_naics WHERE generator_id = ?',
  /** A code of a generator that has none stored (new, or its codes deleted). */
  insertNaics:
    'INSERT INTO generator_naics (generator_id, naics_code, naics_desc, is_active) VALUES (?, ?, ?, ?)',
  naics: 'SELECT naics_desc, is_active FROM generator_naics WHERE generator_id = ? AND naics_code = ?',
  upsertNaicsActive: `INSERT INTO generator_naics (generator_id, naics_code, naics_desc, is_active) VALUES (?, ?, ?, 'Y')
                      ON CONFLICT (generator_id, naics_code) DO UPDATE
                      SET naics_desc = excluded.naics_desc, is_active = excluded.is_active`,
  manifest: `SELECT ${STORED_MANIFEST} WHERE m.manifest_tracking_number = ?`,
  manifestValues: `SELECT ${list(MANIFEST_COLUMNS)} FROM manifests WHERE id = ?`,
  /** The same for many tracking numbers (one list parameter, steps.ts), each row led by its tracking number. */
  manifests: {
    sqlite: `SELECT m.manifest_tracking_number, ${STORED_MANIFEST}
             WHERE m.manifest_tracking_number IN (SELECT value FROM json_each(?))`,
    postgres: `SELECT m.manifest_tracking_number, ${STORED_MANIFEST}
               WHERE m.manifest_tracking_number = ANY(?::text[])`,
  },
  /**
   * A new manifest with its transporter and totals as its rows will make them (held-totals.ts), its source
   * total before its lines' tons; the derived data work them out again when its lines or transporters
   * change, and write them only where they differ.
   */
  insertManifest: `INSERT INTO manifests (id, manifest_tracking_number, ${list(MANIFEST_COLUMNS)}, import_run,
                     transporter, ${list(MANIFEST_QUANTITIES)})
                   VALUES (?, ?, ${marks(MANIFEST_COLUMNS)}, ?, ?, ${marks(MANIFEST_QUANTITIES)})`,
  updateManifest: `UPDATE manifests SET ${sets(MANIFEST_COLUMNS)}, import_run = ? WHERE id = ?`,
  touchManifest: 'UPDATE manifests SET import_run = ? WHERE id = ?',
  stale: 'SELECT 1 FROM import_stale WHERE run_id = ? AND tracking_number = ?',
  anyStale: 'SELECT 1 FROM import_stale WHERE run_id = ? LIMIT 1',
  addStale: 'INSERT INTO import_stale (run_id, tracking_number) VALUES (?, ?) ON CONFLICT DO NOTHING',
  deleteLines: 'DELETE FROM waste_lines WHERE manifest_id = ?',
  deleteTransporters: 'DELETE FROM manifest_transporters WHERE manifest_id = ?',
  transporters:
    'SELECT epa_id, name FROM manifest_transporters WHERE manifest_id = ? ORDER BY transporter_order',
  lines: `SELECT ${list(LINE_COLUMNS)} FROM waste_lines WHERE manifest_id = ? ORDER BY waste_line_number`,
  line: `SELECT ${list(LINE_COLUMNS)} FROM waste_lines WHERE manifest_id = ? AND waste_line_number = ?`,
  insertLine: `INSERT INTO waste_lines (manifest_id, waste_line_number, ${list(LINE_COLUMNS)}, transporter)
               VALUES (?, ?, ${marks(LINE_COLUMNS)}, ?) ON CONFLICT DO NOTHING`,
  deleteLine: 'DELETE FROM waste_lines WHERE manifest_id = ? AND waste_line_number = ?',
  lineCodes: 'SELECT federal_waste_codes FROM waste_lines WHERE manifest_id = ? AND waste_line_number = ?',
  setLineCodes:
    'UPDATE waste_lines SET federal_waste_codes = ? WHERE manifest_id = ? AND waste_line_number = ?',
  transporter:
    'SELECT epa_id, name FROM manifest_transporters WHERE manifest_id = ? AND transporter_order = ?',
  insertTransporter:
    'INSERT INTO manifest_transporters (manifest_id, transporter_order, epa_id, name) VALUES (?, ?, ?, ?)',
  insertNewTransporter: `INSERT INTO manifest_transporters (manifest_id, transporter_order, epa_id, name)
                         VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  deleteTransporter: 'DELETE FROM manifest_transporters WHERE manifest_id = ? AND transporter_order = ?',
} as const;

export const same = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

export interface StoredManifest {
  id: number;
  generator_id: number;
  updated_date: string;
  import_run: number;
  /** Its MANIFEST_COLUMNS, once read (SQL.manifestValues). */
  values?: unknown[];
  firstTransporter: string;
  /**
   * Of a manifest this batch created, the numbers of the lines and the orders of the transporters the batch
   * gave it, which are all it has: a row of a new number is added without asking the database (an `add`).
   */
  created?: { lines: Set<number>; transporters: Set<number> };
}

/** A row of SQL.manifest as a StoredManifest. */
export function storedManifest(row: readonly unknown[]): StoredManifest {
  const [id, generatorId, updated, run, firstTransporter] = row;
  return {
    id: Number(id),
    generator_id: Number(generatorId),
    updated_date: String(updated),
    import_run: Number(run),
    firstTransporter: String(firstTransporter),
  };
}

/** What a batch changed, for derived.ts. */
export interface Touched {
  manifests: Set<number>;
  generators: Set<number>;
  /** Tracking numbers and handler ids that became known, or whose lines did: pending rows may now apply. */
  arrived: Set<string>;
  /** Rows that existed before the batch changed them: their search index entries must be replaced. */
  existingManifests: Set<number>;
  existingGenerators: Set<number>;
  /** Rows this batch created. */
  newManifests: Set<number>;
  newGenerators: Set<number>;
  /**
   * Generators whose manifests lost something (a manifest replaced by a newer version, a waste line
   * corrected): their sets and totals are worked out again from their rows; the others' only grow.
   */
  rewrittenGenerators: Set<number>;
  /**
   * Manifests whose waste lines changed (added, replaced, removed, given codes) or whose first transporter
   * did, which each line carries: only their stored waste-line JSON and line sets are written again. A
   * manifest that only arrived (EM_MANIFEST, its lines to follow) or only gained a later transporter has
   * the same lines as before.
   */
  lines: Set<number>;
  /**
   * Manifests whose own searched and listed columns may have changed: created, replaced by a newer version,
   * or given another first transporter (whose name is the manifest's transporter). A manifest that only
   * gained lines keeps its search index entry and list values.
   */
  rows: Set<number>;
}

export function noneTouched(): Touched {
  return {
    manifests: new Set(),
    generators: new Set(),
    arrived: new Set(),
    existingManifests: new Set(),
    existingGenerators: new Set(),
    newManifests: new Set(),
    newGenerators: new Set(),
    rewrittenGenerators: new Set(),
    lines: new Set(),
    rows: new Set(),
  };
}
