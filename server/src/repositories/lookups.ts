/**
 * Filter-box lookups (spec 2.7, 4.3, 4.7; docs/api.md), as shared/query/lookup.ts defines them: distinct
 * values sorted by display text, 50 a page, 1-based pages, `more` exactly when a further page exists,
 * `search` a case-insensitive substring of the display text (folded by shared/query/search.ts).
 *
 * Most lists hold at most ~100k distinct values: they are read once into memory (the dataset does not change
 * while it is served) and searched there, stopping as soon as the page is full. The manifest numbers (one per
 * manifest) stay in SQLite and are read in order from their index.
 */
import type { LookupResult } from '../../../shared/api/index.ts';
import { LOOKUP_PAGE_SIZE, lookupEntries, lookupPage } from '../../../shared/query/lookup.ts';
import { foldCase } from '../../../shared/query/search.ts';
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

const PAGE = LOOKUP_PAGE_SIZE;

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

/** Plain values from one SQL column: value and text are equal. */
export function columnLookup(statements: StatementCache, sql: string): MemoryLookup {
  return new MemoryLookup(() =>
    (statements.get(sql).pluck().all() as string[]).map((value) => ({ value, text: value })),
  );
}

/**
 * A lookup over a unique, indexed column too large to hold in memory. The index is read in order and
 * stops once the page is full, which is quick for common substrings; rare ones read the whole index once.
 */
export class IndexedColumnLookup implements LookupSource {
  private readonly statements: StatementCache;
  private readonly table: string;
  private readonly column: string;

  constructor(statements: StatementCache, table: string, column: string) {
    this.statements = statements;
    this.table = table;
    this.column = column;
  }

  page(search: string, page: number): LookupResult {
    const match = search === '' ? undefined : foldedContains(this.column, search);
    const where = match ? `WHERE ${match.sql}` : '';
    const params: (string | number)[] = match ? match.params : [];
    const values = this.statements
      .get(`SELECT ${this.column} FROM ${this.table} ${where} ORDER BY ${this.column} LIMIT ? OFFSET ?`)
      .pluck()
      .all(...params, PAGE + 1, (page - 1) * PAGE) as string[];
    const more = values.length > PAGE;
    return {
      results: values.slice(0, PAGE).map((value) => ({ value, text: value })),
      pagination: { more },
    };
  }
}
