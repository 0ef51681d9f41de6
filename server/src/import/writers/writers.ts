/**
 * Each import record applied to the tracker's tables, deciding new, changed, unchanged, older, conflicting
 * or pending against what is stored (docs/import.md "What an import does with a row"). Runs inside the
 * sink's batch transaction, yielding its statements (steps.ts) so that SQLite and PostgreSQL decide alike;
 * notes every manifest and generator it touches so that the batch's derived data can be brought up to date.
 */
import type {
  GeneratorRecord,
  ImportRecord,
  ManifestRecord,
  TransporterRecord,
  WasteCodeRecord,
  WasteLineRecord,
} from '../model/records.ts';
import { GeneratorWriter } from './generator-writer.ts';
import { LineValues } from './line-values.ts';
import { heldTotals, newManifestTotals, type ManifestTotals } from './held-totals.ts';
import { add, all, exec, get, listOf, nextId, run, value, type Writing } from './steps.ts';
import {
  SQL,
  manifestColumn,
  noneTouched,
  same,
  storedManifest,
  type Outcome,
  type StoredManifest,
  type Touched,
} from './writer-sql.ts';

export { FROM_MANIFESTS_NOTE, type Outcome, type Touched } from './writer-sql.ts';

export class ImportWriters {
  private readonly runId: number;
  private readonly generators: GeneratorWriter;
  private readonly lineValues = new LineValues();
  /** Whether this run has met an older manifest (only then are the stale tracking numbers looked up). */
  private anyStale = false;
  /**
   * The batch's manifests as stored, read with one query for the whole batch (startBatch) rather than one
   * per row: a statement per row was half of an import's time (bench:import's profile). Rows this batch
   * writes are kept here as they are written; a tracking number of the batch that is not here is not stored.
   */
  private readonly known = new Map<string, StoredManifest>();
  /** Tracking numbers whose state `known` holds: the batch's, and those looked up one by one since. */
  private readonly covered = new Set<string>();
  touched: Touched = noneTouched();
  /** The totals the rows held for the batch's manifests will give them (ledger.ts, expectHeld). */
  private readonly held = new Map<string, ManifestTotals>();
  /** Called before an existing manifest or generator is first changed in a batch (SQLite's derived data reads its old index entry). */
  private readonly beforeChange: (table: 'manifests' | 'generators', id: number) => void;

  constructor(runId: number, beforeChange: (table: 'manifests' | 'generators', id: number) => void) {
    this.beforeChange = beforeChange;
    this.runId = runId;
    this.generators = new GeneratorWriter(() => this.touched, beforeChange);
  }

  /** Reads what every batch needs once, before the first. */
  *init(): Writing<void> {
    yield* this.generators.init();
    this.anyStale = (yield* get(SQL.anyStale, this.runId)) !== undefined;
  }

  /** Generators created from manifests because no handler file named them, this run. */
  get generatorsFromManifests(): number {
    return this.generators.fromManifests;
  }

  /**
   * Starts a new batch's notes and reads the stored state of every manifest and generator its rows name,
   * one query each (the cache of the batch before may be stale after a rolled-back batch).
   */
  *startBatch(records: readonly ImportRecord[]): Writing<void> {
    this.touched = noneTouched();
    this.known.clear();
    this.covered.clear();
    this.held.clear();
    for (const entry of records) {
      if (entry.kind !== 'generator' && entry.kind !== 'naics') this.covered.add(entry.record.trackingNumber);
    }
    yield* this.generators.startBatch(records);
    if (this.covered.size === 0) return;
    for (const [tracking, ...row] of yield* all(SQL.manifests, listOf(this.covered))) {
      this.known.set(String(tracking), storedManifest(row));
    }
  }

  /** Rows held for manifests of the batch, read before its rows are applied: each is stored with their totals. */
  expectHeld(held: readonly ImportRecord[]): void {
    for (const [tracking, totals] of heldTotals(held)) this.held.set(tracking, totals);
  }

  apply(entry: ImportRecord): Writing<Outcome> {
    switch (entry.kind) {
      case 'generator':
        return this.generatorOutcome(entry.record);
      case 'manifest':
        return this.manifest(entry.record);
      case 'wasteLine':
        return this.wasteLine(entry.record);
      case 'transporter':
        return this.transporter(entry.record);
      case 'wasteCode':
        return this.wasteCode(entry.record);
      case 'naics':
        return this.generators.naics(entry.record);
    }
  }

  private *generatorOutcome(record: GeneratorRecord): Writing<Outcome> {
    return (yield* this.generators.generator(record)).outcome;
  }

  /** Call before changing a manifest row or its lines or transporters. */
  private changingManifest(id: number): void {
    if (!this.touched.newManifests.has(id) && !this.touched.existingManifests.has(id)) {
      this.beforeChange('manifests', id);
      this.touched.existingManifests.add(id);
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Manifests

  /** The stored manifest with this tracking number (its values are read when a row is compared with them). */
  private *storedManifest(tracking: string): Writing<StoredManifest | undefined> {
    const known = this.known.get(tracking);
    if (known || this.covered.has(tracking)) return known;
    // A row applied outside its batch (a pending one) or a manifest rewritten in this batch: one probe.
    const row = yield* get(SQL.manifest, tracking);
    this.covered.add(tracking);
    if (row === undefined) return undefined;
    const stored = storedManifest(row);
    this.known.set(tracking, stored);
    return stored;
  }

  private *isStale(tracking: string): Writing<boolean> {
    return this.anyStale && (yield* get(SQL.stale, this.runId, tracking)) !== undefined;
  }

  private *manifest(record: ManifestRecord): Writing<Outcome> {
    const stored = yield* this.storedManifest(record.trackingNumber);
    if (stored && record.updatedDate !== '' && stored.updated_date > record.updatedDate) {
      yield* exec(SQL.addStale, this.runId, record.trackingNumber);
      this.anyStale = true;
      return 'skipped';
    }
    if (stored && record.updatedDate === '' && stored.updated_date !== '') return 'skipped';
    const generator = yield* this.generators.generator(record.generator);
    const name = record.generator.name || ((yield* value(SQL.generatorName, generator.id)) as string);
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
      const totals = newManifestTotals(this.held, record, (column) => manifestColumn(values, column));
      const id = yield* nextId('manifests');
      yield* add(SQL.insertManifest, id, record.trackingNumber, ...values, this.runId, ...totals);
      this.touched.newManifests.add(id);
      this.touched.rows.add(id);
      yield* this.whole(id, record);
      this.noteManifest(id, generator.id, record.trackingNumber);
      this.known.set(record.trackingNumber, {
        id,
        generator_id: generator.id,
        updated_date: record.updatedDate,
        import_run: this.runId,
        firstTransporter: record.transporters?.[0]?.epaId ?? '',
        values,
        created: {
          lines: new Set(record.lines?.map((line) => line.lineNumber)),
          transporters: new Set(record.transporters?.map((transporter) => transporter.order)),
        },
      });
      return 'stored';
    }
    const newer = record.updatedDate > stored.updated_date;
    if (!newer) {
      stored.values ??= (yield* get(SQL.manifestValues, stored.id)) ?? [];
      if (same(stored.values, values) && (yield* this.wholeSame(stored.id, record))) return 'unchanged';
      return {
        rejected: `conflicts with the stored manifest of the same UPDATED DATE (${record.updatedDate || 'none'})`,
        column: '',
      };
    }
    this.changingManifest(stored.id);
    this.touched.generators.add(stored.generator_id);
    this.touched.rewrittenGenerators.add(stored.generator_id);
    this.touched.rewrittenGenerators.add(generator.id);
    yield* exec(SQL.updateManifest, ...values, this.runId, stored.id);
    // A newer version replaces the manifest and its lines: this version's lines and transporters follow
    // (EM_WASTE_LINE, EM_TRANSPORTER), came before it (held, ledger.ts) or come with it (JSON). A version
    // this run stored already keeps the lines and transporters this run gave it, unless this one brings
    // its own: a run's files hold one set per manifest, whichever of its versions they follow.
    if (stored.import_run !== this.runId || record.lines || record.transporters) {
      yield* exec(SQL.deleteLines, stored.id);
      yield* exec(SQL.deleteTransporters, stored.id);
    }
    this.touched.lines.add(stored.id);
    this.touched.rows.add(stored.id);
    this.known.delete(record.trackingNumber);
    this.covered.delete(record.trackingNumber);
    yield* this.whole(stored.id, record);
    this.noteManifest(stored.id, generator.id, record.trackingNumber);
    return 'updated';
  }

  private noteManifest(id: number, generatorId: number, tracking: string): void {
    this.touched.manifests.add(id);
    this.touched.generators.add(generatorId);
    this.touched.arrived.add(tracking);
  }

  /** A JSON manifest's own transporters and lines (it has none stored: new, or its own deleted). */
  private *whole(id: number, record: ManifestRecord): Writing<void> {
    if (record.lines?.length || record.transporters?.length) this.touched.lines.add(id);
    for (const transporter of record.transporters ?? []) yield* this.insertTransporter(id, transporter);
    const first = record.transporters?.[0]?.epaId ?? '';
    for (const line of record.lines ?? []) {
      yield* add(SQL.insertLine, id, line.lineNumber, ...this.lineValues.of(line), first);
    }
  }

  private *wholeSame(id: number, record: ManifestRecord): Writing<boolean> {
    if (!record.lines && !record.transporters) return true;
    const transporters = yield* all(SQL.transporters, id);
    const wanted = (record.transporters ?? []).map((transporter) => [transporter.epaId, transporter.name]);
    if (!same(transporters.flat(), wanted.flat())) return false;
    const lines = yield* all(SQL.lines, id);
    const sorted = [...(record.lines ?? [])].sort((a, b) => a.lineNumber - b.lineNumber);
    return same(
      lines.flat(),
      sorted.flatMap((line) => this.lineValues.of(line)),
    );
  }

  // ---------------------------------------------------------------------------------------------------
  // Waste lines, transporters, waste codes

  /** Inserts the line unless the manifest already has one of its number; true when it did. */
  private *insertLine(owner: StoredManifest, line: WasteLineRecord): Writing<boolean> {
    const params = [owner.id, line.lineNumber, ...this.lineValues.of(line), owner.firstTransporter];
    const created = owner.created?.lines;
    if (created?.has(line.lineNumber)) return false;
    if (created) {
      created.add(line.lineNumber);
      yield* add(SQL.insertLine, ...params);
    } else if ((yield* run(SQL.insertLine, ...params)) !== 1) {
      return false;
    }
    this.touched.lines.add(owner.id);
    return true;
  }

  /** Inserts a transporter of a manifest this run wrote unless it has one of its order; true when it did. */
  private *insertNewTransporter(owner: StoredManifest, transporter: TransporterRecord): Writing<boolean> {
    const { order, epaId, name } = transporter;
    const created = owner.created?.transporters;
    if (created?.has(order)) return false;
    if (!created) return (yield* run(SQL.insertNewTransporter, owner.id, order, epaId, name)) === 1;
    created.add(order);
    yield* add(SQL.insertNewTransporter, owner.id, order, epaId, name);
    return true;
  }

  /** The manifest a row of one of its tables belongs to, or why the row cannot apply now. */
  private *owner(tracking: string): Writing<{ manifest: StoredManifest } | { outcome: Outcome }> {
    if (yield* this.isStale(tracking)) return { outcome: 'skipped' };
    const manifest = yield* this.storedManifest(tracking);
    return manifest ? { manifest } : { outcome: { pending: tracking } };
  }

  /** A row that differs from the stored one: a correction, or a conflict within this run. */
  private *changed(manifest: StoredManifest, what: string): Writing<Outcome | undefined> {
    if (manifest.import_run === this.runId) {
      return { rejected: `conflicts with the ${what} this import already stored`, column: '' };
    }
    yield* exec(SQL.touchManifest, this.runId, manifest.id);
    manifest.import_run = this.runId;
    return undefined;
  }

  private *wasteLine(line: WasteLineRecord): Writing<Outcome> {
    const found = yield* this.owner(line.trackingNumber);
    if ('outcome' in found) return found.outcome;
    const owner = found.manifest;
    const values = this.lineValues.of(line);
    // A manifest this run wrote (the common case: its lines follow it) takes the line at once; only a line
    // already there is compared, and differs only as a conflict within the run.
    if (owner.import_run === this.runId) {
      this.changingManifest(owner.id);
      // Noted as touched whatever follows: a manifest noted as changing whose totals were not read again
      // would take its totals out of its generator's.
      this.noteManifest(owner.id, owner.generator_id, line.trackingNumber);
      if (yield* this.insertLine(owner, line)) return 'stored';
    }
    const stored = yield* get(SQL.line, owner.id, line.lineNumber);
    if (stored && this.lineValues.same(stored, values)) return 'unchanged';
    if (stored) {
      const conflict = yield* this.changed(owner, `waste line ${line.lineNumber}`);
      if (conflict) return conflict;
      this.changingManifest(owner.id);
      this.touched.rewrittenGenerators.add(owner.generator_id);
      yield* exec(SQL.deleteLine, owner.id, line.lineNumber);
      this.touched.lines.add(owner.id);
    }
    this.changingManifest(owner.id);
    yield* this.insertLine(owner, line);
    this.noteManifest(owner.id, owner.generator_id, line.trackingNumber);
    return stored ? 'updated' : 'stored';
  }

  /** Inserts a transporter of a manifest that has none of its order. */
  private *insertTransporter(id: number, transporter: TransporterRecord): Writing<void> {
    yield* add(SQL.insertTransporter, id, transporter.order, transporter.epaId, transporter.name);
  }

  private *transporter(transporter: TransporterRecord): Writing<Outcome> {
    const found = yield* this.owner(transporter.trackingNumber);
    if ('outcome' in found) return found.outcome;
    const owner = found.manifest;
    // As for waste lines: a manifest this run wrote takes the transporter at once, unless it has one there.
    // (Noted as changing only once it has: a transporter changes nothing beforeChange reads, and a manifest
    // noted as changing must be noted as touched too, or its totals leave its generator's.)
    if (owner.import_run === this.runId && (yield* this.insertNewTransporter(owner, transporter))) {
      this.changingManifest(owner.id);
      if (transporter.order === 1) this.firstTransporter(owner, transporter.epaId);
      this.noteManifest(owner.id, owner.generator_id, transporter.trackingNumber);
      return 'stored';
    }
    const stored = yield* get(SQL.transporter, owner.id, transporter.order);
    if (stored && same(stored, [transporter.epaId, transporter.name])) return 'unchanged';
    if (stored) {
      const conflict = yield* this.changed(owner, `transporter ${transporter.order}`);
      if (conflict) return conflict;
      this.changingManifest(owner.id);
      yield* exec(SQL.deleteTransporter, owner.id, transporter.order);
    }
    this.changingManifest(owner.id);
    yield* this.insertTransporter(owner.id, transporter);
    if (transporter.order === 1) this.firstTransporter(owner, transporter.epaId);
    this.noteManifest(owner.id, owner.generator_id, transporter.trackingNumber);
    return stored ? 'updated' : 'stored';
  }

  /** A manifest's first transporter, which each of its waste lines carries (its JSON with them). */
  private firstTransporter(manifest: StoredManifest, epaId: string): void {
    manifest.firstTransporter = epaId;
    this.touched.lines.add(manifest.id);
    this.touched.rows.add(manifest.id);
  }

  private *wasteCode(record: WasteCodeRecord): Writing<Outcome> {
    const found = yield* this.owner(record.trackingNumber);
    if ('outcome' in found) return found.outcome;
    const owner = found.manifest;
    const codes = (yield* value(SQL.lineCodes, owner.id, record.lineNumber)) as string | undefined;
    if (codes === undefined) return { pending: record.trackingNumber };
    const list = codes === '' ? [] : codes.split(',');
    if (list.includes(record.code)) return 'unchanged';
    this.changingManifest(owner.id);
    yield* exec(SQL.setLineCodes, [...list, record.code].join(','), owner.id, record.lineNumber);
    this.touched.lines.add(owner.id);
    this.noteManifest(owner.id, owner.generator_id, record.trackingNumber);
    return 'updated';
  }
}
