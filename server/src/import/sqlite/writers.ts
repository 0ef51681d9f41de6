/**
 * Each import record applied to the tracker's SQLite tables, deciding new, changed, unchanged, older,
 * conflicting or pending against what is stored (docs/import.md "What an import does with a row"). Runs
 * inside the sink's batch transaction; notes every manifest and generator it touches so that the batch's
 * derived data can be brought up to date (derived.ts).
 */
import type { Database, Statement } from 'better-sqlite3';
import { loadReference } from '../../data/reference.ts';
import type {
  GeneratorRecord,
  ImportRecord,
  ManifestRecord,
  NaicsRecord,
  TransporterRecord,
  WasteCodeRecord,
  WasteLineRecord,
} from '../records.ts';

export type Outcome =
  'stored' | 'updated' | 'unchanged' | 'skipped' | { pending: string } | { rejected: string; column: string };

/** What a generator created from manifests says in its public notes. */
export const FROM_MANIFESTS_NOTE =
  'Not in the RCRAInfo handler files imported: created from the generator details on its manifests.';

const GENERATOR_COLUMNS = [
  'generator_name',
  'physical_address',
  'location_street_number',
  'location_street_1',
  'location_street_2',
  'location_city',
  'location_state',
  'location_zip',
  'mail_street_number',
  'mail_street_1',
  'mail_street_2',
  'mail_city',
  'mail_state',
  'mail_zip',
  'contact_name',
  'contact_phone_number',
  'contact_email',
  'registration_status',
  'state_handler_id',
  'federal_generator_status_universe',
  'federal_generator_status_universe_code',
  'land_type',
  'short_term_generator_activity',
  'mixed_waste_generator',
  'transporter_activity',
  'transfer_facility_activity',
  'importer_activity',
  'location_latitude',
  'location_longitude',
  'public_notes',
  'record_source',
  'source_updated',
] as const;

function generatorValues(record: GeneratorRecord): (string | number)[] {
  const { location, mailing } = record;
  return [
    record.name,
    [location.streetNumber, location.street1].filter((part) => part !== '').join(' '),
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

const LINE_COLUMNS = [
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
const marks = (columns: readonly string[]) => columns.map(() => '?').join(', ');
const sets = (columns: readonly string[]) => columns.map((column) => `${column} = ?`).join(', ');

/** Every statement the writers run, written once: a statement is found by its text, hashed once per string. */
const SQL = {
  generator: `SELECT id, record_source, source_updated, ${list(GENERATOR_COLUMNS)} FROM generators WHERE epa_handler_id = ?`,
  insertGenerator: `INSERT INTO generators (epa_handler_id, ${list(GENERATOR_COLUMNS)}) VALUES (?, ${marks(GENERATOR_COLUMNS)})`,
  updateGenerator: `UPDATE generators SET ${sets(GENERATOR_COLUMNS)} WHERE id = ?`,
  generatorId: 'SELECT id FROM generators WHERE epa_handler_id = ?',
  generatorName: 'SELECT generator_name FROM generators WHERE id = ?',
  primaryNaics: 'SELECT primary_naics_code FROM generators WHERE id = ?',
  setPrimaryNaics: 'UPDATE generators SET primary_naics_code = ?, primary_naics_desc = ? WHERE id = ?',
  deleteNaics: 'DELETE FROM generator_naics WHERE generator_id = ?',
  upsertNaics: `INSERT OR REPLACE INTO generator_naics (generator_id, naics_code, naics_desc, is_active) VALUES (?, ?, ?, ?)`,
  naics: 'SELECT naics_desc, is_active FROM generator_naics WHERE generator_id = ? AND naics_code = ?',
  upsertNaicsActive: `INSERT OR REPLACE INTO generator_naics (generator_id, naics_code, naics_desc, is_active) VALUES (?, ?, ?, 'Y')`,
  manifestId: 'SELECT id FROM manifests WHERE manifest_tracking_number = ?',
  manifest: `SELECT m.id, m.generator_id, m.updated_date, m.import_run, coalesce(t.epa_id, ''),
               ${MANIFEST_COLUMNS.map((column) => `m.${column}`).join(', ')}
             FROM manifests m
             LEFT JOIN manifest_transporters t ON t.manifest_id = m.id AND t.transporter_order = 1
             WHERE m.id = ?`,
  insertManifest: `INSERT INTO manifests (manifest_tracking_number, ${list(MANIFEST_COLUMNS)}, import_run,
                     transporter, total_waste_quantity_tons, container_count, waste_stream_count)
                   VALUES (?, ${marks(MANIFEST_COLUMNS)}, ?, '', 0, 0, 0)`,
  updateManifest: `UPDATE manifests SET ${sets(MANIFEST_COLUMNS)}, import_run = ? WHERE id = ?`,
  touchManifest: 'UPDATE manifests SET import_run = ? WHERE id = ?',
  stale: 'SELECT 1 FROM import_stale WHERE run_id = ? AND tracking_number = ?',
  addStale: 'INSERT OR IGNORE INTO import_stale (run_id, tracking_number) VALUES (?, ?)',
  deleteLines: 'DELETE FROM waste_lines WHERE manifest_id = ?',
  deleteTransporters: 'DELETE FROM manifest_transporters WHERE manifest_id = ?',
  transporters:
    'SELECT epa_id, name FROM manifest_transporters WHERE manifest_id = ? ORDER BY transporter_order',
  lines: `SELECT ${list(LINE_COLUMNS)} FROM waste_lines WHERE manifest_id = ? ORDER BY waste_line_number`,
  line: `SELECT ${list(LINE_COLUMNS)} FROM waste_lines WHERE manifest_id = ? AND waste_line_number = ?`,
  insertLine: `INSERT OR IGNORE INTO waste_lines (manifest_id, waste_line_number, ${list(LINE_COLUMNS)}, transporter)
               VALUES (?, ?, ${marks(LINE_COLUMNS)}, ?)`,
  deleteLine: 'DELETE FROM waste_lines WHERE manifest_id = ? AND waste_line_number = ?',
  lineCodes: 'SELECT federal_waste_codes FROM waste_lines WHERE manifest_id = ? AND waste_line_number = ?',
  setLineCodes:
    'UPDATE waste_lines SET federal_waste_codes = ? WHERE manifest_id = ? AND waste_line_number = ?',
  transporter:
    'SELECT epa_id, name FROM manifest_transporters WHERE manifest_id = ? AND transporter_order = ?',
  insertTransporter:
    'INSERT INTO manifest_transporters (manifest_id, transporter_order, epa_id, name) VALUES (?, ?, ?, ?)',
  deleteTransporter: 'DELETE FROM manifest_transporters WHERE manifest_id = ? AND transporter_order = ?',
} as const;

const same = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

interface StoredManifest {
  id: number;
  generator_id: number;
  updated_date: string;
  import_run: number;
  values: unknown[];
  firstTransporter: string;
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
  };
}

/** Generator ids kept in memory at most: ~10 MB. */
const HANDLER_CACHE = 100_000;

export class SqliteWriters {
  private readonly db: Database;
  private readonly runId: number;
  private readonly statements = new Map<string, Statement>();
  private readonly methodDescriptions: Map<string, string>;
  private readonly naicsDescriptions: Map<string, string>;
  /** Whether this run has met an older manifest (only then are the stale tracking numbers looked up). */
  private anyStale = false;
  /** The manifest the last waste line belonged to: a file's lines of one manifest come one after another. */
  private lastManifest: { tracking: string; stored: StoredManifest } | undefined;
  touched: Touched = noneTouched();
  generatorsFromManifests = 0;
  /** Generators described by a handler file, by EPA id (rows of this connection's database, never stale). */
  private readonly fromHandlers = new Map<string, number>();
  /** Called before an existing manifest or generator is first changed in a batch (derived.ts reads its old index entry). */
  private readonly beforeChange: (table: 'manifests' | 'generators', id: number) => void;

  constructor(
    db: Database,
    runId: number,
    beforeChange: (table: 'manifests' | 'generators', id: number) => void,
  ) {
    this.beforeChange = beforeChange;
    this.db = db;
    this.runId = runId;
    // RCRAInfo's short text where there is one, as e-Manifest writes it beside the code (as the demo does).
    this.methodDescriptions = new Map(
      loadReference().managementMethods.map((method) => [
        method.code,
        method.shortDescription || method.description.toUpperCase(),
      ]),
    );
    this.naicsDescriptions = new Map(
      db.prepare('SELECT code, description FROM naics_codes').raw().all() as [string, string][],
    );
    this.anyStale =
      db.prepare('SELECT 1 FROM import_stale WHERE run_id = ? LIMIT 1').get(runId) !== undefined;
  }

  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** Starts a new batch's notes; the manifest cache may be stale after a rolled-back batch. */
  startBatch(): void {
    this.touched = noneTouched();
    this.lastManifest = undefined;
  }

  apply(entry: ImportRecord): Outcome {
    switch (entry.kind) {
      case 'generator':
        return this.generator(entry.record).outcome;
      case 'manifest':
        return this.manifest(entry.record);
      case 'wasteLine':
        return this.wasteLine(entry.record);
      case 'transporter':
        return this.transporter(entry.record);
      case 'wasteCode':
        return this.wasteCode(entry.record);
      case 'naics':
        return this.naics(entry.record);
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Generators

  private generator(record: GeneratorRecord): { id: number; outcome: Outcome } {
    // A manifest's generator details never change a generator a handler file described: the commonest
    // case (every manifest names one) answered without reading the row.
    if (record.source === 'manifest') {
      const id = this.fromHandlers.get(record.epaHandlerId);
      if (id !== undefined) return { id, outcome: 'unchanged' };
    }
    const stored = this.sql(SQL.generator).raw().get(record.epaHandlerId) as unknown[] | undefined;
    const values = generatorValues(record);
    if (!stored) {
      const id = Number(this.sql(SQL.insertGenerator).run(record.epaHandlerId, ...values).lastInsertRowid);
      this.naicsList(id, record);
      this.touched.generators.add(id);
      this.touched.newGenerators.add(id);
      this.touched.arrived.add(record.epaHandlerId);
      if (record.source === 'manifest') this.generatorsFromManifests += 1;
      return { id, outcome: 'stored' };
    }
    const [id, source, updated, ...current] = stored as [number, string, string, ...unknown[]];
    if (source === 'handler') this.rememberHandler(record.epaHandlerId, id);
    // A handler file's details win over a manifest's; within one source the newer change date wins.
    const older =
      (source === 'handler' && record.source === 'manifest') ||
      (source === record.source && record.updated !== '' && updated !== '' && record.updated < updated) ||
      (source === record.source && record.updated === '' && updated !== '');
    if (older) return { id, outcome: record.source === 'manifest' ? 'unchanged' : 'skipped' };
    if (same(current, values) && this.naicsSame(id, record)) return { id, outcome: 'unchanged' };
    this.changingGenerator(id);
    this.sql(SQL.updateGenerator).run(...values, id);
    if (record.naics.length > 0) this.naicsList(id, record);
    return { id, outcome: 'updated' };
  }

  private rememberHandler(epaHandlerId: string, id: number): void {
    // Bounded: a national handler table has ~1.6M rows; past the bound the oldest are looked up again.
    if (this.fromHandlers.size >= HANDLER_CACHE) {
      const oldest = this.fromHandlers.keys().next().value;
      if (oldest !== undefined) this.fromHandlers.delete(oldest);
    }
    this.fromHandlers.set(epaHandlerId, id);
  }

  private changingGenerator(id: number): void {
    if (!this.touched.newGenerators.has(id) && !this.touched.existingGenerators.has(id)) {
      this.beforeChange('generators', id);
      this.touched.existingGenerators.add(id);
    }
    this.touched.generators.add(id);
  }

  /** Call before changing a manifest row or its lines or transporters. */
  private changingManifest(id: number): void {
    if (!this.touched.newManifests.has(id) && !this.touched.existingManifests.has(id)) {
      this.beforeChange('manifests', id);
      this.touched.existingManifests.add(id);
    }
  }

  private naicsSame(id: number, record: GeneratorRecord): boolean {
    if (record.naics.length === 0) return true;
    const primary = this.sql(SQL.primaryNaics).pluck().get(id);
    return primary === record.naics[0]?.code;
  }

  /** Replaces a generator's NAICS codes with the record's (the first is its primary). */
  private naicsList(id: number, record: GeneratorRecord): void {
    if (record.naics.length === 0) return;
    this.sql(SQL.deleteNaics).run(id);
    for (const naics of record.naics) {
      this.sql(SQL.upsertNaics).run(
        id,
        naics.code,
        this.naicsDescriptions.get(naics.code) ?? '',
        naics.active ? 'Y' : 'N',
      );
    }
    const primary = record.naics[0]?.code ?? '';
    this.sql(SQL.setPrimaryNaics).run(primary, this.naicsDescriptions.get(primary) ?? '', id);
  }

  private naics(record: NaicsRecord): Outcome {
    const id = this.sql(SQL.generatorId).pluck().get(record.epaHandlerId) as number | undefined;
    if (id === undefined) return { pending: record.epaHandlerId };
    const description = this.naicsDescriptions.get(record.code) ?? '';
    const stored = this.sql(SQL.naics).raw().get(id, record.code) as [string, string] | undefined;
    const primary = this.sql(SQL.primaryNaics).pluck().get(id);
    const primaryChange = record.sequence === 1 && primary !== record.code;
    if (stored && !primaryChange) return 'unchanged';
    this.sql(SQL.upsertNaicsActive).run(id, record.code, description);
    if (primaryChange) {
      this.changingGenerator(id);
      this.sql(SQL.setPrimaryNaics).run(record.code, description, id);
    }
    this.touched.generators.add(id);
    return stored ? 'updated' : 'stored';
  }

  // ---------------------------------------------------------------------------------------------------
  // Manifests

  /** The stored manifest with this tracking number, read whole (its values compared with a row's). */
  private storedManifest(tracking: string): StoredManifest | undefined {
    if (this.lastManifest?.tracking === tracking) return this.lastManifest.stored;
    const id = this.sql(SQL.manifestId).pluck().get(tracking) as number | undefined;
    if (id === undefined) return undefined;
    const [, generatorId, updated, run, firstTransporter, ...values] = this.sql(SQL.manifest)
      .raw()
      .get(id) as unknown[];
    const stored: StoredManifest = {
      id,
      generator_id: Number(generatorId),
      updated_date: String(updated),
      import_run: Number(run),
      firstTransporter: String(firstTransporter),
      values,
    };
    this.lastManifest = { tracking, stored };
    return stored;
  }

  private isStale(tracking: string): boolean {
    return this.anyStale && this.sql(SQL.stale).get(this.runId, tracking) !== undefined;
  }

  private manifest(record: ManifestRecord): Outcome {
    const stored = this.storedManifest(record.trackingNumber);
    if (stored && record.updatedDate !== '' && stored.updated_date > record.updatedDate) {
      this.sql(SQL.addStale).run(this.runId, record.trackingNumber);
      this.anyStale = true;
      return 'skipped';
    }
    if (stored && record.updatedDate === '' && stored.updated_date !== '') return 'skipped';
    const generator = this.generator(record.generator);
    const name = record.generator.name || (this.sql(SQL.generatorName).pluck().get(generator.id) as string);
    const values = [
      generator.id,
      name,
      record.generator.epaHandlerId,
      record.generator.location.state,
      record.facilityName,
      record.facilityEpaId,
      record.shippedDate,
      record.receivedDate,
      record.updatedDate,
      record.totalTons === undefined ? null : Math.round(record.totalTons * 1e6) / 1e6,
    ];
    if (!stored) {
      const id = Number(
        this.sql(SQL.insertManifest).run(record.trackingNumber, ...values, this.runId).lastInsertRowid,
      );
      this.touched.newManifests.add(id);
      this.whole(id, record);
      this.noteManifest(id, generator.id, record.trackingNumber);
      this.lastManifest = {
        tracking: record.trackingNumber,
        stored: {
          id,
          generator_id: generator.id,
          updated_date: record.updatedDate,
          import_run: this.runId,
          firstTransporter: record.transporters?.[0]?.epaId ?? '',
          values,
        },
      };
      return 'stored';
    }
    const newer = record.updatedDate > stored.updated_date;
    if (!newer) {
      if (same(stored.values, values) && this.wholeSame(stored.id, record)) return 'unchanged';
      return {
        rejected: `conflicts with the stored manifest of the same UPDATED DATE (${record.updatedDate || 'none'})`,
        column: '',
      };
    }
    this.changingManifest(stored.id);
    this.touched.generators.add(stored.generator_id);
    this.sql(SQL.updateManifest).run(...values, this.runId, stored.id);
    // A newer version replaces the manifest and its lines: this version's lines and transporters follow
    // (EM_WASTE_LINE, EM_TRANSPORTER) or come with it (JSON).
    this.sql(SQL.deleteLines).run(stored.id);
    this.sql(SQL.deleteTransporters).run(stored.id);
    this.lastManifest = undefined;
    this.whole(stored.id, record);
    this.noteManifest(stored.id, generator.id, record.trackingNumber);
    return 'updated';
  }

  private noteManifest(id: number, generatorId: number, tracking: string): void {
    this.touched.manifests.add(id);
    this.touched.generators.add(generatorId);
    this.touched.arrived.add(tracking);
  }

  /** A JSON manifest's own transporters and lines. */
  private whole(id: number, record: ManifestRecord): void {
    for (const transporter of record.transporters ?? []) this.insertTransporter(id, transporter);
    const first = record.transporters?.[0]?.epaId ?? '';
    for (const line of record.lines ?? []) this.insertLine(id, line, first);
  }

  private wholeSame(id: number, record: ManifestRecord): boolean {
    if (!record.lines && !record.transporters) return true;
    const transporters = this.sql(SQL.transporters).raw().all(id) as unknown[][];
    const wanted = (record.transporters ?? []).map((transporter) => [transporter.epaId, transporter.name]);
    if (!same(transporters.flat(), wanted.flat())) return false;
    const lines = this.sql(SQL.lines).raw().all(id) as unknown[][];
    const sorted = [...(record.lines ?? [])].sort((a, b) => a.lineNumber - b.lineNumber);
    return same(
      lines.flat(),
      sorted.flatMap((line) => this.lineValues(line)),
    );
  }

  // ---------------------------------------------------------------------------------------------------
  // Waste lines, transporters, waste codes

  private mmcAndDescription(line: WasteLineRecord): string {
    if (line.managementMethodCode === '') return '';
    const description =
      line.managementMethodDescription || this.methodDescriptions.get(line.managementMethodCode) || '';
    return description === '' ? line.managementMethodCode : `${line.managementMethodCode} - ${description}`;
  }

  private lineValues(line: WasteLineRecord): unknown[] {
    return [
      line.dotHazardous,
      line.dotIdNumber,
      line.dotDescription,
      line.containerCount,
      line.containerType,
      line.epaWaste,
      line.tons === undefined ? 0 : Math.round(line.tons * 1e6) / 1e6,
      line.federalWasteCodes.join(','),
      line.managementMethodCode,
      this.mmcAndDescription(line),
    ];
  }

  /**
   * A stored line equals a row when every value does, except that the stored codes may hold more: codes
   * EM_FEDERAL_WASTE_CODE added to the line's own list are kept when the line is read again.
   */
  private sameLine(stored: readonly unknown[], values: readonly unknown[]): boolean {
    const codes = LINE_COLUMNS.indexOf('federal_waste_codes');
    if (!same(stored.toSpliced(codes, 1), values.toSpliced(codes, 1))) return false;
    const have = new Set(String(stored[codes]).split(','));
    return String(values[codes])
      .split(',')
      .every((code) => code === '' || have.has(code));
  }

  /** Inserts the line unless the manifest already has one of its number; true when it did. */
  private insertLine(id: number, line: WasteLineRecord, transporter: string): boolean {
    return (
      this.sql(SQL.insertLine).run(id, line.lineNumber, ...this.lineValues(line), transporter).changes === 1
    );
  }

  /** The manifest a row of one of its tables belongs to, or why the row cannot apply now. */
  private owner(tracking: string): { manifest: StoredManifest } | { outcome: Outcome } {
    if (this.isStale(tracking)) return { outcome: 'skipped' };
    const manifest = this.storedManifest(tracking);
    return manifest ? { manifest } : { outcome: { pending: tracking } };
  }

  /** A row that differs from the stored one: a correction, or a conflict within this run. */
  private changed(manifest: StoredManifest, what: string): Outcome | undefined {
    if (manifest.import_run === this.runId) {
      return { rejected: `conflicts with the ${what} this import already stored`, column: '' };
    }
    this.sql(SQL.touchManifest).run(this.runId, manifest.id);
    manifest.import_run = this.runId;
    return undefined;
  }

  private wasteLine(line: WasteLineRecord): Outcome {
    const found = this.owner(line.trackingNumber);
    if ('outcome' in found) return found.outcome;
    const owner = found.manifest;
    const values = this.lineValues(line);
    // A manifest this run wrote (the common case: its lines follow it) takes the line at once; only a line
    // already there is compared, and differs only as a conflict within the run.
    if (owner.import_run === this.runId) {
      this.changingManifest(owner.id);
      if (this.insertLine(owner.id, line, owner.firstTransporter)) {
        this.noteManifest(owner.id, owner.generator_id, line.trackingNumber);
        return 'stored';
      }
    }
    const stored = this.sql(SQL.line).raw().get(owner.id, line.lineNumber) as unknown[] | undefined;
    if (stored && this.sameLine(stored, values)) return 'unchanged';
    if (stored) {
      const conflict = this.changed(owner, `waste line ${line.lineNumber}`);
      if (conflict) return conflict;
      this.changingManifest(owner.id);
      this.sql(SQL.deleteLine).run(owner.id, line.lineNumber);
    }
    this.changingManifest(owner.id);
    this.insertLine(owner.id, line, owner.firstTransporter);
    this.noteManifest(owner.id, owner.generator_id, line.trackingNumber);
    return stored ? 'updated' : 'stored';
  }

  private insertTransporter(id: number, transporter: TransporterRecord): void {
    this.sql(SQL.insertTransporter).run(id, transporter.order, transporter.epaId, transporter.name);
  }

  private transporter(transporter: TransporterRecord): Outcome {
    const found = this.owner(transporter.trackingNumber);
    if ('outcome' in found) return found.outcome;
    const owner = found.manifest;
    const stored = this.sql(SQL.transporter).raw().get(owner.id, transporter.order) as unknown[] | undefined;
    if (stored && same(stored, [transporter.epaId, transporter.name])) return 'unchanged';
    if (stored) {
      const conflict = this.changed(owner, `transporter ${transporter.order}`);
      if (conflict) return conflict;
      this.changingManifest(owner.id);
      this.sql(SQL.deleteTransporter).run(owner.id, transporter.order);
    }
    this.changingManifest(owner.id);
    this.insertTransporter(owner.id, transporter);
    if (transporter.order === 1) owner.firstTransporter = transporter.epaId;
    this.noteManifest(owner.id, owner.generator_id, transporter.trackingNumber);
    return stored ? 'updated' : 'stored';
  }

  private wasteCode(record: WasteCodeRecord): Outcome {
    const found = this.owner(record.trackingNumber);
    if ('outcome' in found) return found.outcome;
    const owner = found.manifest;
    const codes = this.sql(SQL.lineCodes).pluck().get(owner.id, record.lineNumber) as string | undefined;
    if (codes === undefined) return { pending: record.trackingNumber };
    const list = codes === '' ? [] : codes.split(',');
    if (list.includes(record.code)) return 'unchanged';
    this.changingManifest(owner.id);
    this.sql(SQL.setLineCodes).run([...list, record.code].join(','), owner.id, record.lineNumber);
    this.noteManifest(owner.id, owner.generator_id, record.trackingNumber);
    return 'updated';
  }
}
