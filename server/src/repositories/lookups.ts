/**
 * Filter-box lookups (spec 2.7, 4.3, 4.7; docs/api.md), as shared/query/lookup.ts defines them: distinct
 * values sorted by display text, 50 a page, 1-based pages, `more` exactly when a further page exists,
 * `search` a case-insensitive substring of the display text (folded by shared/query/search.ts).
 *
 * A search of three characters or more is answered from the lookup index (db/lookup-index.ts). Shorter
 * ones: most lists hold at most ~100k distinct values, read once into memory (the dataset does not change
 * while it is served) and searched there, stopping as soon as the page is full; the manifest numbers and
 * EPA handler ids (one per row) are scanned in SQLite in their index's order. That scan reads the whole
 * index for a rare key, so the server runs it in its read pool (routes/tracker.ts) unless the first
 * SCAN_WINDOW values in order already hold the page (`pageWithoutScan`): a common key such as "a" is then
 * answered at once, with bounded work, on the main thread.
 */
import type { Database } from 'better-sqlite3';
import { LIMITS, type LookupResult } from '../../../shared/api/index.ts';
import { lookupEntries, lookupPage, type LookupEntry } from '../../../shared/query/lookup.ts';
import { foldCase } from '../../../shared/query/search.ts';
import { lookupSearchTable } from '../db/lookup-index.ts';
import { loadList, type LookupList } from '../db/lookup-lists.ts';
import { TRIGRAM_MIN_LENGTH, trigramPhrase } from '../db/search-index.ts';
import type { StatementCache } from '../db/statements.ts';
import { foldedContains } from './trigram-search.ts';

export interface LookupSource {
  page(search: string, page: number): LookupResult;
}

interface Entry {
  value: string;
  text: string;
  folded: string;
}

const PAGE = LIMITS.lookupPageSize;

/** A lookup over a distinct value list held in memory. */
export class MemoryLookup implements LookupSource {
  private entries: Entry[] | undefined;
  private readonly load: () => { value: string; text: string }[];

  /** `load` returns distinct values; they are sorted by text here. */
  constructor(load: () => { value: string; text: string }[]) {
    this.load = load;
  }

  /** Reads the list now rather than on the first request. */
  warm(): void {
    this.list();
  }

  page(search: string, page: number): LookupResult {
    return lookupPage(this.list(), search, page, (entry) => entry.folded);
  }

  private list(): Entry[] {
    this.entries ??= lookupEntries(this.load().map((item) => ({ ...item, folded: foldCase(item.text) })));
    return this.entries;
  }
}

/** Keys shorter than this cannot use the trigram index. */
const INDEXED_KEY_LENGTH = TRIGRAM_MIN_LENGTH;

/**
 * How many values, in lookup order, a short key's page is looked for among before the whole table is left
 * to a scan off the main thread: well under a millisecond of reading an index on the main thread.
 */
export const SCAN_WINDOW = 2000;

/**
 * A lookup answered from its list's table in the lookup index (db/lookup-index.ts) for keys of three
 * characters or more, walking the rowids in lookup order until the page is full. Shorter keys go to the
 * list in memory or, for a list too long to hold, a scan of its table's index (`scans` says which, so that
 * the caller can run that off the main thread).
 */
export class IndexedLookup implements LookupSource {
  private readonly statements: StatementCache;
  private readonly list: string;
  private readonly table: string;
  private readonly short: MemoryLookup | ColumnScanLookup;
  private size: number | undefined;

  /** `list`: the list's name in the lookup index ("<table>.<field>"). */
  constructor(statements: StatementCache, list: string, short: MemoryLookup | ColumnScanLookup) {
    this.statements = statements;
    this.list = list;
    this.table = lookupSearchTable(list);
    this.short = short;
  }

  warm(): void {
    if (this.short instanceof MemoryLookup) this.short.warm();
  }

  /** True when this search is answered by scanning a whole table rather than from an index or memory. */
  scans(search: string): boolean {
    return this.short instanceof ColumnScanLookup && search !== '' && [...search].length < INDEXED_KEY_LENGTH;
  }

  /**
   * The page, if it can be answered without scanning a whole table: from the index, from memory, or from
   * the first SCAN_WINDOW values of a list too long to hold when they hold the page and a match after it.
   * Undefined when only a scan can answer.
   */
  pageWithoutScan(search: string, page: number): LookupResult | undefined {
    if (this.short instanceof ColumnScanLookup && this.scans(search)) {
      return this.short.pageWithin(SCAN_WINDOW, search, page);
    }
    return this.page(search, page);
  }

  page(search: string, page: number): LookupResult {
    const skip = (page - 1) * PAGE;
    if ([...search].length < INDEXED_KEY_LENGTH) {
      if (search !== '' || this.short instanceof MemoryLookup) return this.short.page(search, page);
      // Rowids 1, 2, … in lookup order: a page is a rowid range, read row by row because FTS5 scans its
      // whole table for a range but seeks for one rowid.
      const size = this.listSize();
      const read = this.statements.get(`SELECT value, text FROM ${this.table} WHERE rowid = ?`);
      const entries: LookupEntry[] = [];
      for (let rowid = skip + 1; rowid <= Math.min(size, skip + PAGE); rowid += 1) {
        entries.push(read.get(rowid) as LookupEntry);
      }
      return { results: entries, pagination: { more: skip + PAGE < size } };
    }
    const entries = this.statements
      .get(
        `SELECT value, text FROM ${this.table} WHERE ${this.table} MATCH ? ORDER BY rowid LIMIT ? OFFSET ?`,
      )
      .all(trigramPhrase(search), PAGE + 1, skip) as LookupEntry[];
    return { results: entries.slice(0, PAGE), pagination: { more: entries.length > PAGE } };
  }

  private listSize(): number {
    this.size ??=
      (this.statements.get('SELECT size FROM lookup_lists WHERE list = ?').pluck().get(this.list) as
        number | undefined) ?? 0;
    return this.size;
  }
}

/**
 * A scan of a unique, indexed column too large to hold in memory, for keys too short for the lookup index.
 * The column's index is read in order and stops once the page is full, which is quick for common
 * substrings; rare ones read the whole index once.
 */
export class ColumnScanLookup implements LookupSource {
  private readonly statements: StatementCache;
  private readonly table: string;
  private readonly column: string;

  constructor(statements: StatementCache, table: string, column: string) {
    this.statements = statements;
    this.table = table;
    this.column = column;
  }

  page(search: string, page: number): LookupResult {
    const match = foldedContains(this.column, search);
    const values = this.statements
      .get(
        `SELECT ${this.column} FROM ${this.table} WHERE ${match.sql} ORDER BY ${this.column} LIMIT ? OFFSET ?`,
      )
      .pluck()
      .all(...match.params, PAGE + 1, (page - 1) * PAGE) as string[];
    return pageOf(values);
  }

  /**
   * The page as `page` answers it, read from the first `window` values in order only: undefined unless they
   * hold the whole page and one match after it (which both fills the page and settles `more`).
   */
  pageWithin(window: number, search: string, page: number): LookupResult | undefined {
    const match = foldedContains(this.column, search);
    const values = this.statements
      .get(
        `SELECT ${this.column} FROM (SELECT ${this.column} FROM ${this.table} ORDER BY ${this.column} LIMIT ?)
         WHERE ${match.sql} ORDER BY ${this.column} LIMIT ? OFFSET ?`,
      )
      .pluck()
      .all(window, ...match.params, PAGE + 1, (page - 1) * PAGE) as string[];
    return values.length > PAGE ? pageOf(values) : undefined;
  }
}

/** A lookup page from up to PAGE + 1 values in order: the extra one only says that a further page exists. */
function pageOf(values: string[]): LookupResult {
  return {
    results: values.slice(0, PAGE).map((value) => ({ value, text: value })),
    pagination: { more: values.length > PAGE },
  };
}

/**
 * One table's lookups over the lookup index. `scanned` names the lists too long to hold in memory, each
 * with the indexed column its short keys scan; the others are read into memory on first use.
 */
export function indexedLookups<Field extends string>(
  db: Database,
  statements: StatementCache,
  table: string,
  lists: Record<Field, LookupList>,
  scanned: Partial<Record<Field, string>>,
): Record<Field, IndexedLookup> {
  const lookups = {} as Record<Field, IndexedLookup>;
  for (const field of Object.keys(lists) as Field[]) {
    const column = scanned[field];
    const short =
      column === undefined
        ? new MemoryLookup(() => loadList(lists[field])(db))
        : new ColumnScanLookup(statements, table, column);
    lookups[field] = new IndexedLookup(statements, `${table}.${field}`, short);
  }
  return lookups;
}
