/**
 * The tracker's reads on PostgreSQL (store.ts `GeneratorReads`, `ManifestReads`, `DetailReads`): SQL built
 * by pg-query.ts from shared/query's definition, each statement prepared once per connection by the client.
 *
 * What is kept in memory (the unfiltered counts and totals, the short lookup lists, the registration
 * statuses) is tagged with the data version it was read at (`data_version`, raised by every commit that
 * changes the served rows, pg-schema.ts) and read again when the version has moved: one primary-key read
 * per use, so every process's next answer after an import commits sees it (docs/deploy.md).
 */
import type { Sql } from 'postgres';
import type { GeneratorLookupField, ManifestField, ManifestLookupField } from '../../../shared/api/index.ts';
import { LIMITS } from '../../../shared/api/index.ts';
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../../../shared/query/definition.ts';
import {
  lookupEntries,
  lookupPage,
  withStatusGroups,
  type LookupEntry,
  type LookupPage,
} from '../../../shared/query/lookup.ts';
import { foldCase } from '../../../shared/query/search.ts';
import {
  GENERATOR_QUANTITY_COLUMNS,
  LINE_SET_QUANTITY_COLUMNS,
  LINE_SET_TOTAL_COLUMNS,
} from '../db/fact-storage.ts';
import { singleLineSet, type SingleLineSet } from '../db/sqlite-query.ts';
import { GENERATOR_LOOKUP_LISTS, MANIFEST_LOOKUP_LISTS, type LookupList } from '../db/lookup-lists.ts';
import {
  DETAIL_SQL,
  canonicalDetail,
  reportYearRange,
  type GeneratorRow,
} from '../repositories/detail-repository.ts';
import { manifestPageBytes } from '../repositories/page-bytes.ts';
import type {
  DetailReads,
  GeneratorReads,
  GeneratorTotalsRow,
  ManifestReads,
  ManifestTotalsRow,
} from '../store/store.ts';
import {
  containsPattern,
  generatorWhere,
  manifestWhere,
  orderBy,
  totalsSelect,
  type Param,
  type PgWhere,
} from './pg-query.ts';

const PAGE = LIMITS.lookupPageSize;

/** Runs one statement, cancelled on the server when `signal` aborts (its client has gone). */
async function rows<Row>(
  sql: Sql,
  text: string,
  params: readonly Param[],
  signal?: AbortSignal,
): Promise<Row[]> {
  const query = sql.unsafe<Row[]>(text, params as Param[], { prepare: true });
  const cancel = () => void query.cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await query;
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

async function values(
  sql: Sql,
  text: string,
  params: readonly Param[],
  signal?: AbortSignal,
): Promise<unknown[][]> {
  const query = sql.unsafe(text, params as Param[], { prepare: true }).values();
  const cancel = () => void query.cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await query;
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/** Values read from the rows, each kept until the data version moves. */
export class VersionedCache {
  private readonly sql: Sql;
  private version: string | undefined;
  private readonly entries = new Map<string, Promise<unknown>>();

  constructor(sql: Sql) {
    this.sql = sql;
  }

  async get<T>(name: string, load: () => Promise<T>): Promise<T> {
    const [row] = await this.sql<{ version: string }[]>`SELECT version::text AS version FROM data_version`;
    if (row?.version !== this.version) {
      this.entries.clear();
      this.version = row?.version;
    }
    let entry = this.entries.get(name) as Promise<T> | undefined;
    if (!entry) {
      entry = load();
      this.entries.set(name, entry);
      entry.catch(() => this.entries.delete(name));
    }
    return entry;
  }
}

/** A list with one row per value (a unique key): searched in SQL, not held in memory. */
const SEARCHED_IN_SQL = new Set(['generators.epa_handler_id', 'manifests.manifest_number']);

/** Lookups over a table's lists (lookup-lists.ts), as the SQLite backend defines them. */
/** How many rows of `table` match `where`: counted once per data version when nothing filters them. */
function countOf(
  sql: Sql,
  cache: VersionedCache,
  table: 'generators' | 'manifests',
  where: PgWhere,
  signal?: AbortSignal,
): Promise<number> {
  const read = () =>
    values(sql, `SELECT count(*)::int4 FROM ${table} t ${where.sql}`, where.params, signal).then(([row]) =>
      Number(row?.[0] ?? 0),
    );
  return where.unfiltered ? cache.get(`${table} count`, read) : read();
}

/** The totals row of `table`'s rows matching `where`: read once per data version when nothing filters them. */
function totalsOf<Row>(
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

function lookups(sql: Sql, cache: VersionedCache, table: string, lists: Record<string, LookupList>) {
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

  return async (field: string, search: string, page: number, signal?: AbortSignal): Promise<LookupPage> => {
    const list = lists[field];
    if (!list) throw new Error(`no lookup list ${table}.${field}`);
    const name = `${table}.${field}`;
    if (!SEARCHED_IN_SQL.has(name)) {
      return lookupPage(await entriesOf(name, list), search, page, (entry) => entry.folded);
    }
    const params: Param[] = [];
    const clauses = [`${list.column} <> ''`];
    if (list.where) clauses.push(list.where);
    if (search !== '') {
      params.push(containsPattern(foldCase(search)));
      clauses.push(`tracker_fold(${list.column}) LIKE $1`);
    }
    params.push(PAGE + 1, (page - 1) * PAGE);
    const found = await values(
      sql,
      `SELECT ${list.column} FROM ${list.from} WHERE ${clauses.join(' AND ')}
       ORDER BY ${list.column} LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
      signal,
    );
    const results = found.slice(0, PAGE).map(([value]) => ({ value: String(value), text: String(value) }));
    return { results, pagination: { more: found.length > PAGE } };
  };
}

const GENERATOR_TOTALS = totalsSelect(
  GENERATOR_QUERY.totals,
  (quantity) => `t.${GENERATOR_QUANTITY_COLUMNS[quantity]}`,
);
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

export function pgGeneratorReads(sql: Sql, cache: VersionedCache): GeneratorReads {
  const lookup = lookups(sql, cache, 'generators', GENERATOR_LOOKUP_LISTS);
  return {
    async page(query, signal) {
      const where = generatorWhere(query.filterFields, query.searchKey);
      const columns = query.fields.map((field) => `t.${field}`).join(', ');
      const at = where.params.length;
      const [totalElements, content] = await Promise.all([
        countOf(sql, cache, 'generators', where, signal),
        rows<Record<string, unknown>>(
          sql,
          `SELECT ${columns} FROM generators t ${where.sql} ${orderBy(query.sort, GENERATOR_QUERY.key)}
           LIMIT $${at + 1} OFFSET $${at + 2}`,
          [...where.params, query.pageSize, query.page * query.pageSize],
          signal,
        ),
      ]);
      return { totalElements, content: content.map((row) => ({ ...row })) };
    },
    totals: (filters, searchKey, signal) =>
      totalsOf<GeneratorTotalsRow>(
        sql,
        cache,
        'generators',
        GENERATOR_TOTALS,
        generatorWhere(filters, searchKey),
        signal,
      ),
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

export function pgManifestReads(sql: Sql, cache: VersionedCache): ManifestReads {
  const lookup = lookups(sql, cache, 'manifests', MANIFEST_LOOKUP_LISTS);
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
            `SELECT ${columns.join(', ')}, t.id${lines ? ', octet_length(w.json)' : ''}
             FROM (SELECT s.manifest_id, s.shipped_date, s.manifest_tracking_number FROM manifest_line_sets s
                   WHERE ${range.sql} ORDER BY s.shipped_date DESC, s.manifest_tracking_number DESC
                   LIMIT $${at + 1} OFFSET $${at + 2}) s
             JOIN manifests t ON t.id = s.manifest_id
             ${lines ? 'LEFT JOIN manifest_waste_lines_json w ON w.manifest_id = t.id' : ''}
             ORDER BY s.shipped_date DESC, s.manifest_tracking_number DESC`,
            [...range.params, query.pageSize, query.page * query.pageSize],
            signal,
          ),
        ]);
        return manifestPageBytes(totals.shipped_count, page, fields);
      }
      const at = where.params.length;
      const [totalElements, page] = await Promise.all([
        countOf(sql, cache, 'manifests', where, signal),
        values(
          sql,
          `SELECT ${columns.join(', ')}, t.id${lines ? ', octet_length(w.json)' : ''} FROM manifests t
           ${lines ? 'LEFT JOIN manifest_waste_lines_json w ON w.manifest_id = t.id' : ''}
           ${where.sql} ${orderBy(query.sort, MANIFEST_QUERY.key)} LIMIT $${at + 1} OFFSET $${at + 2}`,
          [...where.params, query.pageSize, query.page * query.pageSize],
          signal,
        ),
      ]);
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
          `SELECT round(coalesce(sum(total_waste_quantity_tons::numeric), 0), 4)::float8 FROM manifests
           WHERE generator_id = $1 AND shipped_date BETWEEN $2 AND $3`,
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
