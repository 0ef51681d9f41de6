/**
 * The tracker's reads on PostgreSQL (store.ts `GeneratorReads`, `DetailReads`; the manifests' are in
 * pg-manifest-reads.ts): SQL built by pg-query.ts from shared/query's definition, run by pg-run.ts.
 *
 * What is kept in memory (the unfiltered counts and totals, the short lookup lists, the registration
 * statuses, bookmarks, the generators' filter matches) is tagged with the data version it was read at
 * (pg-cache.ts, pg-matches.ts) and read again when the version has moved, so every process's next answer
 * after an import commits sees it (docs/deploy.md). The long lookup lists' samples (pg-list-page.ts) only
 * choose how a search is read.
 */
import type { Sql } from 'postgres';
import type { GeneratorLookupField } from '../../../shared/api/index.ts';
import { GENERATOR_FROM_MANIFESTS, GENERATOR_QUERY } from '../../../shared/query/definition.ts';
import {
  lookupEntries,
  lookupPage,
  withStatusGroups,
  type LookupEntry,
  type LookupPage,
} from '../../../shared/query/lookup.ts';
import { foldCase } from '../../../shared/query/search.ts';
import { GENERATOR_QUANTITY_COLUMNS } from '../db/fact-storage.ts';
import { GENERATOR_LOOKUP_LISTS, type LookupList } from '../db/lookup-lists.ts';
import {
  DETAIL_SQL,
  canonicalDetail,
  reportYearRange,
  type GeneratorRow,
} from '../repositories/detail-repository.ts';
import type { DetailReads, GeneratorReads, GeneratorTotalsRow } from '../store/store.ts';
import { Bookmarks } from './pg-bookmarks.ts';
import type { VersionedCache } from './pg-cache.ts';
import { ListPages } from './pg-list-page.ts';
import { onePerRowList } from './pg-lookup-lists.ts';
import type { PgMatches } from './pg-matches.ts';
import { rows, values } from './pg-run.ts';
import { generatorWhere, totalsSelect, type PgWhere } from './pg-query.ts';

/**
 * How many rows of `table` match `where`: counted once per data version when nothing filters them, and for
 * the latest searches and filters (pg-cache.ts `recent`), since the grid asks for the count with every page
 * and a count reads every matching row where a page stops at its first rows. A search's count checks each row
 * its trigram index names (the index is lossy): 90 ms for the 50,419 manifests holding "pacific" among a
 * million, where its first page walks the sort index and stops after 50 (6 ms). A date range's count reads
 * its index entries: 10 ms for the 29,613 manifests received in 2024-Q1, where the page takes 1.5 ms. So a
 * search or a filter paged through is counted once. A count kept for others is not cancelled with the
 * request that asked first.
 */
export function countOf(
  sql: Sql,
  cache: VersionedCache,
  table: 'generators' | 'manifests',
  where: PgWhere,
): Promise<number> {
  const read = () =>
    values(sql, `SELECT count(*)::int4 FROM ${table} t ${where.sql}`, where.params).then(([row]) =>
      Number(row?.[0] ?? 0),
    );
  if (where.unfiltered) return cache.get(`${table} count`, read);
  return cache.recent(`${table} count ${where.sql} ${JSON.stringify(where.params)}`, read);
}

/** The totals row of `table`'s rows matching `where`: read once per data version when nothing filters them. */
export function totalsOf<Row>(
  sql: Sql,
  cache: VersionedCache,
  table: 'generators' | 'manifests',
  select: string,
  where: PgWhere,
  signal?: AbortSignal,
): Promise<Row> {
  const read = async () =>
    ({
      ...(await rows<Row>(sql, `SELECT ${select} FROM ${table} t ${where.sql}`, where.params, signal))[0],
    }) as Row;
  return where.unfiltered ? cache.get(`${table} totals`, read) : read();
}

/**
 * Lookups over a table's lists (lookup-lists.ts), as the SQLite backend defines them: the short lists held
 * in memory per data version, the two of one value per row read from their own tables (pg-list-page.ts).
 */
export function lookups(sql: Sql, cache: VersionedCache, table: string, lists: Record<string, LookupList>) {
  const entriesOf = (name: string, list: LookupList) =>
    cache.get(`lookup ${name}`, async () => {
      const where = list.where ? ` WHERE ${list.where}` : '';
      const read = list.description
        ? await values(
            sql,
            `SELECT ${list.column}, min(${list.description}) FROM ${list.from}${where} GROUP BY 1`,
            [],
          )
        : await values(sql, `SELECT DISTINCT ${list.column} FROM ${list.from}${where}`, []);
      const entries = lookupEntries(
        read.map(([value, description]): LookupEntry => {
          const text = String(value);
          return {
            value: text,
            text: typeof description === 'string' && description !== '' ? `${text} - ${description}` : text,
          };
        }),
      );
      return entries.map((entry) => ({ ...entry, folded: foldCase(entry.text) }));
    });

  const ownTables = new Map(
    Object.keys(lists).flatMap((field) => {
      const own = onePerRowList(`${table}.${field}`);
      return own ? [[field, new ListPages(sql, own)]] : [];
    }),
  );
  return async (field: string, search: string, page: number, signal?: AbortSignal): Promise<LookupPage> => {
    const list = lists[field];
    if (!list) throw new Error(`no lookup list ${table}.${field}`);
    const own = ownTables.get(field);
    if (own) return await own.page(search, page, signal);
    return lookupPage(await entriesOf(`${table}.${field}`, list), search, page, (entry) => entry.folded);
  };
}

const GENERATOR_TOTALS = totalsSelect(
  GENERATOR_QUERY.totals,
  (quantity) => `t.${GENERATOR_QUANTITY_COLUMNS[quantity]}`,
);
export function pgGeneratorReads(sql: Sql, cache: VersionedCache, matches: PgMatches): GeneratorReads {
  const lookup = lookups(sql, cache, 'generators', GENERATOR_LOOKUP_LISTS);
  const bookmarks = new Bookmarks(sql, cache, 'generators', GENERATOR_QUERY.key);
  return {
    async page(query, signal) {
      const where = generatorWhere(query.filterFields, query.searchKey);
      const read = () =>
        bookmarks.read<Record<string, unknown>>({
          select: `SELECT ${query.fields.map((field) => `t.${field}`).join(', ')}`,
          joins: '',
          where,
          sort: query.sort,
          offset: query.page * query.pageSize,
          pageSize: query.pageSize,
          run: (text, params) => rows(sql, text, params, signal),
        });
      const count = async () => {
        const known = query.searchKey === '' && !where.unfiltered ? await matches.get() : undefined;
        return known ? known.count(query.filterFields) : countOf(sql, cache, 'generators', where);
      };
      const [totalElements, content] = await Promise.all([count(), read()]);
      return { totalElements, content: content.map((row) => ({ ...row })) };
    },
    async totals(filters, searchKey, signal) {
      const where = generatorWhere(filters, searchKey);
      const known = searchKey === '' && !where.unfiltered ? await matches.get() : undefined;
      if (known) return known.totals(filters);
      return totalsOf<GeneratorTotalsRow>(sql, cache, 'generators', GENERATOR_TOTALS, where, signal);
    },
    async lookup(field: GeneratorLookupField, search, page, signal) {
      const answer = await lookup(field, search, page, signal);
      if (field !== 'status') return answer;
      const registrations = await cache.get(
        'registrations',
        async () =>
          new Set(
            (await values(sql, 'SELECT DISTINCT registration_status FROM generators', [])).map(([value]) =>
              String(value),
            ),
          ),
      );
      return withStatusGroups(answer, registrations);
    },
  };
}

/** The profile's statements, the generator's id bound as $1. */
const PG_DETAIL_SQL = Object.fromEntries(
  Object.entries(DETAIL_SQL).map(([name, text]) => [name, text.replace('?', '$1')]),
) as typeof DETAIL_SQL;

export function pgDetailReads(sql: Sql): DetailReads {
  return {
    async find(handlerId) {
      const [row] = await rows<GeneratorRow>(sql, 'SELECT * FROM generators WHERE epa_handler_id = $1', [
        handlerId,
      ]);
      if (!row) return undefined;
      const id = row.id;
      const [shipped, wasteCodes, methods, naics, sic] = await Promise.all([
        values(
          sql,
          `SELECT ${totalsSelect({ shippedTons: GENERATOR_FROM_MANIFESTS.shippedTons }, (quantity) => quantity)}
           FROM manifests WHERE generator_id = $1 AND shipped_date BETWEEN $2 AND $3`,
          [id, ...reportYearRange(row)],
        ),
        rows<{ code: string; description: string }>(sql, PG_DETAIL_SQL.wasteCodes, [id]),
        rows<{ management_method: string; management_method_description: string }>(
          sql,
          PG_DETAIL_SQL.methods,
          [id],
        ),
        rows<{ naics_code: string; naics_desc: string; is_active: string }>(sql, PG_DETAIL_SQL.naics, [id]),
        rows<{ sic_code: number; sic_desc: string }>(sql, PG_DETAIL_SQL.sic, [id]),
      ]);
      const plain = <T extends object>(list: readonly T[]): T[] => list.map((item) => ({ ...item }));
      return canonicalDetail({
        row,
        shippedInReportYear: Number(shipped[0]?.[0] ?? 0),
        wasteCodes: plain(wasteCodes),
        methods: plain(methods),
        naics: plain(naics),
        sic: plain(sic),
      });
    },
  };
}
