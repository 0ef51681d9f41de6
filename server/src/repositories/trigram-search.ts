/**
 * searchKey over a table's FTS5 trigram index (server/src/db/search-index.ts), turned into a WHERE clause
 * shaped by how many rows match, because SQLite cannot tell ahead of time:
 * - few matches: the ids are handed to SQLite as a list, which reads just those rows and sorts them;
 * - many matches: the ids are kept in a set that a SQL function tests, so SQLite walks the sort index and
 *   stops as soon as the page is full, instead of materialising and sorting tens of thousands of rows.
 * Either way the match count is known, so a search alone needs no COUNT query.
 */
import type { Database } from 'better-sqlite3';
import { asciiFoldSuffices, foldCase } from '../../../shared/query/search.ts';
import { SEARCH_FOLD_FUNCTION } from '../db/open.ts';
import type { SearchClause } from '../db/sqlite-query.ts';
import type { StatementCache } from '../db/statements.ts';
import { TRIGRAM_MIN_LENGTH, trigramPhrase } from '../db/search-index.ts';

/** Above this many matches the sort-index walk beats reading and sorting the matching rows. */
export const SEARCH_LIST_LIMIT = 5000;

export class TrigramSearch {
  private readonly statements: StatementCache;
  private readonly table: string;
  private readonly fields: readonly string[];
  private readonly hitFunction: string;
  private readonly listLimit: number;
  /**
   * The ids matching the current request's key, as one byte per id (cheaper to fill than a Set of tens of
   * thousands); requests run one at a time on this connection. `marked` lists the ids to clear next time.
   */
  private hits = new Uint8Array(0);
  private marked: readonly number[] = [];

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
      this.hits[Number(id)] === 1 ? 1 : 0,
    );
  }

  /** True when `key` is too short for the index, so that a page or totals for it scan the table. */
  scans(key: string): boolean {
    return key !== '' && [...key].length < TRIGRAM_MIN_LENGTH;
  }

  /**
   * `totals` sums every matching row, so it always takes the id list: testing a set row by row would read
   * the whole table.
   */
  clause(key: string, purpose: 'page' | 'totals' = 'page'): SearchClause | undefined {
    if (key === '') return undefined;
    // Trigrams are of characters, not UTF-16 units: an emoji is one character.
    if (this.scans(key)) return this.scan(key);
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
    this.mark(ids);
    return { sql: `${this.hitFunction}(t.id)`, params: [], matches: ids.length, ids };
  }

  private mark(ids: readonly number[]): void {
    for (const id of this.marked) this.hits[id] = 0;
    const size = ids.reduce((largest, id) => Math.max(largest, id), 0) + 1;
    if (size > this.hits.length) this.hits = new Uint8Array(Math.max(size, this.hits.length * 2));
    for (const id of ids) this.hits[id] = 1;
    this.marked = ids;
  }

  /** Too short for trigrams: a scan of the search fields, folded as the index folds. */
  private scan(key: string): SearchClause {
    const clauses = this.fields.map((field) => foldedContains(`t.${field}`, key));
    return {
      sql: `(${clauses.map((clause) => clause.sql).join(' OR ')})`,
      params: clauses.flatMap((clause) => clause.params),
    };
  }
}

/**
 * SQL true when the text `column` holds `key` by the search rule (shared/query/search.ts), for a scan.
 * SQLite's LIKE folds A–Z only: given the folded key it finds exactly the rule's rows for most keys
 * (asciiFoldSuffices), and for any key never a row the rule would not (folding is per code point, and
 * folding twice changes nothing); folding the key first also lets a key such as the Kelvin sign, which
 * folds to ASCII, find the ASCII rows it should. For the other keys a value holding non-ASCII text (more
 * UTF-8 bytes than characters: a C loop, 4× cheaper than a GLOB for it over a million manifests) is also
 * folded in full, by a function call only for those values.
 */
export function foldedContains(column: string, key: string): { sql: string; params: string[] } {
  const folded = foldCase(key);
  const like = `${column} LIKE ? ESCAPE '\\'`;
  const pattern = `%${folded.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  if (asciiFoldSuffices(key)) return { sql: like, params: [pattern] };
  return {
    sql: `(${like} OR (length(${column}) < octet_length(${column})
             AND instr(${SEARCH_FOLD_FUNCTION}(${column}), ?) > 0))`,
    params: [pattern, folded],
  };
}
