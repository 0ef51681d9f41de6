/**
 * Filter-box lookups (spec 2.7, 4.3, 4.7; docs/api.md), as shared/query/lookup.ts defines them: distinct
 * values sorted by display text, 50 a page, 1-based pages, `more` exactly when a further page exists,
 * `search` a case-insensitive substring of the display text (folded by shared/query/search.ts).
 *
 * A search of three characters or more is answered from the lookup index (db/lookup-index.ts). Shorter
 * ones are scanned in lookup order from an index, stopping as soon as the page is full: the manifest
 * numbers and EPA handler ids (one per row) from their own column's index, every other list from its
 * entries in `lookup_values` (ordered by text). Nothing is held in memory, so a lookup answers from the
 * data as last committed, an import's included. A scan reads the whole list for a rare key, so the server
 * runs it in its read pool (routes/tracker.ts) unless the first SCAN_WINDOW values in order already hold
 * the page (`pageWithoutScan`): a common key such as "a" is then answered at once, with bounded work, on
 * the main thread.
 */
import { LIMITS, type LookupResult } from '../../../shared/api/index.ts';
import type { LookupEntry } from '../../../shared/query/lookup.ts';
import { lookupSearchTable } from '../db/lookup-index.ts';
import type { LookupList } from '../db/lookup-lists.ts';
import { TRIGRAM_MIN_LENGTH, trigramPhrase } from '../db/search-index.ts';
import type { StatementCache } from '../db/statements.ts';
import { foldedContains } from './trigram-search.ts';

export interface LookupSource {
  page(search: string, page: number): LookupResult;
}

const PAGE = LIMITS.lookupPageSize;

/** Keys shorter than this cannot use the trigram index. */
const INDEXED_KEY_LENGTH = TRIGRAM_MIN_LENGTH;

/**
 * How many values, in lookup order, a short key's page is looked for among before the whole table is left
 * to a scan off the main thread: well under a millisecond of reading an index on the main thread.
 */
export const SCAN_WINDOW = 2000;

/**
 * A lookup answered from its list's table in the lookup index (db/lookup-index.ts) for keys of three
 * characters or more, walking the rowids in lookup order until the page is full. Shorter keys go to a scan
 * in lookup order (`scans` says when it may read the whole list, so that the caller can run it off the
 * main thread).
 */
export class IndexedLookup implements LookupSource {
  private readonly statements: StatementCache;
  private readonly list: string;
  private readonly table: string;
  private readonly short: ScanLookup;

  /** `list`: the list's name in the lookup index ("<table>.<field>"). */
  constructor(statements: StatementCache, list: string, short: ScanLookup) {
    this.statements = statements;
    this.list = list;
    this.table = lookupSearchTable(list);
    this.short = short;
  }

  /** True when this search is answered by scanning a whole table rather than from an index or memory. */
  scans(search: string): boolean {
    return search !== '' && [...search].length < INDEXED_KEY_LENGTH;
  }

  /**
   * The page, if it can be answered without scanning a whole list: from the index, or from the first
   * SCAN_WINDOW values when they hold the page and a match after it. Undefined when only a scan can answer.
   */
  pageWithoutScan(search: string, page: number): LookupResult | undefined {
    if (this.scans(search)) return this.short.pageWithin(SCAN_WINDOW, search, page);
    return this.page(search, page);
  }

  page(search: string, page: number): LookupResult {
    if ([...search].length < INDEXED_KEY_LENGTH) return this.short.page(search, page);
    // Rowids 1, 2, … are the list's lookup order, so the matches come in order and the walk stops once the
    // page is full; a list an import has added to since it was written in order sorts its matches instead.
    const ordered = this.statements
      .get('SELECT ordered FROM lookup_lists WHERE list = ?')
      .pluck()
      .get(this.list);
    const entries = this.statements
      .get(
        `SELECT value, text FROM ${this.table} WHERE ${this.table} MATCH ?
         ORDER BY ${ordered === 1 ? 'rowid' : 'text'} LIMIT ? OFFSET ?`,
      )
      .all(trigramPhrase(search), PAGE + 1, (page - 1) * PAGE) as LookupEntry[];
    return { results: entries.slice(0, PAGE), pagination: { more: entries.length > PAGE } };
  }
}

/**
 * Where a list's values are read in lookup order by a scan: a table, its value and text columns (equal
 * for plain lists), and the rows of the list, each read from an index in text order.
 */
export interface ScanSource {
  table: string;
  value: string;
  text: string;
  /** `column = ?` restricting the table to the list, and its value. */
  where?: { column: string; value: string };
}

/**
 * A scan of a list in lookup order, for keys too short for the lookup index. The index is read in order
 * and stops once the page is full, which is quick for common substrings; rare ones read the whole list.
 */
export class ScanLookup implements LookupSource {
  private readonly statements: StatementCache;
  private readonly source: ScanSource;
  private readonly restrict: string;
  private readonly params: string[];

  constructor(statements: StatementCache, source: ScanSource) {
    this.statements = statements;
    this.source = source;
    this.restrict = source.where ? `${source.where.column} = ?` : `${source.text} <> ''`;
    this.params = source.where ? [source.where.value] : [];
  }

  page(search: string, page: number): LookupResult {
    const { table, value, text } = this.source;
    const match = search === '' ? { sql: '1', params: [] } : foldedContains(text, search);
    const entries = this.statements
      .get(
        `SELECT ${value} AS value, ${text} AS text FROM ${table} WHERE ${this.restrict} AND ${match.sql}
         ORDER BY ${text} LIMIT ? OFFSET ?`,
      )
      .all(...this.params, ...match.params, PAGE + 1, (page - 1) * PAGE) as LookupEntry[];
    return pageOf(entries);
  }

  /**
   * The page as `page` answers it, read from the first `window` values in order only: undefined unless they
   * hold the whole page and one match after it (which both fills the page and settles `more`).
   */
  pageWithin(window: number, search: string, page: number): LookupResult | undefined {
    const { table, value, text } = this.source;
    const match = foldedContains('text', search);
    const entries = this.statements
      .get(
        `SELECT value, text FROM (SELECT ${value} AS value, ${text} AS text FROM ${table} WHERE ${this.restrict}
                                  ORDER BY ${text} LIMIT ?)
         WHERE ${match.sql} ORDER BY text LIMIT ? OFFSET ?`,
      )
      .all(...this.params, window, ...match.params, PAGE + 1, (page - 1) * PAGE) as LookupEntry[];
    return entries.length > PAGE ? pageOf(entries) : undefined;
  }
}

/** A lookup page from up to PAGE + 1 entries in order: the extra one only says that a further page exists. */
function pageOf(entries: LookupEntry[]): LookupResult {
  return { results: entries.slice(0, PAGE), pagination: { more: entries.length > PAGE } };
}

/**
 * One table's lookups over the lookup index. `ownColumn` names the lists of one value per row, each with
 * the indexed column its short keys scan; the others scan their entries in `lookup_values`.
 */
export function indexedLookups<Field extends string>(
  statements: StatementCache,
  table: string,
  lists: Record<Field, LookupList>,
  ownColumn: Partial<Record<Field, string>>,
): Record<Field, IndexedLookup> {
  const lookups = {} as Record<Field, IndexedLookup>;
  for (const field of Object.keys(lists) as Field[]) {
    const column = ownColumn[field];
    const name = `${table}.${field}`;
    const source: ScanSource =
      column === undefined
        ? { table: 'lookup_values', value: 'value', text: 'text', where: { column: 'list', value: name } }
        : { table, value: column, text: column };
    lookups[field] = new IndexedLookup(statements, name, new ScanLookup(statements, source));
  }
  return lookups;
}
