/**
 * Deep pages of a whole table on PostgreSQL, read the way SQLite reads them (repositories/paged-list.ts): from
 * a bookmark, the sort key of every BOOKMARK_STEP-th row in that order, instead of skipping every row before
 * the page. LIMIT/OFFSET walks its offset row by row: page 10,000 of a million manifests (offset 500,000)
 * cost 18–22 s with each skipped row's columns and waste lines read, and 1 s as a sort of every generator
 * for page 1,000. A bookmark is one step of an index-only scan of the (field, key) index from the one
 * before (pg-finalize.ts builds one per sortable field), noted as pages reach it; the page itself then
 * skips fewer than BOOKMARK_STEP keys on that index and reads only its own rows.
 *
 * Bookmarks are kept per server process in the VersionedCache, so that they are dropped when the data
 * version moves (an import commits in any process) and noted again as pages need them.
 */
import type { Sql } from 'postgres';
import type { Sort } from '../../../shared/query/definition.ts';
import { BOOKMARK_STEP } from '../repositories/paged-list.ts';
import type { VersionedCache } from './pg-cache.ts';
import { orderBy, type Param, type PgWhere } from './pg-query.ts';

/** The sort key of a row: its sort field's value and its unique key (just the key when sorting by it). */
type SortKey = Param[];

/** One order's bookmarks: the key of row k × BOOKMARK_STEP at index k; `noting` chains their extension. */
interface Marks {
  keys: SortKey[];
  noting: Promise<unknown>;
}

/** The sort keys of one page of the whole table, as a subquery over `t`, and the values it binds from $1. */
interface PageKeys {
  sql: string;
  params: Param[];
}

/** One page of a list, as its reads ask for it: what differs between the generators' and the manifests'. */
export interface PageRequest<Row> {
  /** `SELECT …` of the page's columns over `t`, the table, and what `joins` joins to it. */
  select: string;
  joins: string;
  /** The request's rows: a deep page is read from a bookmark only when this is the whole table. */
  where: PgWhere;
  sort: Sort<string>;
  offset: number;
  pageSize: number;
  /** Runs the statement (rows or values, cancelled with the request). */
  run: (text: string, params: Param[]) => Promise<Row[]>;
}

export class Bookmarks {
  private readonly sql: Sql;
  private readonly cache: VersionedCache;
  private readonly table: 'generators' | 'manifests';
  private readonly key: string;

  constructor(sql: Sql, cache: VersionedCache, table: 'generators' | 'manifests', key: string) {
    this.sql = sql;
    this.cache = cache;
    this.table = table;
    this.key = key;
  }

  /** The columns that place a row in this order: the sort field, then the key (once, sorting by it). */
  private columns(sort: Sort<string>): string[] {
    return sort.field === this.key ? [this.key] : [sort.field, this.key];
  }

  /** Rows from a sort key on (that row included), in the sort's order, binding the key from `$${first}`. */
  private fromKey(sort: Sort<string>, first: number): string {
    const columns = this.columns(sort);
    const compare = sort.direction === 'asc' ? '>=' : '<=';
    return `(${columns.map((column) => `t.${column}`).join(', ')}) ${compare} (${columns
      .map((_, index) => `$${first + index}`)
      .join(', ')})`;
  }

  /**
   * A page of the list: with LIMIT/OFFSET over the request's rows, or, deep in the whole table, its keys
   * from the nearest bookmark and then only its own rows.
   */
  async read<Row>(request: PageRequest<Row>): Promise<Row[]> {
    const { select, joins, where, sort, offset, pageSize, run } = request;
    const order = orderBy(sort, this.key);
    if (!where.unfiltered || offset < BOOKMARK_STEP) {
      const at = where.params.length;
      return run(
        `${select} FROM ${this.table} t ${joins} ${where.sql} ${order} LIMIT $${at + 1} OFFSET $${at + 2}`,
        [...where.params, pageSize, offset],
      );
    }
    const keys = await this.page(sort, offset, pageSize);
    if (!keys) return [];
    return run(
      `${select} FROM (${keys.sql}) p JOIN ${this.table} t ON t.${this.key} = p.${this.key} ${joins} ${order}`,
      keys.params,
    );
  }

  /**
   * The keys of the page of the whole table at `offset`, in order: from the nearest bookmark before it,
   * skipping fewer than BOOKMARK_STEP keys, on the (field, key) index alone. Undefined past the end.
   */
  private async page(sort: Sort<string>, offset: number, pageSize: number): Promise<PageKeys | undefined> {
    const mark = await this.bookmark(sort, Math.floor(offset / BOOKMARK_STEP));
    if (!mark) return undefined;
    const at = mark.length;
    return {
      sql: `SELECT ${this.columns(sort)
        .map((column) => `t.${column}`)
        .join(', ')} FROM ${this.table} t WHERE ${this.fromKey(sort, 1)}
        ${orderBy(sort, this.key)} LIMIT $${at + 1} OFFSET $${at + 2}`,
      params: [...mark, pageSize, offset % BOOKMARK_STEP],
    };
  }

  private async bookmark(sort: Sort<string>, index: number): Promise<SortKey | undefined> {
    const marks = await this.cache.get<Marks>(`bookmarks ${this.table} ${sort.field} ${sort.direction}`, () =>
      Promise.resolve({ keys: [], noting: Promise.resolve() }),
    );
    if (marks.keys.length <= index) {
      // One extension at a time: a second request waits for the first and finds its bookmarks noted.
      marks.noting = marks.noting.then(() => this.note(sort, marks, index)).catch(() => undefined);
      await marks.noting;
    }
    return marks.keys[index];
  }

  /** Notes bookmarks up to `index`, each one index-only step of BOOKMARK_STEP keys from the last. */
  private async note(sort: Sort<string>, marks: Marks, index: number): Promise<void> {
    const columns = this.columns(sort).map((column) => `t.${column}`);
    if (marks.keys.length === 0) {
      const [firstKey] = await this.sql
        .unsafe(`SELECT ${columns.join(', ')} FROM ${this.table} t ${orderBy(sort, this.key)} LIMIT 1`, [], {
          prepare: true,
        })
        .values();
      if (!firstKey) return;
      marks.keys.push(firstKey as SortKey);
    }
    const step = `SELECT ${columns.join(', ')} FROM ${this.table} t WHERE ${this.fromKey(sort, 1)}
      ${orderBy(sort, this.key)} LIMIT 1 OFFSET ${BOOKMARK_STEP}`;
    let last = marks.keys.at(-1);
    while (last && marks.keys.length <= index) {
      const [next] = await this.sql.unsafe(step, last, { prepare: true }).values();
      last = next as SortKey | undefined;
      if (last) marks.keys.push(last);
    }
  }
}
