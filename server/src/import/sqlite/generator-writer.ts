/**
 * Generators applied to the tracker's tables: from handler files (HD_REPORTING, HD_HANDLER, JSON sites),
 * from HD_NAICS rows, and from the generator details each manifest carries, a handler file's details
 * winning over a manifest's and, within one source, the newer change date (docs/import.md).
 */
import type { Database } from 'better-sqlite3';
import type { GeneratorRecord, NaicsRecord } from '../model/records.ts';
import { SQL, generatorValues, same, type Outcome, type Statements, type Touched } from './writer-sql.ts';

/** Generator ids kept in memory at most: ~10 MB. */
const HANDLER_CACHE = 100_000;

export class GeneratorWriter {
  private readonly statements: Statements;
  private readonly touched: () => Touched;
  private readonly beforeChange: (table: 'generators', id: number) => void;
  private readonly naicsDescriptions: Map<string, string>;
  /** Generators described by a handler file, by EPA id (rows of this connection's database, never stale). */
  private readonly fromHandlers = new Map<string, number>();
  /** Generators created from manifests because no handler file named them. */
  fromManifests = 0;

  constructor(
    db: Database,
    statements: Statements,
    touched: () => Touched,
    beforeChange: (table: 'generators', id: number) => void,
  ) {
    this.statements = statements;
    this.touched = touched;
    this.beforeChange = beforeChange;
    this.naicsDescriptions = new Map(
      db.prepare('SELECT code, description FROM naics_codes').raw().all() as [string, string][],
    );
  }

  private sql(text: string) {
    return this.statements.get(text);
  }

  generator(record: GeneratorRecord): { id: number; outcome: Outcome } {
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
      this.naicsList(id, record, true);
      this.touched().generators.add(id);
      this.touched().newGenerators.add(id);
      this.touched().arrived.add(record.epaHandlerId);
      if (record.source === 'manifest') this.fromManifests += 1;
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
    if (!this.touched().newGenerators.has(id) && !this.touched().existingGenerators.has(id)) {
      this.beforeChange('generators', id);
      this.touched().existingGenerators.add(id);
    }
    this.touched().generators.add(id);
  }

  private naicsSame(id: number, record: GeneratorRecord): boolean {
    if (record.naics.length === 0) return true;
    const primary = this.sql(SQL.primaryNaics).pluck().get(id);
    return primary === record.naics[0]?.code;
  }

  /** Replaces a generator's NAICS codes with the record's (the first is its primary). */
  private naicsList(id: number, record: GeneratorRecord, created = false): void {
    if (record.naics.length === 0) return;
    if (!created) this.sql(SQL.deleteNaics).run(id);
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

  naics(record: NaicsRecord): Outcome {
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
    this.touched().generators.add(id);
    return stored ? 'updated' : 'stored';
  }
}
