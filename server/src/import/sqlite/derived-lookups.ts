/**
 * The lookup list values an import batch may have added or removed (derived.ts): noted from the rows and
 * sets the batch changed, before and after, then each put in or taken out of its list as its source now
 * holds it (db/lookup-index.ts).
 */
import type { Statement } from 'better-sqlite3';
import { ONE_PER_ROW_LISTS, addLookupEntry, listedTexts, removeLookupEntry } from '../../db/lookup-index.ts';
import { entryOf, entrySql, lookupLists, type LookupList } from '../../db/lookup-lists.ts';
import type { StatementCache } from '../../db/statements.ts';
import { IDS } from './derived-sql.ts';

/** A list's values that a batch may have added or removed. */
type Candidates = Map<string, Set<string>>;

/** Which lists each table's columns feed, for the candidates of a touched row (one-per-row lists apart). */
const LISTS_OF = new Map(
  (['manifests', 'generators'] as const).map((from) => [
    from,
    lookupLists().filter(([name, list]) => list.from === from && !ONE_PER_ROW_LISTS.has(name)),
  ]),
);

export function listsOf(from: 'manifests' | 'generators'): [string, LookupList][] {
  return LISTS_OF.get(from) ?? [];
}

export class LookupCandidates {
  private readonly statements: StatementCache;
  private readonly candidates: Candidates = new Map();
  /**
   * Of the candidates, the values the rows or sets hold after the batch: such a value is in its list, and
   * where a list shows the value alone, being listed is all there is to check (no read of its source).
   */
  private readonly held: Candidates = new Map();

  constructor(statements: StatementCache) {
    this.statements = statements;
  }

  private sql(text: string): Statement {
    return this.statements.get(text);
  }

  /** A value a list may have gained or lost; `held` when a row or set holds it after the batch. */
  add(list: string, value: unknown, held = false): void {
    if (typeof value !== 'string' || value === '') return;
    for (const candidates of held ? [this.candidates, this.held] : [this.candidates]) {
      let values = candidates.get(list);
      if (!values) {
        values = new Set();
        candidates.set(list, values);
      }
      values.add(value);
    }
  }

  /**
   * The values the set-fed lists hold for these manifests' line sets and generators' sets, read before
   * they are rebuilt and after (`held`).
   */
  noteSetValues(
    manifestCount: number,
    manifests: string,
    generatorCount: number,
    generators: string,
    held: boolean,
  ): void {
    for (const [name, list] of lookupLists()) {
      const ids = list.from === 'manifest_line_sets' ? manifests : generators;
      const key = list.from === 'manifest_line_sets' ? 'manifest_id' : 'generator_id';
      if (list.from === 'manifests' || list.from === 'generators') continue;
      if ((key === 'manifest_id' ? manifestCount : generatorCount) === 0) continue;
      const values = this.sql(
        `SELECT DISTINCT ${list.column} FROM ${list.from} WHERE ${key} IN (${IDS})${list.where ? ` AND ${list.where}` : ''}`,
      )
        .pluck()
        .all(ids) as string[];
      for (const value of values) this.add(name, value, held);
    }
  }
  noteRowValues(table: 'manifests' | 'generators', ids: Iterable<number>): void {
    const lists = listsOf(table);
    const list = [...ids];
    if (list.length === 0) return;
    const rows = this.sql(
      `SELECT ${lists.map(([, each]) => each.column).join(', ')} FROM ${table} WHERE id IN (${IDS})`,
    )
      .raw()
      .all(JSON.stringify(list)) as unknown[][];
    for (const row of rows) lists.forEach(([name], index) => this.add(name, row[index], true));
  }

  /** Each candidate value in or out of its lookup list, as its source now holds it. */
  apply(): void {
    const lists = new Map(lookupLists());
    for (const [name, values] of this.candidates) {
      const list = lists.get(name);
      if (!list) continue;
      const source = this.sql(entrySql(list)).raw();
      const held = list.description ? undefined : this.held.get(name);
      const listed = listedTexts(this.statements, name, values);
      for (const value of values) {
        const current = listed.get(value);
        if (held?.has(value)) {
          if (current === value) continue;
          if (current !== undefined) removeLookupEntry(this.statements, name, value);
          addLookupEntry(this.statements, name, { value, text: value });
          continue;
        }
        const row = source.get(value) as [string, string | null] | undefined;
        const entry = row ? entryOf(row) : undefined;
        if (entry?.text === current) continue;
        if (current !== undefined) removeLookupEntry(this.statements, name, value);
        if (entry) addLookupEntry(this.statements, name, entry);
      }
    }
    this.candidates.clear();
    this.held.clear();
  }
}
