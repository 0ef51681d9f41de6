/**
 * The manifests' reads on PostgreSQL (store.ts `ManifestReads`): pages (as the bytes the wire sends), totals
 * and lookups, by the same statements and strategies as the SQLite store's manifests repository: one value of
 * one waste-line member read from its line sets, a received-date page bounded by the receipt lag, deep pages
 * of the whole table from bookmarks (pg-bookmarks.ts).
 */
import type { Sql } from 'postgres';
import type { ManifestField, ManifestFilterFields, ManifestLookupField } from '../../../shared/api/index.ts';
import { MANIFEST_QUERY } from '../../../shared/query/definition.ts';
import { LINE_SET_QUANTITY_COLUMNS, LINE_SET_TOTAL_COLUMNS } from '../db/fact-storage.ts';
import { MANIFEST_LOOKUP_LISTS } from '../db/lookup-lists.ts';
import { receivedWindow, singleLineSet, type SingleLineSet } from '../db/sqlite-query.ts';
import { RECEIVED_WINDOW_MAX_OFFSET } from '../repositories/manifests-repository.ts';
import { manifestPageBytes } from '../repositories/page-bytes.ts';
import type { ManifestReads, ManifestTotalsRow } from '../store/store.ts';
import { Bookmarks } from './pg-bookmarks.ts';
import type { VersionedCache } from './pg-cache.ts';
import {
  RECEIPT_LAG_ROWS,
  RECEIPT_LAG_SELECT,
  manifestWhere,
  totalsSelect,
  type Param,
  type PgWhere,
} from './pg-query.ts';
import { countOf, lookups, totalsOf } from './pg-reads.ts';
import { rows, values } from './pg-run.ts';

const MANIFEST_TOTALS = totalsSelect(MANIFEST_QUERY.totals, (quantity) => `t.${quantity}`);
const LINE_SET_TOTALS = totalsSelect(
  MANIFEST_QUERY.totals,
  (quantity) => LINE_SET_QUANTITY_COLUMNS[quantity],
);
const STORED_TOTALS = Object.entries(LINE_SET_TOTAL_COLUMNS)
  .map(([total, column]) => `${column}::float8 AS ${total}`)
  .join(', ');

/**
 * One value of one waste-line member, perhaps with shipped-date bounds (db/sqlite-query.ts `singleLineSet`,
 * the commonest manifest request: "pick one DOT id"), as a range of manifest_line_sets' key, which carries
 * each manifest's shipped date, tracking number and quantities: its rows in the default order, its count and
 * its totals without reading the manifests. Binds from $1.
 */
function lineSetRange(single: SingleLineSet): { sql: string; params: Param[] } {
  const bounds = single.bounds.map((bound, index) => bound.sql.replace('?', `$${index + 3}`));
  return {
    sql: ['s.member = $1', 's.code = $2', ...bounds.map((bound) => `s.${bound}`)].join(' AND '),
    params: [single.member, single.code, ...single.bounds.map((bound) => bound.value)],
  };
}

export function pgManifestReads(sql: Sql, cache: VersionedCache): ManifestReads {
  const lookup = lookups(sql, cache, 'manifests', MANIFEST_LOOKUP_LISTS);
  const bookmarks = new Bookmarks(sql, cache, 'manifests', MANIFEST_QUERY.key);
  /**
   * A received-date request's page walks the shipped-date index within the shipped dates the receipt lag
   * allows, newest first, instead of every newer manifest (301,648 rows filtered out, 1.1 s, for the first
   * page of 2024-Q1 among a million). The lag is read once per data version from the stored tally, which the
   * importer widens in each batch's transaction (import/postgres/pg-derived.ts), so that it holds for the
   * manifests an import is adding; from the rows where no import has stored it (a scan of every manifest).
   */
  const receivedWindowOf = async (
    filters: ManifestFilterFields,
    searchKey: string,
    signal?: AbortSignal,
  ): Promise<PgWhere | undefined> => {
    if (!filters.received_date_start && !filters.received_date_end) return undefined;
    const lag = await cache.get('receipt lag', async () => {
      const stored = new Map(
        (
          await values(
            sql,
            "SELECT name, value FROM data_tallies WHERE name IN ('lag_min_days', 'lag_max_days')",
            [],
            signal,
          )
        ).map(([name, value]) => [String(name), Number(value)]),
      );
      const [low, high] =
        stored.size === 2
          ? [stored.get('lag_min_days'), stored.get('lag_max_days')]
          : ((
              await values(
                sql,
                `SELECT ${RECEIPT_LAG_SELECT} FROM manifests t WHERE ${RECEIPT_LAG_ROWS}`,
                [],
                signal,
              )
            )[0] ?? []);
      return { minDays: Number(low ?? 0), maxDays: Number(high ?? 0) };
    });
    const window = receivedWindow(filters, searchKey, lag);
    if (!window) return undefined;
    let bound = 0;
    return {
      // `+t.received_date` keeps SQLite off the received-date index; PostgreSQL is kept off it the same way
      // by comparing an expression (its estimate of the two ranges together was 517 rows for 29,613, and it
      // read and sorted them all: 390 ms).
      sql: window.sql
        .replaceAll('+t.received_date', `(t.received_date || '') COLLATE "C"`)
        .replaceAll('?', () => `$${(bound += 1)}`),
      params: window.params,
      unfiltered: false,
    };
  };
  /** One value's totals: stored per value (manifest_line_set_totals), summed over its range with bounds. */
  const singleTotals = async (single: SingleLineSet, signal?: AbortSignal): Promise<ManifestTotalsRow> => {
    if (single.bounds.length === 0) {
      const [stored] = await rows<ManifestTotalsRow>(
        sql,
        `SELECT ${STORED_TOTALS} FROM manifest_line_set_totals WHERE member = $1 AND code = $2`,
        [single.member, single.code],
        signal,
      );
      if (stored) return { ...stored };
    }
    const range = lineSetRange(single);
    const [summed] = await rows<ManifestTotalsRow>(
      sql,
      `SELECT ${LINE_SET_TOTALS} FROM manifest_line_sets s WHERE ${range.sql}`,
      range.params,
      signal,
    );
    return { ...(summed as ManifestTotalsRow) };
  };
  return {
    async pageBytes(query, signal) {
      const where = manifestWhere(query.filterFields, query.searchKey);
      const fields: readonly ManifestField[] = query.fields;
      const lines = fields.includes('waste_lines');
      const columns = fields.map((field) => (field === 'waste_lines' ? 'w.json' : `t.${field}`));
      const select = `SELECT ${columns.join(', ')}, t.id${lines ? ', octet_length(w.json)' : ''}`;
      const withLines = lines ? 'LEFT JOIN manifest_waste_lines_json w ON w.manifest_id = t.id' : '';
      const single = singleLineSet(query.filterFields, query.searchKey);
      const byDefaultOrder =
        query.sort.field === MANIFEST_QUERY.defaultSort.field &&
        query.sort.direction === MANIFEST_QUERY.defaultSort.direction;
      if (single && byDefaultOrder) {
        const range = lineSetRange(single);
        const at = range.params.length;
        const [totals, page] = await Promise.all([
          singleTotals(single, signal),
          values(
            sql,
            `${select}
             FROM (SELECT s.manifest_id, s.shipped_date, s.manifest_tracking_number FROM manifest_line_sets s
                   WHERE ${range.sql} ORDER BY s.shipped_date DESC, s.manifest_tracking_number DESC
                   LIMIT $${at + 1} OFFSET $${at + 2}) s
             JOIN manifests t ON t.id = s.manifest_id ${withLines}
             ORDER BY s.shipped_date DESC, s.manifest_tracking_number DESC`,
            [...range.params, query.pageSize, query.page * query.pageSize],
            signal,
          ),
        ]);
        return manifestPageBytes(totals.shipped_count, page, fields);
      }
      const offset = query.page * query.pageSize;
      // The received-date window (db/sqlite-query.ts `receivedWindow`) holds exactly the rows of `where`.
      const window =
        byDefaultOrder && offset <= RECEIVED_WINDOW_MAX_OFFSET
          ? await receivedWindowOf(query.filterFields, query.searchKey, signal)
          : undefined;
      const read = () =>
        bookmarks.read({
          select,
          joins: withLines,
          where: window ?? where,
          sort: query.sort,
          offset,
          pageSize: query.pageSize,
          run: (text, params) => values(sql, text, params, signal),
        });
      const [totalElements, page] = await Promise.all([countOf(sql, cache, 'manifests', where), read()]);
      return manifestPageBytes(totalElements, page, fields);
    },
    async totals(filters, searchKey, signal) {
      const single = singleLineSet(filters, searchKey);
      if (single) return singleTotals(single, signal);
      const where = manifestWhere(filters, searchKey);
      return totalsOf<ManifestTotalsRow>(sql, cache, 'manifests', MANIFEST_TOTALS, where, signal);
    },
    lookup: (field: ManifestLookupField, search, page, signal) => lookup(field, search, page, signal),
  };
}
