/** Manifest rows with their waste lines, totals and lookups (spec 4.5–4.7). */
import type { Database } from 'better-sqlite3';
import type { ManifestField, ManifestFilterFields, ManifestLookupField } from '../../../shared/api/index.ts';
import { WASTE_LINE_FIELDS } from '../../../shared/api/index.ts';
import { DEFAULT_MANIFEST_SORT, MANIFEST_SEARCH_FIELDS, type Sort } from '../../../shared/query/index.ts';
import { MANIFEST_KEY } from '../../../shared/query/sort.ts';
import { StatementCache } from '../db/statements.ts';
import { IndexedColumnLookup, MemoryLookup, columnLookup, type LookupSource } from './lookups.ts';
import { PagedList, type Row } from './paged-list.ts';
import { TrigramSearch } from './trigram-search.ts';
import {
  MANIFEST_COLUMN_FILTERS,
  manifestWhere,
  receivedWindow,
  singleLineSet,
  type ReceiptLag,
  type SingleLineSet,
} from './where.ts';

/** Rows skipped beyond which a received-date page is read the ordinary way (walking far is slower). */
const RECEIVED_WINDOW_MAX_OFFSET = 5_000;

function singleSetRange(single: SingleLineSet): { sql: string; params: string[] } {
  const clauses = ['member = ?', 'code = ?'];
  const params = [single.member, single.code];
  if (single.shippedStart) {
    clauses.push('shipped_date >= ?');
    params.push(single.shippedStart);
  }
  if (single.shippedEnd) {
    clauses.push('shipped_date <= ?');
    params.push(single.shippedEnd);
  }
  return { sql: clauses.join(' AND '), params };
}

export interface ManifestTotalsRow {
  total_waste: number;
  shipped_count: number;
  container_count: number;
  waste_streams: number;
}

export interface ManifestListQuery {
  filterFields: ManifestFilterFields;
  searchKey: string;
  sort: Sort<ManifestField>;
  page: number;
  pageSize: number;
  fields: readonly ManifestField[];
}

/** Waste line fields as stored; the tracking number comes from the manifest. */
const WASTE_LINE_COLUMNS = WASTE_LINE_FIELDS.filter((field) => field !== 'manifest_tracking_number');

export class ManifestsRepository {
  private readonly statements: StatementCache;
  private readonly list: PagedList;
  private readonly search: TrigramSearch;
  private readonly lookups: Record<ManifestLookupField, LookupSource>;
  private unfilteredTotals: ManifestTotalsRow | undefined;
  private receiptLag: ReceiptLag | undefined;

  /** `searchListLimit`: see TrigramSearch; tests lower it to drive the many-matches path on small data. */
  constructor(db: Database, options: { searchListLimit?: number } = {}) {
    this.statements = new StatementCache(db);
    this.list = new PagedList(this.statements, 'manifests', MANIFEST_KEY);
    this.search = new TrigramSearch(
      db,
      this.statements,
      'manifests',
      MANIFEST_SEARCH_FIELDS,
      options.searchListLimit,
    );
    const column = (sql: string) => columnLookup(this.statements, sql);
    this.lookups = {
      manifest_number: new IndexedColumnLookup(this.statements, 'manifests', 'manifest_tracking_number'),
      generator_name: column('SELECT DISTINCT generator_name FROM manifests'),
      transporter_name: column('SELECT DISTINCT transporter FROM manifests'),
      designated_facility_name: column('SELECT DISTINCT designated_facility_name FROM manifests'),
      dot_id_no: column("SELECT DISTINCT code FROM manifest_line_sets WHERE member = 'dot'"),
      container_type: column("SELECT DISTINCT code FROM manifest_line_sets WHERE member = 'container'"),
      handling_code: column("SELECT DISTINCT code FROM manifest_line_sets WHERE member = 'handling'"),
    };
  }

  warm(): void {
    for (const lookup of Object.values(this.lookups)) {
      if (lookup instanceof MemoryLookup) lookup.warm();
    }
    for (const [column] of MANIFEST_COLUMN_FILTERS) this.list.valueCounts(column);
    this.totals({}, '');
    this.list.count(manifestWhere({}));
    this.lag();
  }

  /** The fewest and most days between shipment and receipt over the dataset, read once (the data is fixed). */
  private lag(): ReceiptLag {
    this.receiptLag ??= this.statements
      .get(
        `SELECT coalesce(min(julianday(received_date) - julianday(shipped_date)), 0) AS minDays,
                coalesce(max(julianday(received_date) - julianday(shipped_date)), 0) AS maxDays
         FROM manifests`,
      )
      .get() as ReceiptLag;
    return this.receiptLag;
  }

  page(query: ManifestListQuery): { totalElements: number; content: Record<string, unknown>[] } {
    const where = manifestWhere(query.filterFields, this.search.clause(query.searchKey));
    const withLines = query.fields.includes('waste_lines');
    const columns = query.fields.filter((field) => field !== 'waste_lines');
    // Waste lines name their manifest by tracking number, so read it even when it was not selected.
    const readColumns =
      withLines && !columns.includes('manifest_tracking_number')
        ? [...columns, 'manifest_tracking_number']
        : columns;
    const single = singleLineSet(query.filterFields, query.searchKey);
    const byDefaultOrder =
      query.sort.field === DEFAULT_MANIFEST_SORT.field &&
      query.sort.direction === DEFAULT_MANIFEST_SORT.direction;
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
          });
    const rows = this.list.rows(ids, readColumns);
    const lines = withLines ? this.wasteLines(rows) : undefined;
    const content = rows.map((row) => {
      const shaped: Record<string, unknown> = {};
      for (const field of query.fields) {
        shaped[field] = field === 'waste_lines' ? (lines?.get(row.id) ?? []) : row[field];
      }
      return shaped;
    });
    const totalElements = single ? this.singleSetCount(single) : this.list.count(where);
    return { totalElements, content };
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
    if (!single.shippedStart && !single.shippedEnd) return this.singleSetTotals(single).shipped_count;
    const range = singleSetRange(single);
    return this.statements
      .get(`SELECT count(*) FROM manifest_line_sets WHERE ${range.sql}`)
      .pluck()
      .get(...range.params) as number;
  }

  /** One value's totals, summed over manifest_line_sets' key without reading the manifests. */
  private singleSetTotals(single: SingleLineSet): ManifestTotalsRow {
    if (!single.shippedStart && !single.shippedEnd) {
      return (
        (this.statements
          .get(
            `SELECT tons AS total_waste, manifests AS shipped_count, containers AS container_count,
                    streams AS waste_streams
             FROM manifest_line_set_totals WHERE member = ? AND code = ?`,
          )
          .get(single.member, single.code) as ManifestTotalsRow | undefined) ?? {
          total_waste: 0,
          shipped_count: 0,
          container_count: 0,
          waste_streams: 0,
        }
      );
    }
    const range = singleSetRange(single);
    return this.statements
      .get(
        `SELECT round(coalesce(sum(tons), 0), 4) AS total_waste, count(*) AS shipped_count,
                coalesce(sum(containers), 0) AS container_count, coalesce(sum(streams), 0) AS waste_streams
         FROM manifest_line_sets WHERE ${range.sql}`,
      )
      .get(...range.params) as ManifestTotalsRow;
  }

  totals(filterFields: ManifestFilterFields, searchKey: string): ManifestTotalsRow {
    const single = singleLineSet(filterFields, searchKey);
    if (single) return this.singleSetTotals(single);
    const where = manifestWhere(filterFields, this.search.clause(searchKey, 'totals'));
    if (where.unfiltered && this.unfilteredTotals) return this.unfilteredTotals;
    const totals = this.statements
      .get(
        `SELECT round(coalesce(sum(t.total_waste_quantity_tons), 0), 4) AS total_waste,
                count(*) AS shipped_count,
                coalesce(sum(t.container_count), 0) AS container_count,
                coalesce(sum(t.waste_stream_count), 0) AS waste_streams
         FROM manifests t ${where.sql}`,
      )
      .get(...where.params) as ManifestTotalsRow;
    if (where.unfiltered) this.unfilteredTotals = totals;
    return totals;
  }

  lookup(field: ManifestLookupField, search: string, page: number) {
    return this.lookups[field].page(search, page);
  }

  /**
   * The waste lines of these manifests as the wire has them, in line order, keyed by manifest id. Rows are
   * read as arrays and each line built once: on a page of 50 manifests, object rows copied into their
   * final shape cost more than the query.
   */
  private wasteLines(manifests: readonly Row[]): Map<number, Record<string, unknown>[]> {
    const byManifest = new Map<number, Record<string, unknown>[]>();
    if (manifests.length === 0) return byManifest;
    const numbers = new Map(manifests.map((row) => [row.id, row.manifest_tracking_number]));
    const rows = this.statements
      .get(
        `SELECT manifest_id, ${WASTE_LINE_COLUMNS.join(', ')} FROM waste_lines
         WHERE manifest_id IN (${manifests.map(() => '?').join(', ')})
         ORDER BY manifest_id, waste_line_number`,
      )
      .raw()
      .all(...manifests.map((row) => row.id)) as unknown[][];
    for (const row of rows) {
      const manifestId = row[0] as number;
      const line: Record<string, unknown> = { manifest_tracking_number: numbers.get(manifestId) };
      for (const [index, column] of WASTE_LINE_COLUMNS.entries()) {
        const value = row[index + 1];
        // spec 2.6 declares a waste line's container_count a string (unlike the manifest's number).
        line[column] = column === 'container_count' ? String(value) : value;
      }
      const list = byManifest.get(manifestId);
      if (list) list.push(line);
      else byManifest.set(manifestId, [line]);
    }
    return byManifest;
  }
}
