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
import { PagedList } from './paged-list.ts';
import { TrigramSearch } from './trigram-search.ts';

/** Rows skipped beyond which a received-date page is read the ordinary way (walking far is slower). */
const RECEIVED_WINDOW_MAX_OFFSET = 5_000;

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

/** Each field's key as it opens its place in a row's JSON: `"name":` for the first, `,"name":` after. */
function fieldNames(fields: readonly ManifestField[]): string[] {
  return fields.map((field, index) => `${index === 0 ? '' : ','}${JSON.stringify(field)}:`);
}

/**
 * A string that JSON.stringify would write as itself between quotes: no quote, backslash, control character
 * or surrogate (JSON.stringify escapes lone surrogates; paired ones are left to it as well).
 */
// eslint-disable-next-line no-control-regex -- the control characters JSON escapes are what it looks for
const PLAIN_STRING = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/**
 * JSON.stringify(value) for a column's value, without calling it for the common plain string or finite number
 * (String(n) is JSON's number): the text of the app's page of 100 rows took ~60 µs in-process with a
 * JSON.stringify call for each of its ~900 values, ~33 µs with this.
 */
function jsonValue(value: unknown): string {
  if (typeof value === 'string') return PLAIN_STRING.test(value) ? `"${value}"` : JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return JSON.stringify(value);
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

  /**
   * A page as the UTF-8 bytes the wire sends: the JSON of `{totalElements, content}`, with each row's stored waste lines
   * (~115 of the ~137 KB of the page the app asks for) spliced in as text rather than parsed and serialised
   * again. The pieces are written one after another into one buffer: joined into one string first, the page
   * was a rope that the socket write had to flatten and encode, as much work as the rest of the request
   * (docs/benchmarks/server.md). The buffer is sized exactly, and a piece that is all ASCII (each of its
   * characters one byte, as nearly all of this data is) is copied as Latin-1 rather than encoded: sized at 3
   * bytes a character, every page allocated ~400 KB outside the heap for its ~137 KB and made the collector
   * run more often, and encoding UTF-8 costs about twice the copy.
   */
  pageBytes(query: ManifestListQuery): Buffer {
    const { totalElements, rows } = this.pageRows(query);
    const { fields } = query;
    const names = fieldNames(fields);
    const lines = fields.indexOf('waste_lines');
    // Each piece with its length in UTF-8 bytes: SQLite keeps that of the stored waste lines, so only the
    // pieces written here are measured.
    const parts: string[] = [];
    const sizes: number[] = [];
    let text = `{"totalElements":${totalElements},"content":[`;
    for (let index = 0; index < rows.length; index += 1) {
      const row = rows[index] ?? [];
      text += index === 0 ? '{' : ',{';
      for (let position = 0; position < fields.length; position += 1) {
        const value = row[position];
        if (position !== lines) {
          text += names[position] + jsonValue(value);
        } else if (typeof value === 'string') {
          text += names[position];
          const stored = row[fields.length + 1];
          parts.push(text, value);
          sizes.push(Buffer.byteLength(text), typeof stored === 'number' ? stored : Buffer.byteLength(value));
          text = '';
        } else {
          text += `${names[position]}[]`;
        }
      }
      text += '}';
    }
    text += ']}';
    parts.push(text);
    sizes.push(Buffer.byteLength(text));
    const bytes = Buffer.allocUnsafe(sizes.reduce((sum, size) => sum + size, 0));
    let length = 0;
    for (const [index, part] of parts.entries()) {
      // As many bytes as UTF-16 units only when every character is ASCII.
      length += bytes.write(part, length, sizes[index] === part.length ? 'latin1' : 'utf8');
    }
    return bytes;
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
