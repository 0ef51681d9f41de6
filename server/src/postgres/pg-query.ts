/**
 * The SQL of shared/query's definition, for PostgreSQL: the sibling of db/sqlite-query.ts, built from the
 * same definition (shared/query/definition.ts) and the same storage layout (db/fact-storage.ts):
 * - the WHERE clause of a request with its bound parameters ($1, $2, …): values inside a member OR-ed,
 *   members AND-ed, an empty or absent member no restriction, and the search;
 * - the order: the sort field, then the list's public key in the same direction, text in code point order
 *   (every text column is COLLATE "C", pg-schema.ts);
 * - the totals as SQL reductions.
 * What only PostgreSQL reads is here: numbered parameters, LIKE over the folded search text (pg_trgm), sums
 * of doubles taken as exact numerics and rounded once (SQLite's sum() compensates instead; both give the
 * definition's total to the last digit shown).
 */
import type { GeneratorFilterFields, ManifestFilterFields } from '../../../shared/api/index.ts';
import {
  GENERATOR_QUERY,
  MANIFEST_QUERY,
  boundMembers,
  valuesMembers,
  type GeneratorMember,
  type Reduction,
  type Sort,
} from '../../../shared/query/definition.ts';
import { foldCase } from '../../../shared/query/search.ts';
import { GENERATOR_FACT_TABLES, MANIFEST_FACT_SETS } from '../db/fact-storage.ts';
import { reductionsSql, selectList, type ReductionDialect } from '../db/reduction-sql.ts';

export type Param = string | number;

/** A clause over `t`, the list's table, and the values its placeholders bind. */
export interface PgWhere {
  /** `WHERE …` or ''. */
  sql: string;
  params: Param[];
  /** True when nothing restricts the rows: the whole table. */
  unfiltered: boolean;
}

/** Collects clauses and numbers their parameters in the order they are bound. */
class PgWhereBuilder {
  private readonly clauses: string[] = [];
  readonly params: Param[] = [];

  /** `$n` for a new parameter. */
  bind(value: Param): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  list(values: readonly string[]): string {
    return values.map((value) => this.bind(value)).join(', ');
  }

  add(clause: string): void {
    this.clauses.push(clause);
  }

  build(): PgWhere {
    return {
      sql: this.clauses.length === 0 ? '' : `WHERE ${this.clauses.join(' AND ')}`,
      params: this.params,
      unfiltered: this.clauses.length === 0,
    };
  }
}

/** A LIKE pattern matching `text` anywhere, its wildcards and the escape character taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The search rule (shared/query/search.ts) over the row's folded search text. */
function addSearch(builder: PgWhereBuilder, searchKey: string): void {
  if (searchKey === '') return;
  builder.add(`t.search_text LIKE ${builder.bind(containsPattern(foldCase(searchKey)))}`);
}

const BOUND_OPERATORS = { from: '>=', to: '<=' } as const;

export function generatorWhere(filters: GeneratorFilterFields, searchKey: string): PgWhere {
  const builder = new PgWhereBuilder();
  for (const [name, member] of valuesMembers(GENERATOR_QUERY.members)) {
    const values = filters[name];
    if (!values || values.length === 0) continue;
    if (member.match === 'equals') builder.add(`t.${member.field} IN (${builder.list(values)})`);
    else {
      const { table, column } = GENERATOR_FACT_TABLES[member.fact];
      builder.add(
        `EXISTS (SELECT 1 FROM ${table} s WHERE s.${column} IN (${builder.list(values)}) AND s.generator_id = t.id)`,
      );
    }
  }
  addSearch(builder, searchKey);
  return builder.build();
}

export function manifestWhere(filters: ManifestFilterFields, searchKey: string): PgWhere {
  const builder = new PgWhereBuilder();
  for (const [name, member] of valuesMembers(MANIFEST_QUERY.members)) {
    const values = filters[name];
    if (!values || values.length === 0) continue;
    if (member.match === 'equals') builder.add(`t.${member.field} IN (${builder.list(values)})`);
    else {
      const set = MANIFEST_FACT_SETS[member.fact].member;
      builder.add(
        `EXISTS (SELECT 1 FROM manifest_line_sets s WHERE s.member = ${builder.bind(set)}
           AND s.code IN (${builder.list(values)}) AND s.manifest_id = t.id)`,
      );
    }
  }
  for (const [name, member] of boundMembers(MANIFEST_QUERY.members)) {
    const value = filters[name];
    if (value) builder.add(`t.${member.field} ${BOUND_OPERATORS[member.match]} ${builder.bind(value)}`);
  }
  addSearch(builder, searchKey);
  return builder.build();
}

/** ORDER BY the sort field and then the public key, both in the sort's direction. */
export function orderBy(sort: Sort<string>, key: string): string {
  const direction = sort.direction === 'asc' ? 'ASC' : 'DESC';
  const columns = sort.field === key ? [key] : [sort.field, key];
  return `ORDER BY ${columns.map((column) => `t.${column} ${direction}`).join(', ')}`;
}

/**
 * PostgreSQL's reductions: every value a float8 or int4, which the client reads as a JavaScript number; sums
 * add exactly (numeric), then round as the definition says.
 */
const PG_TOTALS: ReductionDialect = {
  rows: 'count(*)::int4',
  sum: (column) => `coalesce(sum(${column}::numeric), 0)`,
  rowsAbove0: (column) => `(count(*) FILTER (WHERE ${column} > 0))::int4`,
  sumValue: (sql) => `${sql}::float8`,
  rounds: true,
};

/** Each total of a definition as an SQL expression over the rows read, `column` naming where a quantity is. */
export function totalsSql<Quantity extends string, Total extends string>(
  totals: Readonly<Record<Total, Reduction<Quantity>>>,
  column: (quantity: Quantity) => string,
): [Total, string][] {
  return reductionsSql(totals, column, PG_TOTALS);
}

/** The totals as a select list, each named as the answer names it. */
export function totalsSelect<Quantity extends string, Total extends string>(
  totals: Readonly<Record<Total, Reduction<Quantity>>>,
  column: (quantity: Quantity) => string,
): string {
  return selectList(totalsSql(totals, column));
}

/**
 * Each value of a generator filter member and the ids of the generators holding it, as PostgreSQL arrays (the
 * sibling of db/sqlite-query.ts `memberIdsSql`): what the in-memory matches are built from (pg-matches.ts).
 */
export function memberIdsSql(name: GeneratorMember): string {
  const member = GENERATOR_QUERY.members[name];
  if (member.match === 'equals') return `SELECT ${member.field}, array_agg(id) FROM generators GROUP BY 1`;
  const { table, column } = GENERATOR_FACT_TABLES[member.fact];
  return `SELECT ${column}, array_agg(generator_id) FROM ${table} GROUP BY 1`;
}

/** Days between a manifest `t`'s shipment and its receipt. */
export const RECEIPT_LAG_DAYS = 't.received_date::date - t.shipped_date::date';

/** The manifests the receipt lag is taken over: those with both dates. */
export const RECEIPT_LAG_ROWS = "t.received_date <> '' AND t.shipped_date <> ''";

/**
 * The fewest and most days between shipment and receipt (db/tallies.ts `LAG_SELECT`) over the manifests
 * `t` read, as two float8 (null for none): what bounds a received-date page's window of shipped dates.
 */
export const RECEIPT_LAG_SELECT = `min(${RECEIPT_LAG_DAYS})::float8, max(${RECEIPT_LAG_DAYS})::float8`;
