/**
 * One page of a filtered, sorted table, and its total. Shared by the generators and manifests lists.
 *
 * Two steps: the page's ids come from the sort index alone (LIMIT/OFFSET over an index skips entries
 * without reading rows), then only those rows are read. Ties are broken by the table's public unique key
 * in the sort's direction (shared/query/definition.ts), so pages are stable, cover every row exactly once, and
 * come in the order any engine holding the same rows computes.
 *
 * Deep pages of the whole table start from a bookmark: the sort key of every BOOKMARK_STEP-th row in that
 * order, noted as pages reach it. Skipping half a million index entries costs ~3.4 ms; seeking to the
 * nearest bookmark and skipping fewer than BOOKMARK_STEP costs ~0.05 ms.
 *
 * A filtered or searched list cannot step from bookmark to bookmark cheaply (each step tests the filter on
 * every row it passes), but whoever reads it deep reads it page after page (an export, a pack download, a
 * grid scrolled down): each page served notes the sort key of its last row, and the next page seeks past
 * that key instead of skipping every row before it. Unnoted, a deep page of a 59,574-row search cost 158 ms
 * against 15 ms for the first; from the page before's bookmark it costs about what the first does.
 *
 * Bookmarks of both kinds and value counts are dropped when the data changes (an import commits,
 * `dataChanged`) and noted again as requests need them.
 */
import type { Sort } from '../../../shared/query/definition.ts';
import type { Where } from '../db/sqlite-query.ts';
import type { StatementCache } from '../db/statements.ts';
import { tallyRows } from '../db/tallies.ts';

export interface PageRequest {
  where: Where;
  sort: Sort<string>;
  page: number;
  pageSize: number;
  /** Columns to read for each row (the id is always read). */
  columns: readonly string[];
  /**
   * The filters and search as one key, for a filtered or searched list: pages of the same query in the same
   * order share the bookmarks their pages noted. Without it, a filtered page skips every row before it.
   */
  query?: string;
}

export type Row = Record<string, unknown> & { id: number };

/** Rows between two bookmarks of one order. */
export const BOOKMARK_STEP = 1000;

/** Filtered queries whose bookmarks are kept, the least recently read dropped first. */
const QUERIES_KEPT = 64;

/** Bookmarks kept for one filtered query: 5,000,000 rows in pages of 500. */
const MARKS_PER_QUERY = 10_000;

/** The sort key of a row: its sort field's value and its unique key (just the key when sorting by it). */
type SortKey = unknown[];

export class PagedList {
  private readonly statements: StatementCache;
  private readonly table: string;
  private readonly key: string;
  /** Rows holding each value of a filter column, counted as requests ask, until the data changes. */
  private readonly counts = new Map<string, Map<string, number>>();
  /** Per "<field> <direction>" of the unfiltered table: the key of row k × BOOKMARK_STEP at index k. */
  private readonly bookmarks = new Map<string, SortKey[]>();
  /**
   * Per filtered query and order, least recently read first: the sort key of the row before each offset a
   * page ended at (so the page from that offset starts just past it).
   */
  private readonly continuations = new Map<string, Map<number, SortKey>>();

  /** `key`: the table's public unique key column, which breaks ties (indexed with every sort field). */
  constructor(statements: StatementCache, table: string, key: string) {
    this.statements = statements;
    this.table = table;
    this.key = key;
  }

  count(where: Where): number {
    if (where.count !== undefined) return where.count;
    if (where.countOf) return this.valueCount(where.countOf.column, where.countOf.value);
    if (where.countQuery) {
      return this.statements
        .get(where.countQuery.sql)
        .pluck()
        .get(...where.countQuery.params) as number;
    }
    // The table's row count is a tally kept current by every commit (db/tallies.ts).
    if (where.unfiltered)
      return tallyRows(this.statements, this.table === 'manifests' ? 'manifests' : 'generators');
    return this.statements
      .get(`SELECT count(*) FROM ${this.table} t ${where.sql}`)
      .pluck()
      .get(...where.params) as number;
  }

  /**
   * How many rows hold one value of a filter column, counted on its index the first time it is asked and
   * remembered until the data changes. Picking one value of one filter is the commonest request, and its
   * count is then a map look-up instead of an index scan (0.55 ms for one state's generators, the largest
   * part of that request).
   */
  valueCount(column: string, value: string): number {
    let counts = this.counts.get(column);
    if (!counts) {
      counts = new Map();
      this.counts.set(column, counts);
    }
    let count = counts.get(value);
    if (count === undefined) {
      count = this.statements
        .get(`SELECT count(*) FROM ${this.table} t WHERE ${column} = ?`)
        .pluck()
        .get(value) as number;
      counts.set(value, count);
    }
    return count;
  }

  /** Forgets what depends on the rows (value counts, bookmarks): another connection has committed. */
  dataChanged(): void {
    this.counts.clear();
    this.bookmarks.clear();
    this.continuations.clear();
  }

  page(request: PageRequest): Row[] {
    return this.rows(this.pageIds(request), request.columns);
  }

  /** The ids of one page, in order, read from the sort index. */
  pageIds(request: Omit<PageRequest, 'columns'>): number[] {
    const { where, sort, page, pageSize } = request;
    const offset = page * pageSize;
    if (where.unfiltered && offset >= BOOKMARK_STEP) {
      const mark = this.bookmark(sort, Math.floor(offset / BOOKMARK_STEP));
      if (!mark) return [];
      return this.fromKey(sort, 't.id')
        .pluck()
        .all(...mark, pageSize, offset % BOOKMARK_STEP) as number[];
    }
    if (!where.unfiltered && request.query !== undefined) return this.continuedIds(request, request.query);
    return this.statements
      .get(`SELECT t.id FROM ${this.table} t ${where.sql} ${this.orderBy(sort)} LIMIT ? OFFSET ?`)
      .pluck()
      .all(...where.params, pageSize, offset) as number[];
  }

  /**
   * The key of row `index` × BOOKMARK_STEP of the whole table in this order, or undefined past the end.
   * Missing bookmarks up to it are noted on the way, each one step from the last.
   */
  private bookmark(sort: Sort<string>, index: number): SortKey | undefined {
    const name = `${sort.field} ${sort.direction}`;
    let marks = this.bookmarks.get(name);
    if (!marks) {
      const first = this.statements
        .get(`SELECT ${this.keyColumns(sort)} FROM ${this.table} t ${this.orderBy(sort)} LIMIT 1`)
        .raw()
        .get() as SortKey | undefined;
      marks = first ? [first] : [];
      this.bookmarks.set(name, marks);
    }
    const step = this.fromKey(sort, this.keyColumns(sort)).raw();
    let last = marks.at(-1);
    while (last && marks.length <= index) {
      last = step.get(...last, 1, BOOKMARK_STEP) as SortKey | undefined;
      if (last) marks.push(last);
    }
    return marks[index];
  }

  /**
   * A filtered page from the nearest bookmark before it that an earlier page of the same query noted (the
   * page before, when the list is read in turn), noting this page's own end for the page after.
   */
  private continuedIds(request: Omit<PageRequest, 'columns'>, query: string): number[] {
    const { where, sort, page, pageSize } = request;
    const offset = page * pageSize;
    const marks = this.continuationsOf(`${sort.field} ${sort.direction} ${query}`);
    let from = 0;
    let after = marks.get(offset);
    if (after) from = offset;
    else {
      for (const [at, key] of marks) {
        if (at <= offset && at > from) {
          from = at;
          after = key;
        }
      }
    }
    const columns = `t.id, ${this.keyColumns(sort)}`;
    const rows = (
      after
        ? this.statements
            .get(
              `SELECT ${columns} FROM ${this.table} t
               ${where.sql ? `${where.sql} AND` : 'WHERE'} ${this.pastKey(sort)}
               ${this.orderBy(sort)} LIMIT ? OFFSET ?`,
            )
            .raw()
            .all(...where.params, ...after, pageSize, offset - from)
        : this.statements
            .get(`SELECT ${columns} FROM ${this.table} t ${where.sql} ${this.orderBy(sort)} LIMIT ? OFFSET ?`)
            .raw()
            .all(...where.params, pageSize, offset)
    ) as [number, ...SortKey][];
    const last = rows.at(-1);
    if (last && marks.size < MARKS_PER_QUERY) marks.set(offset + rows.length, last.slice(1));
    return rows.map((row) => row[0]);
  }

  /** The bookmarks of one filtered query and order, which becomes the most recently read. */
  private continuationsOf(name: string): Map<number, SortKey> {
    const marks = this.continuations.get(name) ?? new Map<number, SortKey>();
    this.continuations.delete(name);
    this.continuations.set(name, marks);
    if (this.continuations.size > QUERIES_KEPT) {
      const oldest = this.continuations.keys().next().value;
      if (oldest !== undefined) this.continuations.delete(oldest);
    }
    return marks;
  }

  /** SQL true for rows strictly after a sort key in the sort's order; binds the key. */
  private pastKey(sort: Sort<string>): string {
    const key = this.orderColumns(sort);
    return `(${key.join(', ')}) ${sort.direction === 'asc' ? '>' : '<'} (${key.map(() => '?').join(', ')})`;
  }

  /** Rows from a sort key on (that row included), in the sort's order; binds the key, LIMIT and OFFSET. */
  private fromKey(sort: Sort<string>, columns: string) {
    const compare = sort.direction === 'asc' ? '>=' : '<=';
    const key = this.orderColumns(sort);
    return this.statements.get(
      `SELECT ${columns} FROM ${this.table} t
       WHERE (${key.join(', ')}) ${compare} (${key.map(() => '?').join(', ')})
       ${this.orderBy(sort)} LIMIT ? OFFSET ?`,
    );
  }

  /** The columns that place a row in this order: the sort field, then the key (once, sorting by it). */
  private orderColumns(sort: Sort<string>): string[] {
    return sort.field === this.key ? [`t.${this.key}`] : [`t.${sort.field}`, `t.${this.key}`];
  }

  private keyColumns(sort: Sort<string>): string {
    return this.orderColumns(sort).join(', ');
  }

  private orderBy(sort: Sort<string>): string {
    const direction = sort.direction === 'asc' ? 'ASC' : 'DESC';
    return `ORDER BY ${this.orderColumns(sort)
      .map((column) => `${column} ${direction}`)
      .join(', ')}`;
  }

  /** These rows, in the order of `ids`. */
  rows(ids: readonly number[], columns: readonly string[]): Row[] {
    if (ids.length === 0) return [];
    const rows = this.statements
      .get(
        `SELECT ${['id', ...columns].join(', ')} FROM ${this.table}
         WHERE id IN (${ids.map(() => '?').join(', ')})`,
      )
      .all(...ids) as Row[];
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
}
