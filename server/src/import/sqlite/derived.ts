/**
 * What the serving queries read beside the rows, brought up to date for the rows one import batch touched,
 * in the batch's transaction: so a server reading the database sees each transaction whole, its rows in
 * lists, totals, searches, lookups and profiles at once (docs/api.md "The data while serving").
 *
 * - every touched manifest's transporter, containers, line count and tons, and its lines' transporter id,
 *   the stored waste-line JSON, the per-manifest
 *   line sets and their per-value totals, the per-generator sets and shipment totals, the search index
 *   entries and the lookup lists (db/lookup-index.ts).
 * An import into an empty database (bulk mode) leaves all of it to one pass after the load
 * (ALL_MANIFEST_AGGREGATES_SQL, then finalize()), several times faster than row by row.
 */
import type { Database, Statement } from 'better-sqlite3';
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../../../../shared/query/definition.ts';
import { LINE_SET_TOTAL_COLUMNS } from '../../db/fact-storage.ts';
import { addLookupEntry } from '../../db/lookup-index.ts';
import { StatementCache } from '../../db/statements.ts';
import { shiftTallies, widenLag } from '../../db/tallies.ts';
import { WASTE_LINE_COLUMNS, wasteLine } from '../../db/waste-lines-json.ts';
import type { ImportRecord } from '../model/records.ts';
import type { Touched } from '../writers/writers.ts';
import { LookupCandidates, listsOf } from './derived-lookups.ts';

import {
  GENERATOR_GROWTH_SQL,
  GENERATOR_SQL,
  GENERATOR_STATUS_SQL,
  GENERATOR_SUMS_SQL,
  GENERATOR_TEXT_SQL,
  IDS,
  LAG_SQL,
  MANIFEST_AGGREGATES_SQL,
  MANIFEST_SUMS_SQL,
  METHOD_LINES_SQL,
  WITH_LINES_SQL,
  MOVE_SHIPPED_SQL,
  SHIPPED_SQL,
  STORED_METHOD_LINES_SQL,
  BATCH_LINE_SETS_SQL,
  lineSetTotalsShiftSql,
} from './derived-sql.ts';

/** Manifests whose waste-line JSON is written per statement: their lines held in memory at once. */
const JSON_CHUNK = 1000;

/** A generator's id, then its quantities' parts in GENERATOR_FROM_MANIFESTS' order (SHIPPED_SQL). */
type Shipped = [number, ...number[]];
/** [generator id, management method code, lines] */
type MethodLines = [number, string, number];

/** What beforeChange reads of a row (its search fields, then the values it gives its lists), to a WHERE. */
const BEFORE_SQL = Object.fromEntries(
  (['manifests', 'generators'] as const).map((table) => {
    const fields = table === 'manifests' ? MANIFEST_QUERY.searchFields : GENERATOR_QUERY.searchFields;
    const columns = [...fields, ...listsOf(table).map(([, list]) => list.column)];
    return [table, `SELECT id, ${columns.join(', ')} FROM ${table} WHERE`];
  }),
) as Record<'manifests' | 'generators', string>;

export class DerivedData {
  private readonly db: Database;
  private readonly incremental: boolean;
  private readonly statements: StatementCache;
  /** Old search index entries and list values of the rows the batch changed, read before it changed them. */
  private readonly oldSearch = {
    manifests: new Map<number, unknown[]>(),
    generators: new Map<number, unknown[]>(),
  };
  /** The lookup list values the batch may have added or removed. */
  private readonly candidates: LookupCandidates;
  /** The method line counts of the manifests the batch changed, as they were before (beforeChange). */
  private oldMethodLines: MethodLines[] = [];
  /** beforeChange's reading of the batch's stored manifests, read at once (beforeBatch) and taken once. */
  private readonly stored = new Map<number, { row: unknown[]; methodLines: MethodLines[] }>();

  constructor(db: Database, incremental: boolean) {
    this.db = db;
    this.incremental = incremental;
    this.statements = new StatementCache(db);
    this.candidates = new LookupCandidates(this.statements);
  }

  private sql(text: string): Statement {
    return this.statements.get(text);
  }

  private exec(text: string, ids: string): void {
    // Multi-statement SQL with one JSON parameter each: run statement by statement, binding it where used.
    for (const part of text.split(';\n')) {
      const statement = part.trim();
      if (statement === '') continue;
      const count = statement.split(IDS).length - 1;
      this.sql(statement).run(...Array.from({ length: count }, () => ids));
    }
  }

  /**
   * Reads, before a batch's first row, what beforeChange needs of every stored manifest the batch names, in
   * two statements: an append's EM_TRANSPORTER and EM_WASTE_LINE batches change every manifest they name,
   * and two statements per manifest were a tenth of their time (bench:import's profile).
   */
  beforeBatch(records: readonly ImportRecord[]): void {
    this.stored.clear();
    if (!this.incremental) return;
    const tracking = new Set<string>();
    for (const entry of records) {
      if (entry.kind !== 'generator' && entry.kind !== 'naics') tracking.add(entry.record.trackingNumber);
    }
    if (tracking.size === 0) return;
    const list = JSON.stringify([...tracking]);
    for (const [id, ...row] of this.sql(`${BEFORE_SQL.manifests} manifest_tracking_number IN (${IDS})`)
      .raw()
      .all(list) as [number, ...unknown[]][]) {
      this.stored.set(id, { row, methodLines: [] });
    }
    for (const [id, ...lines] of this.sql(STORED_METHOD_LINES_SQL).raw().all(list) as [
      number,
      ...MethodLines,
    ][]) {
      this.stored.get(id)?.methodLines.push(lines);
    }
  }

  /** Before an existing row first changes in a batch: its index entry and the list values it held. */
  readonly beforeChange = (table: 'manifests' | 'generators', id: number): void => {
    if (!this.incremental) return;
    const fields = table === 'manifests' ? MANIFEST_QUERY.searchFields : GENERATOR_QUERY.searchFields;
    const lists = listsOf(table);
    const stored = table === 'manifests' ? this.stored.get(id) : undefined;
    const row = stored?.row ?? (this.sql(`${BEFORE_SQL[table]} id = ?`).raw().get(id) as unknown[]).slice(1);
    this.oldSearch[table].set(id, row.slice(0, fields.length));
    lists.forEach(([name], index) => this.candidates.add(name, row[fields.length + index]));
    if (table !== 'manifests') return;
    if (stored) {
      this.oldMethodLines.push(...stored.methodLines);
      this.stored.delete(id);
      return;
    }
    this.oldMethodLines.push(
      ...(this.sql(METHOD_LINES_SQL)
        .raw()
        .all(JSON.stringify([id])) as MethodLines[]),
    );
  };

  /** Brings the derived data of the batch's touched rows up to date. */
  afterBatch(touched: Touched): void {
    if (!this.incremental) return;
    const manifests = JSON.stringify([...touched.manifests]);
    const generators = JSON.stringify([...touched.generators]);
    // What the touched manifests held before the batch: a manifest it created held nothing (though it is
    // stored with its source total already).
    const manifestsBefore = this.sums(
      MANIFEST_SUMS_SQL,
      JSON.stringify([...touched.manifests].filter((id) => !touched.newManifests.has(id))),
    );
    const shippedBefore = this.sql(SHIPPED_SQL)
      .raw()
      .all(JSON.stringify([...touched.existingManifests])) as Shipped[];
    // Only a manifest whose lines or first transporter changed has other totals than it was stored with.
    const changedLines = JSON.stringify([...touched.lines]);
    // Of those, the ones that have lines or had them (the JSON of their lines): a manifest whose lines are
    // still to come (EM_TRANSPORTER read before EM_WASTE_LINE) has neither JSON nor line sets to write.
    const lined =
      touched.lines.size > 0 ? (this.sql(WITH_LINES_SQL).pluck().all(changedLines) as number[]) : [];
    if (touched.lines.size > 0) this.exec(MANIFEST_AGGREGATES_SQL, changedLines);
    const linedIds = JSON.stringify(lined);
    this.candidates.noteSetValues(lined.length, linedIds, touched.generators.size, generators, false);
    if (lined.length > 0) {
      this.wasteLinesJson(lined);
      this.lineSets(linedIds);
    }
    const generatorsBefore = this.sums(GENERATOR_SUMS_SQL, generators);
    this.generators(touched, manifests, shippedBefore);
    this.tallies(touched, manifests, generators, manifestsBefore, generatorsBefore);
    this.search('manifests', MANIFEST_QUERY.searchFields, touched.rows);
    this.search('generators', GENERATOR_QUERY.searchFields, [
      ...touched.newGenerators,
      ...touched.existingGenerators,
    ]);
    this.candidates.noteRowValues('manifests', touched.rows);
    // A generator touched only through its manifests kept its own columns (name, place, NAICS code): only
    // those the batch created or changed can bring a value to its lists. (The NAICS list's entries are read
    // from every generator of the code, which for each touched generator was most of an append's lookups.)
    this.candidates.noteRowValues('generators', [...touched.newGenerators, ...touched.existingGenerators]);
    this.candidates.noteSetValues(lined.length, linedIds, touched.generators.size, generators, true);
    this.candidates.apply();
    this.newRows('manifests.manifest_number', 'manifests', 'manifest_tracking_number', touched.newManifests);
    this.newRows('generators.epa_handler_id', 'generators', 'epa_handler_id', touched.newGenerators);
    this.stored.clear();
  }

  /** A one-per-row list's entries for the rows the batch created. */
  private newRows(name: string, table: string, column: string, ids: Set<number>): void {
    if (ids.size === 0) return;
    const values = this.sql(`SELECT ${column} FROM ${table} WHERE id IN (${IDS})`)
      .pluck()
      .all(JSON.stringify([...ids])) as string[];
    for (const value of values) addLookupEntry(this.statements, name, { value, text: value });
  }

  /**
   * The generators of the batch's manifests brought up to date: those whose manifests only gained rows by
   * growing their sets and moving their shipment totals and method counts by the difference, those whose
   * manifests lost something by working them out again whole.
   */
  private generators(touched: Touched, manifests: string, shippedBefore: Shipped[]): void {
    const rewritten = touched.rewrittenGenerators;
    if (touched.manifests.size > 0) this.exec(GENERATOR_GROWTH_SQL, manifests);
    // Shipment quantities: each generator's touched manifests after the batch less what they held before it.
    const shipped = new Map<number, number[]>();
    const move = (rows: Shipped[], sign: 1 | -1) => {
      for (const [generator, ...parts] of rows) {
        if (rewritten.has(generator)) continue;
        const sum = shipped.get(generator) ?? parts.map(() => 0);
        shipped.set(
          generator,
          sum.map((value, index) => value + sign * (parts[index] ?? 0)),
        );
      }
    };
    move(shippedBefore, -1);
    move(this.sql(SHIPPED_SQL).raw().all(manifests) as Shipped[], 1);
    const moveShipped = this.sql(MOVE_SHIPPED_SQL);
    for (const [generator, change] of shipped) moveShipped.run(...change, generator);
    // Method line counts the same way, from what beforeChange read and what the lines hold now.
    const lines = new Map<string, number>();
    const count = (generator: number, code: string, change: number) => {
      if (rewritten.has(generator)) return;
      const key = `${generator}\u0000${code}`;
      lines.set(key, (lines.get(key) ?? 0) + change);
    };
    for (const [generator, code, number] of this.oldMethodLines) count(generator, code, -number);
    this.oldMethodLines = [];
    for (const [generator, code, number] of this.sql(METHOD_LINES_SQL)
      .raw()
      .all(manifests) as MethodLines[]) {
      count(generator, code, number);
    }
    const addLines = this.sql(
      `INSERT INTO generator_method_lines (generator_id, code, lines) VALUES (?, ?, ?)
       ON CONFLICT (generator_id, code) DO UPDATE SET lines = lines + excluded.lines`,
    );
    // Only a count the batch lowered can reach 0: those generators' are looked at, not the whole table.
    const lowered = new Set<number>();
    for (const [key, change] of lines) {
      if (change === 0) continue;
      const [generator, code] = key.split('\u0000');
      addLines.run(Number(generator), code, change);
      if (change < 0) lowered.add(Number(generator));
    }
    if (lowered.size > 0) {
      this.sql(`DELETE FROM generator_method_lines WHERE generator_id IN (${IDS}) AND lines <= 0`).run(
        JSON.stringify([...lowered]),
      );
    }
    if (rewritten.size > 0) this.exec(GENERATOR_SQL, JSON.stringify([...rewritten]));
    const own = JSON.stringify([...touched.newGenerators, ...touched.existingGenerators]);
    if (touched.newGenerators.size + touched.existingGenerators.size > 0)
      this.exec(GENERATOR_STATUS_SQL, own);
    if (touched.generators.size > 0) this.exec(GENERATOR_TEXT_SQL, JSON.stringify([...touched.generators]));
  }

  private sums(sql: string, ids: string): number[] {
    return this.sql(sql).raw().get(ids) as number[];
  }

  /** The dataset's tallies moved by what the batch changed (db/tallies.ts). */
  private tallies(
    touched: Touched,
    manifests: string,
    generators: string,
    manifestsBefore: number[],
    generatorsBefore: number[],
  ): void {
    shiftTallies(this.db, 'manifests', {
      before: manifestsBefore,
      after: this.sums(MANIFEST_SUMS_SQL, manifests),
      added: touched.newManifests.size,
    });
    shiftTallies(this.db, 'generators', {
      before: generatorsBefore,
      after: this.sums(GENERATOR_SUMS_SQL, generators),
      added: touched.newGenerators.size,
    });
    const [lagMin, lagMax] = this.sums(LAG_SQL, manifests) as (number | null)[];
    if (lagMin !== null && lagMin !== undefined) widenLag(this.db, { minDays: lagMin, maxDays: lagMax ?? 0 });
  }

  /**
   * The stored waste-line JSON of these manifests written again: a few statements per thousand manifests
   * rather than two per manifest (a manifest without lines has no JSON row).
   */
  private wasteLinesJson(ids: readonly number[]): void {
    const remove = this.sql(`DELETE FROM manifest_waste_lines_json WHERE manifest_id IN (${IDS})`);
    const read = this.sql(
      `SELECT w.manifest_id, m.manifest_tracking_number, ${WASTE_LINE_COLUMNS.map((column) => `w.${column}`).join(', ')}
       FROM waste_lines w JOIN manifests m ON m.id = w.manifest_id
       WHERE w.manifest_id IN (${IDS}) ORDER BY w.manifest_id, w.waste_line_number`,
    ).raw();
    const insert = this.sql('INSERT INTO manifest_waste_lines_json (manifest_id, json) VALUES (?, ?)');
    for (let start = 0; start < ids.length; start += JSON_CHUNK) {
      const chunk = JSON.stringify(ids.slice(start, start + JSON_CHUNK));
      remove.run(chunk);
      let manifest: unknown;
      let lines: Record<string, unknown>[] = [];
      const write = () => {
        if (lines.length > 0) insert.run(manifest, JSON.stringify(lines));
      };
      for (const [id, number, ...values] of read.all(chunk) as unknown[][]) {
        if (id !== manifest) {
          write();
          manifest = id;
          lines = [];
        }
        lines.push(wasteLine(number, values));
      }
      write();
    }
  }

  /** The touched manifests' line sets replaced, and each value's totals moved by the difference. */
  private lineSets(ids: string): void {
    const shift = (sign: 1 | -1) => this.sql(lineSetTotalsShiftSql(sign)).run(ids);
    shift(-1);
    this.sql(`DELETE FROM manifest_line_sets WHERE manifest_id IN (${IDS})`).run(ids);
    this.sql(BATCH_LINE_SETS_SQL).run(ids);
    shift(1);
    this.sql(`DELETE FROM manifest_line_set_totals WHERE ${LINE_SET_TOTAL_COLUMNS.shipped_count} <= 0`).run();
  }

  /**
   * Replaces the search index entries of these rows whose search fields changed: the old entry out (as read
   * before), the new one in. A row that only gained waste lines keeps its entry: trigram index writes are
   * the dearest part of an import batch (bench:import).
   */
  private search(table: 'manifests' | 'generators', fields: readonly string[], ids: Iterable<number>): void {
    const index = `${table}_search`;
    const remove = this.sql(
      `INSERT INTO ${index} (${index}, rowid, ${fields.join(', ')}) VALUES ('delete', ?, ${fields.map(() => '?').join(', ')})`,
    );
    const insert = this.sql(
      `INSERT INTO ${index} (rowid, ${fields.join(', ')}) VALUES (?, ${fields.map(() => '?').join(', ')})`,
    );
    const old = this.oldSearch[table];
    const list = [...ids];
    const rows =
      list.length === 0
        ? []
        : (this.sql(`SELECT id, ${fields.join(', ')} FROM ${table} WHERE id IN (${IDS})`)
            .raw()
            .all(JSON.stringify(list)) as [number, ...unknown[]][]);
    for (const [id, ...now] of rows) {
      const before = old.get(id);
      if (before && before.every((value, position) => value === now[position])) continue;
      if (before) remove.run(id, ...before);
      insert.run(id, ...now);
    }
    old.clear();
  }
}
