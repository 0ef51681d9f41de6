/**
 * The SQL of shared/query's definition, for SQLite: every piece of SQL text that a list request's meaning
 * decides is built here, from the definition (shared/query/definition.ts) and where the server stores each
 * derived fact and quantity (fact-storage.ts):
 * - the WHERE clause of a request with its bound parameters (`generatorWhere`, `manifestWhere`): values
 *   inside a member OR-ed, members AND-ed, an empty or absent member no restriction, and the search;
 * - the shapes of a request the manifests repository answers from a cheaper index (`singleLineSet`,
 *   `receivedWindow`);
 * - the query listing each value's generators for a filter member, which the in-memory counts read
 *   (`memberIdsSql`), and the generators' quantities (`generatorQuantitiesSql`);
 * - the totals as SQL reductions (`totalsSql`, `totalsSelect`), and before rounding (`partialTotalsSql`).
 * A PostgreSQL backend is a sibling of this file built from the same definition and storage; the text only
 * SQLite reads is here: `json_group_array`, a sum of comparisons, `+column` to steer the planner.
 */
import type { GeneratorFilterFields, ManifestFilterFields } from '../../../shared/api/index.ts';
import {
  GENERATOR_QUERY,
  MANIFEST_QUERY,
  boundMembers,
  valuesMembers,
  type GeneratorMember,
  type GeneratorQuantity,
  type Reduction,
} from '../../../shared/query/definition.ts';
import {
  GENERATOR_FACT_TABLES,
  GENERATOR_QUANTITY_COLUMNS,
  MANIFEST_FACT_SETS,
  type LineSetMember,
} from './fact-storage.ts';
import { reductionsSql, selectList, type ReductionDialect } from './reduction-sql.ts';

/** How a filter over a per-row set is written: probed per row (pages) or copied once (totals). */
export type SetStyle = 'probe' | 'list';

/** A searchKey as a clause over the table's rows (repositories/trigram-search.ts). */
export interface SearchClause {
  sql: string;
  params: (string | number)[];
  /** Rows matching the search alone, when the index answered it. */
  matches?: number;
  /** Their ids, when the index answered it. */
  ids?: readonly number[];
}

export interface Where {
  /** `WHERE …` or '' — always qualified with the table alias `t`. */
  sql: string;
  params: (string | number)[];
  /** True when no filter and no search applies: the whole table. */
  unfiltered: boolean;
  /** The number of matching rows, when already known (a search alone). */
  count: number | undefined;
  /** A cheaper count when one set filter is the only clause: its set holds one row per matching id. */
  countQuery: { sql: string; params: (string | number)[] } | undefined;
  /** The request is one value of one column and nothing else: counted from that column's value counts. */
  countOf: { column: string; value: string } | undefined;
}

class WhereBuilder {
  private readonly clauses: string[] = [];
  readonly params: (string | number)[] = [];
  private searchMatches: number | undefined;
  private setCount: { sql: string; params: (string | number)[] } | undefined;
  private columnValue: { column: string; value: string } | undefined;
  private readonly sets: SetStyle;

  constructor(sets: SetStyle = 'probe') {
    this.sets = sets;
  }

  /** `column IN (?, …)` for a non-empty list. */
  in(column: string, values: readonly string[] | undefined): this {
    if (!values || values.length === 0) return this;
    this.clauses.push(`${column} IN (${placeholders(values.length)})`);
    this.params.push(...values);
    const [value] = values;
    if (values.length === 1 && value !== undefined) this.columnValue = { column, value };
    return this;
  }

  /** `t.id IN (SELECT <idColumn> FROM <table> WHERE <column> IN (?, …))` for a set kept beside the rows. */
  inSet(table: string, column: string, idColumn: string, values: readonly string[] | undefined): this {
    if (!values || values.length === 0) return this;
    const where = `${column} IN (${placeholders(values.length)})`;
    // For a page, a probe of the set's key per candidate row: the sort index is walked and stops once the
    // page is full, where `t.id IN (SELECT …)` would first copy a set of tens of thousands of ids. Totals
    // read every matching row anyway, and copying the set once is then the cheaper way.
    this.clauses.push(
      this.sets === 'probe'
        ? `EXISTS (SELECT 1 FROM ${table} s WHERE s.${where} AND s.${idColumn} = t.id)`
        : `t.id IN (SELECT ${idColumn} FROM ${table} WHERE ${where})`,
    );
    this.params.push(...values);
    this.setCount = {
      sql: `SELECT count(DISTINCT ${idColumn}) FROM ${table} WHERE ${where}`,
      params: [...values],
    };
    return this;
  }

  raw(sql: string, ...params: (string | number)[]): this {
    this.clauses.push(sql);
    this.params.push(...params);
    return this;
  }

  search(clause: SearchClause | undefined): this {
    if (!clause) return this;
    this.searchMatches = clause.matches;
    return this.raw(clause.sql, ...clause.params);
  }

  build(): Where {
    return {
      sql: this.clauses.length === 0 ? '' : `WHERE ${this.clauses.join(' AND ')}`,
      params: this.params,
      unfiltered: this.clauses.length === 0,
      count: this.clauses.length === 1 ? this.searchMatches : undefined,
      countQuery: this.clauses.length === 1 ? this.setCount : undefined,
      countOf: this.clauses.length === 1 ? this.columnValue : undefined,
    };
  }
}

function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

const BOUND_OPERATORS = { from: '>=', to: '<=' } as const;

/** True when a member's value restricts something: a non-empty list, or a non-empty bound. */
function restricts(value: readonly string[] | string | undefined): boolean {
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}

/**
 * The generator members that compare a column, then those over a fact's set: comparing a column costs less
 * than probing a set, and SQLite tests the terms in the order written.
 */
const GENERATOR_VALUES_MEMBERS = valuesMembers(GENERATOR_QUERY.members).sort(
  ([, a], [, b]) => Number(a.match === 'holds') - Number(b.match === 'holds'),
);

/** The generator columns one member compares exactly, each counted per value (paged-list `valueCounts`). */
export const GENERATOR_FILTER_COLUMNS = GENERATOR_VALUES_MEMBERS.flatMap(([, member]) =>
  member.match === 'equals' ? [`t.${member.field}`] : [],
);

export function generatorWhere(
  filters: GeneratorFilterFields,
  search?: SearchClause,
  sets: SetStyle = 'probe',
): Where {
  const builder = new WhereBuilder(sets);
  for (const [name, member] of GENERATOR_VALUES_MEMBERS) {
    if (member.match === 'equals') builder.in(`t.${member.field}`, filters[name]);
    else {
      const { table, column } = GENERATOR_FACT_TABLES[member.fact];
      builder.inSet(table, column, 'generator_id', filters[name]);
    }
  }
  return builder.search(search).build();
}

/** The SQL listing, for each value of a generator member, its generators' ids as a JSON array. */
export function memberIdsSql(name: GeneratorMember): string {
  const member = GENERATOR_QUERY.members[name];
  if (member.match === 'equals') {
    return `SELECT ${member.field}, json_group_array(id) FROM generators GROUP BY 1`;
  }
  const { table, column } = GENERATOR_FACT_TABLES[member.fact];
  return `SELECT ${column}, json_group_array(generator_id) FROM ${table} GROUP BY 1`;
}

/** Every generator's id and its quantities, in the definition's order of quantities. */
export function generatorQuantitiesSql(): string {
  const quantities = Object.keys(GENERATOR_QUERY.quantities) as GeneratorQuantity[];
  const columns = quantities.map((quantity) => GENERATOR_QUANTITY_COLUMNS[quantity]);
  return `SELECT id, ${columns.join(', ')} FROM generators`;
}

const MANIFEST_VALUES_MEMBERS = valuesMembers(MANIFEST_QUERY.members);
const MANIFEST_BOUND_MEMBERS = boundMembers(MANIFEST_QUERY.members);

/** The manifest columns one member compares exactly, each counted per value (paged-list `valueCounts`). */
export const MANIFEST_FILTER_COLUMNS = MANIFEST_VALUES_MEMBERS.flatMap(([, member]) =>
  member.match === 'equals' ? [`t.${member.field}`] : [],
);

export function manifestWhere(filters: ManifestFilterFields, search?: SearchClause): Where {
  const builder = new WhereBuilder();
  for (const [name, member] of MANIFEST_VALUES_MEMBERS) {
    const values = filters[name];
    if (member.match === 'equals') builder.in(`t.${member.field}`, values);
    else if (values && values.length > 0) {
      builder.raw(
        `t.id IN (SELECT manifest_id FROM manifest_line_sets WHERE member = ? AND code IN (${placeholders(values.length)}))`,
        MANIFEST_FACT_SETS[member.fact].member,
        ...values,
      );
    }
  }
  for (const [name, member] of MANIFEST_BOUND_MEMBERS) {
    const value = filters[name];
    if (value) builder.raw(`t.${member.field} ${BOUND_OPERATORS[member.match]} ?`, value);
  }
  return builder.search(search).build();
}

/**
 * A manifest request that one value of one waste-line member decides, with at most bounds on the shipped
 * date beside it: the common "pick one DOT id" case, answered from manifest_line_sets' key alone, which
 * carries each manifest's shipped date (the default order).
 */
export interface SingleLineSet {
  member: LineSetMember;
  code: string;
  /** `shipped_date >= ?` and the like, on manifest_line_sets' copy of the shipped date. */
  bounds: { sql: string; value: string }[];
}

export function singleLineSet(filters: ManifestFilterFields, searchKey: string): SingleLineSet | undefined {
  if (searchKey !== '') return undefined;
  const used = MANIFEST_VALUES_MEMBERS.filter(([name]) => restricts(filters[name]));
  const [only] = used;
  if (used.length !== 1 || !only || only[1].match !== 'holds') return undefined;
  const values = filters[only[0]];
  if (values?.length !== 1 || values[0] === undefined) return undefined;
  const bounds: SingleLineSet['bounds'] = [];
  for (const [name, member] of MANIFEST_BOUND_MEMBERS) {
    const value = filters[name];
    if (!value) continue;
    if (member.field !== MANIFEST_QUERY.defaultSort.field) return undefined;
    bounds.push({ sql: `${member.field} ${BOUND_OPERATORS[member.match]} ?`, value });
  }
  return { member: MANIFEST_FACT_SETS[only[1].fact].member, code: values[0], bounds };
}

/** How many days a manifest's receipt may follow its shipment, over the whole dataset. */
export interface ReceiptLag {
  minDays: number;
  maxDays: number;
}

const isDate = (value: string | undefined): value is string => Boolean(value);

function addDays(date: string, days: number): string {
  const time = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(time).toISOString().slice(0, 10);
}

/**
 * A request filtered by received date (and perhaps shipped date) alone, read in the default order: its rows
 * are found by walking the shipped-date index inside the shipped window the receipt lag allows, newest
 * first, instead of sorting every manifest received in the range. The received bounds are written `+col`
 * so SQLite does not pick the received-date index and sort. Undefined when a member that lists values or a
 * search takes part, or when there is no received bound.
 */
export function receivedWindow(
  filters: ManifestFilterFields,
  searchKey: string,
  lag: ReceiptLag,
): Where | undefined {
  const { received_date_start: start, received_date_end: end } = filters;
  if ((!start && !end) || searchKey !== '') return undefined;
  if (MANIFEST_VALUES_MEMBERS.some(([name]) => restricts(filters[name]))) return undefined;
  const lowest = [filters.shipped_date_start, start && addDays(start, -lag.maxDays)].filter(isDate);
  const highest = [filters.shipped_date_end, end && addDays(end, -lag.minDays)].filter(isDate);
  const bounds: [string, string | undefined][] = [
    ['+t.received_date >= ?', start],
    ['+t.received_date <= ?', end],
    ['t.shipped_date >= ?', lowest.sort().at(-1)],
    ['t.shipped_date <= ?', highest.sort().at(0)],
  ];
  const used = bounds.filter((bound): bound is [string, string] => Boolean(bound[1]));
  return {
    sql: `WHERE ${used.map(([clause]) => clause).join(' AND ')}`,
    params: used.map(([, value]) => value),
    unfiltered: false,
    count: undefined,
    countQuery: undefined,
    countOf: undefined,
  };
}

/** SQLite's reductions: sums added with Neumaier's compensation, as shared/query/totals.ts adds. */
const SQLITE_TOTALS: ReductionDialect = {
  rows: 'count(*)',
  sum: (column) => `coalesce(sum(${column}), 0)`,
  rowsAbove0: (column) => `coalesce(sum(${column} > 0), 0)`,
  sumValue: (sql) => sql,
  rounds: true,
};

/** The same before rounding: parts that add up. */
const SQLITE_PARTS: ReductionDialect = {
  rows: 'count(*)',
  sum: (column) => `total(${column})`,
  rowsAbove0: (column) => `total(${column} > 0)`,
  sumValue: (sql) => sql,
  rounds: false,
};

/** Each total of a definition as an SQL expression over the rows read, `column` naming where a quantity is. */
export function totalsSql<Quantity extends string, Total extends string>(
  totals: Readonly<Record<Total, Reduction<Quantity>>>,
  column: (quantity: Quantity) => string,
): [Total, string][] {
  return reductionsSql(totals, column, SQLITE_TOTALS);
}

/**
 * Each total of a definition before its rounding, as an SQL expression over the rows read: a count or a
 * sum, which adds up part by part. db/tallies.ts keeps the whole dataset's totals so, moving them by what
 * each import batch changes, and rounds them as the definition says when read (shared/query/totals.ts).
 */
export function partialTotalsSql<Quantity extends string, Total extends string>(
  totals: Readonly<Record<Total, Reduction<Quantity>>>,
  column: (quantity: Quantity) => string,
): [Total, string][] {
  return reductionsSql(totals, column, SQLITE_PARTS);
}

/** The totals as a select list, each named as the answer names it. */
export function totalsSelect<Quantity extends string, Total extends string>(
  totals: Readonly<Record<Total, Reduction<Quantity>>>,
  column: (quantity: Quantity) => string,
): string {
  return selectList(totalsSql(totals, column));
}
