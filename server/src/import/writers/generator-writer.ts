/**
 * Generators applied to the tracker's tables: from handler files (HD_REPORTING, HD_HANDLER, JSON sites),
 * from HD_NAICS rows, and from the generator details each manifest carries, a handler file's details
 * winning over a manifest's and, within one source, the newer change date (docs/import.md). Each method
 * yields its statements (steps.ts): the same decisions on SQLite and PostgreSQL.
 */
import type { GeneratorRecord, ImportRecord, NaicsRecord } from '../model/records.ts';
import { add, all, exec, get, listOf, nextId, value, type Writing } from './steps.ts';
import { SQL, generatorValues, same, type Outcome, type Touched } from './writer-sql.ts';

/** Generator ids kept in memory at most: ~10 MB. */
const HANDLER_CACHE = 100_000;

export class GeneratorWriter {
  private readonly touched: () => Touched;
  private readonly beforeChange: (table: 'generators', id: number) => void;
  private naicsDescriptions = new Map<string, string>();
  /** Generators described by a handler file, by EPA id (rows of this connection's database, never stale). */
  private readonly fromHandlers = new Map<string, number>();
  /**
   * The batch's generators as stored, by EPA id, read with one query for the whole batch (startBatch) rather
   * than one per row: on PostgreSQL each is a wait for the server. An id in `covered` and not here is not
   * stored. A generator this batch writes leaves both, and a later row of it reads it again.
   */
  private readonly known = new Map<string, unknown[]>();
  private readonly covered = new Set<string>();
  /** Generators created from manifests because no handler file named them. */
  fromManifests = 0;

  constructor(touched: () => Touched, beforeChange: (table: 'generators', id: number) => void) {
    this.touched = touched;
    this.beforeChange = beforeChange;
  }

  /** Reads what every row needs once: the NAICS descriptions. */
  *init(): Writing<void> {
    const rows = (yield* all(SQL.naicsDescriptions)) as [string, string][];
    this.naicsDescriptions = new Map(rows);
  }

  /**
   * Reads the stored state of the generators the batch's rows describe, in one query: those of handler
   * rows, and those manifests name that no handler file of this run has (the others are not read at all).
   */
  *startBatch(records: readonly ImportRecord[]): Writing<void> {
    this.known.clear();
    this.covered.clear();
    for (const entry of records) {
      if (entry.kind === 'generator') this.covered.add(entry.record.epaHandlerId);
      else if (entry.kind === 'manifest' && !this.fromHandlers.has(entry.record.generator.epaHandlerId)) {
        this.covered.add(entry.record.generator.epaHandlerId);
      }
    }
    if (this.covered.size === 0) return;
    for (const [epaHandlerId, ...row] of yield* all(SQL.generators, listOf(this.covered))) {
      this.known.set(String(epaHandlerId), row);
    }
  }

  /** The stored generator with this EPA id: id, source, change date and the columns generatorValues writes. */
  private *stored(epaHandlerId: string): Writing<unknown[] | undefined> {
    if (this.covered.has(epaHandlerId)) return this.known.get(epaHandlerId);
    return yield* get(SQL.generator, epaHandlerId);
  }

  /** A generator this batch wrote: read again should a later row of the batch name it. */
  private written(epaHandlerId: string): void {
    this.covered.delete(epaHandlerId);
    this.known.delete(epaHandlerId);
  }

  *generator(record: GeneratorRecord): Writing<{ id: number; outcome: Outcome }> {
    // A manifest's generator details never change a generator a handler file described: the commonest
    // case (every manifest names one) answered without reading the row.
    if (record.source === 'manifest') {
      const id = this.fromHandlers.get(record.epaHandlerId);
      if (id !== undefined) return { id, outcome: 'unchanged' };
    }
    const stored = yield* this.stored(record.epaHandlerId);
    const values = generatorValues(record);
    if (!stored) {
      const primary = record.naics[0]?.code ?? '';
      const description = this.naicsDescriptions.get(primary) ?? '';
      const id = yield* nextId('generators');
      yield* add(SQL.insertGenerator, id, record.epaHandlerId, ...values, primary, description);
      this.written(record.epaHandlerId);
      yield* this.naicsCodes(id, record);
      // Every manifest of this handler then finds it here rather than reading the row again.
      if (record.source === 'handler') this.rememberHandler(record.epaHandlerId, id);
      this.touched().generators.add(id);
      this.touched().newGenerators.add(id);
      this.touched().arrived.add(record.epaHandlerId);
      if (record.source === 'manifest') this.fromManifests += 1;
      return { id, outcome: 'stored' };
    }
    const [storedId, source, updated, ...current] = stored as [number, string, string, ...unknown[]];
    const id = Number(storedId);
    if (source === 'handler') this.rememberHandler(record.epaHandlerId, id);
    // A handler file's details win over a manifest's; within one source the newer change date wins.
    const older =
      (source === 'handler' && record.source === 'manifest') ||
      (source === record.source && record.updated !== '' && updated !== '' && record.updated < updated) ||
      (source === record.source && record.updated === '' && updated !== '');
    if (older) return { id, outcome: record.source === 'manifest' ? 'unchanged' : 'skipped' };
    if (same(current, values) && (yield* this.naicsSame(id, record))) return { id, outcome: 'unchanged' };
    this.changingGenerator(id);
    yield* exec(SQL.updateGenerator, ...values, id);
    this.written(record.epaHandlerId);
    if (record.naics.length > 0) yield* this.naicsList(id, record);
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
    if (!this.touched().newGenerators.has(id) && !this.touched().existingGenerators.has(id)) {
      this.beforeChange('generators', id);
      this.touched().existingGenerators.add(id);
    }
    this.touched().generators.add(id);
  }

  private *naicsSame(id: number, record: GeneratorRecord): Writing<boolean> {
    if (record.naics.length === 0) return true;
    return (yield* value(SQL.primaryNaics, id)) === record.naics[0]?.code;
  }

  /** Replaces a generator's NAICS codes with the record's (the first is its primary). */
  private *naicsList(id: number, record: GeneratorRecord): Writing<void> {
    if (record.naics.length === 0) return;
    yield* exec(SQL.deleteNaics, id);
    yield* this.naicsCodes(id, record);
    const primary = record.naics[0]?.code ?? '';
    yield* exec(SQL.setPrimaryNaics, primary, this.naicsDescriptions.get(primary) ?? '', id);
  }

  /**
   * Writes the record's NAICS codes for a generator that has none (new, or its codes deleted): a code listed
   * twice as its last listing says.
   */
  private *naicsCodes(id: number, record: GeneratorRecord): Writing<void> {
    const active = new Map(record.naics.map((naics) => [naics.code, naics.active]));
    for (const [code, isActive] of active) {
      yield* add(SQL.insertNaics, id, code, this.naicsDescriptions.get(code) ?? '', isActive ? 'Y' : 'N');
    }
  }

  *naics(record: NaicsRecord): Writing<Outcome> {
    const found = yield* value(SQL.generatorId, record.epaHandlerId);
    if (found === undefined) return { pending: record.epaHandlerId };
    const id = Number(found);
    const description = this.naicsDescriptions.get(record.code) ?? '';
    const stored = yield* get(SQL.naics, id, record.code);
    const primary = yield* value(SQL.primaryNaics, id);
    const primaryChange = record.sequence === 1 && primary !== record.code;
    if (stored && !primaryChange) return 'unchanged';
    yield* exec(SQL.upsertNaicsActive, id, record.code, description);
    if (primaryChange) {
      this.changingGenerator(id);
      yield* exec(SQL.setPrimaryNaics, record.code, description, id);
    }
    this.touched().generators.add(id);
    return stored ? 'updated' : 'stored';
  }
}
