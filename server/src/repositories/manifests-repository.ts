/** Manifest rows with their waste lines, totals and lookups (spec 4.5–4.7). */
import type { Database } from 'better-sqlite3';
import type { ManifestField, ManifestFilterFields, ManifestLookupField } from '../../../shared/api/index.ts';
import { MANIFEST_QUERY, type ManifestTotal } from '../../../shared/query/definition.ts';
import type { ListQuery } from '../../../shared/query/parse.ts';
import { LINE_SET_QUANTITY_COLUMNS, LINE_SET_TOTAL_COLUMNS } from '../db/fact-storage.ts';
import { MANIFEST_LOOKUP_LISTS } from '../db/lookup-lists.ts';
import {
  manifestWhere,
  receivedWindow,
  singleLineSet,
  totalsSelect,
  type ReceiptLag,
  type SingleLineSet,
} from '../db/sqlite-query.ts';
import { StatementCache } from '../db/statements.ts';
import { tallyLag, tallyTotals } from '../db/tallies.ts';
import type { IndexedLookup } from './lookups.ts';
import { indexedLookups } from './lookups.ts';
import { manifestPageBytes } from './page-bytes.ts';
import { PagedList } from './paged-list.ts';
import { TrigramSearch } from './trigram-search.ts';

/** Rows skipped beyond which a received-date page is read the ordinary way (walking far is slower). */
export const RECEIVED_WINDOW_MAX_OFFSET = 5_000;

/** The totals over the rows of `manifests t`, and over one value's rows of manifest_line_sets, as SQL. */
const TOTALS_SELECT = totalsSelect(MANIFEST_QUERY.totals, (quantity) => `t.${quantity}`);
const LINE_SET_TOTALS_SELECT = totalsSelect(
  MANIFEST_QUERY.totals,
  (quantity) => LINE_SET_QUANTITY_COLUMNS[quantity],
);
/** One value's totals as manifest_line_set_totals keeps them. */
const STORED_TOTALS_SELECT = Object.entries(LINE_SET_TOTAL_COLUMNS)
  .map(([total, column]) => `${column} AS ${total}`)
  .join(', ');

function singleSetRange(single: SingleLineSet): { sql: string; params: string[] } {
  return {
    sql: ['member = ?', 'code = ?', ...single.bounds.map((bound) => bound.sql)].join(' AND '),
    params: [single.member, single.code, ...single.bounds.map((bound) => bound.value)],
  };
}

export type ManifestTotalsRow = Record<ManifestTotal, number>;

export type ManifestListQuery = ListQuery<ManifestField, ManifestFilterFields>;

export class ManifestsRepository {
  private readonly statements: StatementCache;
  private readonly list: PagedList;
  private readonly search: TrigramSearch;
  private readonly lookups: Record<ManifestLookupField, IndexedLookup>;

  /** `searchListLimit`: see TrigramSearch; tests lower it to drive the many-matches path on small data. */
  constructor(db: Database, options: { searchListLimit?: number } = {}) {
    this.statements = new StatementCache(db);
    this.list = new PagedList(this.statements, 'manifests', MANIFEST_QUERY.key);
    this.search = new TrigramSearch(
      db,
      this.statements,
      'manifests',
      MANIFEST_QUERY.searchFields,
      options.searchListLimit,
    );
    this.lookups = indexedLookups(this.statements, 'manifests', MANIFEST_LOOKUP_LISTS, {
      manifest_number: 'manifest_tracking_number',
    });
  }

  /** Another connection has committed (an import): forget what was read from the rows before. */
  dataChanged(): void {
    this.list.dataChanged();
  }

  /** The fewest and most days between shipment and receipt over the dataset (a tally, db/tallies.ts). */
  private lag(): ReceiptLag {
    return tallyLag(this.statements);
  }

  /** A page as the UTF-8 bytes the wire sends (page-bytes.ts). */
  pageBytes(query: ManifestListQuery): Buffer {
    const { totalElements, rows } = this.pageRows(query);
    return manifestPageBytes(totalElements, rows, query.fields);
  }

  /** The page's rows as rowValues reads them: the values in `query.fields` order, then the id and more. */
  private pageRows(query: ManifestListQuery): { totalElements: number; rows: unknown[][] } {
    const where = manifestWhere(query.filterFields, this.search.clause(query.searchKey));
    const single = singleLineSet(query.filterFields, query.searchKey);
    const byDefaultOrder =
      query.sort.field === MANIFEST_QUERY.defaultSort.field &&
      query.sort.direction === MANIFEST_QUERY.defaultSort.direction;
    const window =
      byDefaultOrder && !single && query.page * query.pageSize <= RECEIVED_WINDOW_MAX_OFFSET
        ? receivedWindow(query.filterFields, query.searchKey, this.lag())
        : undefined;
    const ids =
      single && byDefaultOrder
        ? this.singleSetIds(single, query.page, query.pageSize)
        : this.list.pageIds({
            where: window ?? where,
            sort: query.sort,
            page: query.page,
            pageSize: query.pageSize,
            // The received-date window holds exactly the rows of `where`: their bookmarks are the same.
            query: JSON.stringify([query.filterFields, query.searchKey]),
          });
    const totalElements = single ? this.singleSetCount(single) : this.list.count(where);
    return { totalElements, rows: this.rowValues(ids, query.fields) };
  }

  /**
   * These manifests' values of `fields`, in the order of `ids`, read with their stored waste-line JSON
   * (db/waste-lines-json.ts) in one statement; each row then holds the manifest's id and, with the waste
   * lines, their length in UTF-8 bytes (octet_length: the stored size in a UTF-8 database, SQLite's default
   * and what the schema keeps, known without reading the text). As text, not as a blob:
   * better-sqlite3 makes a string of ASCII text more cheaply than a Buffer (0.09 against 0.24 ms for the app's
   * 100 rows).
   */
  private rowValues(ids: readonly number[], fields: readonly ManifestField[]): unknown[][] {
    if (ids.length === 0) return [];
    const columns = fields.map((field) => (field === 'waste_lines' ? 'w.json' : `m.${field}`));
    const lines = fields.includes('waste_lines');
    const rows = this.statements
      .get(
        `SELECT ${columns.join(', ')}, m.id${lines ? ', octet_length(w.json)' : ''} FROM manifests m
         ${lines ? 'LEFT JOIN manifest_waste_lines_json w ON w.manifest_id = m.id' : ''}
         WHERE m.id IN (${ids.map(() => '?').join(', ')})`,
      )
      .raw()
      .all(...ids) as unknown[][];
    const byId = new Map(rows.map((row) => [row[fields.length] as number, row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [row] : [];
    });
  }

  /** One value's manifests in the default order (ties on the tracking number), from manifest_line_sets' key. */
  private singleSetIds(single: SingleLineSet, page: number, pageSize: number): number[] {
    const range = singleSetRange(single);
    return this.statements
      .get(
        `SELECT manifest_id FROM manifest_line_sets WHERE ${range.sql}
         ORDER BY shipped_date DESC, manifest_tracking_number DESC LIMIT ? OFFSET ?`,
      )
      .pluck()
      .all(...range.params, pageSize, page * pageSize) as number[];
  }

  private singleSetCount(single: SingleLineSet): number {
    if (single.bounds.length === 0) return this.singleSetTotals(single).shipped_count;
    const range = singleSetRange(single);
    return this.statements
      .get(`SELECT count(*) FROM manifest_line_sets WHERE ${range.sql}`)
      .pluck()
      .get(...range.params) as number;
  }

  /** One value's totals, summed over manifest_line_sets' key without reading the manifests. */
  private singleSetTotals(single: SingleLineSet): ManifestTotalsRow {
    if (single.bounds.length === 0) {
      const stored = this.statements
        .get(`SELECT ${STORED_TOTALS_SELECT} FROM manifest_line_set_totals WHERE member = ? AND code = ?`)
        .get(single.member, single.code) as ManifestTotalsRow | undefined;
      // A value no manifest holds has no row: its totals are those of no rows.
      return stored ?? this.lineSetTotals({ sql: 'FALSE', params: [] });
    }
    return this.lineSetTotals(singleSetRange(single));
  }

  private lineSetTotals(range: { sql: string; params: string[] }): ManifestTotalsRow {
    return this.statements
      .get(`SELECT ${LINE_SET_TOTALS_SELECT} FROM manifest_line_sets WHERE ${range.sql}`)
      .get(...range.params) as ManifestTotalsRow;
  }

  totals(filterFields: ManifestFilterFields, searchKey: string): ManifestTotalsRow {
    const single = singleLineSet(filterFields, searchKey);
    if (single) return this.singleSetTotals(single);
    const where = manifestWhere(filterFields, this.search.clause(searchKey, 'totals'));
    // Summing a million rows per request is what the tallies save (db/tallies.ts).
    if (where.unfiltered) return tallyTotals(this.statements, 'manifests');
    return this.statements
      .get(`SELECT ${TOTALS_SELECT} FROM manifests t ${where.sql}`)
      .get(...where.params) as ManifestTotalsRow;
  }

  lookup(field: ManifestLookupField, search: string, page: number) {
    return this.lookups[field].page(search, page);
  }

  /**
   * This lookup page when it needs no scan of a whole table (which a short key over the manifest numbers
   * may), else undefined: lookups.ts `pageWithoutScan`.
   */
  lookupWithoutScan(field: ManifestLookupField, search: string, page: number) {
    return this.lookups[field].pageWithoutScan(search, page);
  }

  /** True when a page or the totals for this searchKey scan the table rather than read an index. */
  scans(searchKey: string): boolean {
    return this.search.scans(searchKey);
  }
}
