/**
 * searchKey over a table's FTS5 trigram index (server/src/db/search-index.ts), turned into a WHERE clause
 * shaped by how many rows match, because SQLite cannot tell ahead of time:
 * - few matches: the ids are handed to SQLite as a list, which reads just those rows and sorts them;
 * - many matches: the ids are kept in a set that a SQL function tests, so SQLite walks the sort index and
 *   stops as soon as the page is full, instead of materialising and sorting tens of thousands of rows.
 * Either way the match count is known, so a search alone needs no COUNT query.
 */
import type { Database } from 'better-sqlite3';
import type { StatementCache } from '../db/statements.ts';
import { TRIGRAM_MIN_LENGTH, trigramPhrase } from '../db/search-index.ts';

/** Above this many matches the sort-index walk beats reading and sorting the matching rows. */
export const SEARCH_LIST_LIMIT = 5000;

export interface SearchClause {
  sql: string;
  params: (string | number)[];
  /** Rows matching the search alone, when the index answered it. */
  matches?: number;
  /** Their ids, when the index answered it. */
  ids?: readonly number[];
}

export class TrigramSearch {
  private readonly statements: StatementCache;
  private readonly table: string;
  private readonly fields: readonly string[];
  private readonly hitFunction: string;
  private readonly listLimit: number;
  /** The ids matching the current request's key; requests run one at a time on this connection. */
  private hits: ReadonlySet<number> = new Set();

  /** One per connection: the hit function is registered on it under the table's name. */
  constructor(
    db: Database,
    statements: StatementCache,
    table: string,
    fields: readonly string[],
    listLimit = SEARCH_LIST_LIMIT,
  ) {
    this.listLimit = listLimit;
    this.statements = statements;
    this.table = table;
    this.fields = fields;
    this.hitFunction = `${table}_search_hit`;
    db.function(this.hitFunction, { deterministic: false, varargs: false }, (id: unknown) =>
      this.hits.has(Number(id)) ? 1 : 0,
    );
  }

  /**
   * `totals` sums every matching row, so it always takes the id list: testing a set row by row would read
   * the whole table.
   */
  clause(key: string, purpose: 'page' | 'totals' = 'page'): SearchClause | undefined {
    if (key === '') return undefined;
    // Trigrams are of characters, not UTF-16 units: an emoji is one character.
    if ([...key].length < TRIGRAM_MIN_LENGTH) return this.scan(key);
    const ids = this.statements
      .get(`SELECT rowid FROM ${this.table}_search WHERE ${this.table}_search MATCH ?`)
      .pluck()
      .all(trigramPhrase(key)) as number[];
    if (ids.length <= this.listLimit || purpose === 'totals') {
      return {
        sql: 't.id IN (SELECT value FROM json_each(?))',
        params: [JSON.stringify(ids)],
        matches: ids.length,
        ids,
      };
    }
    this.hits = new Set(ids);
    return { sql: `${this.hitFunction}(t.id)`, params: [], matches: ids.length, ids };
  }

  /** Too short for trigrams: a scan of the search fields, case-insensitive for ASCII as SQLite's LIKE. */
  private scan(key: string): SearchClause {
    const pattern = `%${key.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    return {
      sql: `(${this.fields.map((field) => `t.${field} LIKE ? ESCAPE '\\'`).join(' OR ')})`,
      params: this.fields.map(() => pattern),
    };
  }
}
