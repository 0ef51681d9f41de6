/**
 * Turns filterFields and searchKey into one SQL WHERE clause with bound parameters (docs/api.md, "Query
 * semantics"): values inside a member are OR-ed, members are AND-ed, an empty or absent member is no
 * restriction, searchKey is a case-insensitive substring of any search field.
 */
import type { GeneratorFilterFields, ManifestFilterFields } from '../../../shared/api/index.ts';
import type { LineSetMember } from '../db/derive.ts';
import type { SearchClause } from './trigram-search.ts';

/** How a filter over a per-row set is written: probed per row (pages) or copied once (totals). */
export type SetStyle = 'probe' | 'list';

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

/** Filter members that match one column of the row exactly. */
export const GENERATOR_COLUMN_FILTERS = [
  ['t.location_state', 'states'],
  ['t.location_city', 'cities'],
  ['t.primary_naics_code', 'naics'],
  ['t.epa_handler_id', 'ids'],
  ['t.generator_name', 'names'],
] as const satisfies readonly (readonly [string, keyof GeneratorFilterFields])[];

export const MANIFEST_COLUMN_FILTERS = [
  ['t.generator_name', 'generator_names'],
  ['t.transporter', 'transporter_names'],
  ['t.designated_facility_name', 'designated_facility_names'],
] as const satisfies readonly (readonly [string, keyof ManifestFilterFields])[];

export function generatorWhere(
  filters: GeneratorFilterFields,
  search?: SearchClause,
  sets: SetStyle = 'probe',
): Where {
  const builder = new WhereBuilder(sets);
  for (const [column, member] of GENERATOR_COLUMN_FILTERS) builder.in(column, filters[member]);
  return (
    builder
      // A status is either the registration status or the federal generator status (docs/api.md).
      .inSet('generator_statuses', 'status', 'generator_id', filters.statuses)
      .inSet('generator_shipped_years', 'year', 'generator_id', filters.shippedYears)
      .inSet('generator_waste_codes', 'code', 'generator_id', filters.wasteCodes)
      .inSet('generator_handling_codes', 'code', 'generator_id', filters.handlingCodes)
      .search(search)
      .build()
  );
}

/**
 * A manifest request that one value of one waste-line member decides, with at most a shipped-date range
 * beside it: the common "pick one DOT id" case, answered from manifest_line_sets' key alone.
 */
export interface SingleLineSet {
  member: LineSetMember;
  code: string;
  shippedStart: string | undefined;
  shippedEnd: string | undefined;
}

export function singleLineSet(filters: ManifestFilterFields, searchKey: string): SingleLineSet | undefined {
  const lineMembers = (
    [
      ['dot', filters.dot_id_nos],
      ['container', filters.container_types],
      ['handling', filters.handling_codes],
    ] as const
  ).filter(([, values]) => values && values.length > 0);
  const [only] = lineMembers;
  const others = [filters.generator_names, filters.transporter_names, filters.designated_facility_names].some(
    (values) => values && values.length > 0,
  );
  if (lineMembers.length !== 1 || !only || others || searchKey !== '') return undefined;
  if (filters.received_date_start || filters.received_date_end) return undefined;
  const [member, values] = only;
  if (values?.length !== 1 || values[0] === undefined) return undefined;
  return {
    member,
    code: values[0],
    shippedStart: filters.shipped_date_start,
    shippedEnd: filters.shipped_date_end,
  };
}

function lineSet(
  member: LineSetMember,
  values: readonly string[] | undefined,
): [string, ...string[]] | undefined {
  if (!values || values.length === 0) return undefined;
  return [
    `t.id IN (SELECT manifest_id FROM manifest_line_sets WHERE member = ? AND code IN (${placeholders(values.length)}))`,
    member,
    ...values,
  ];
}

export function manifestWhere(filters: ManifestFilterFields, search?: SearchClause): Where {
  const builder = new WhereBuilder();
  for (const [column, member] of MANIFEST_COLUMN_FILTERS) builder.in(column, filters[member]);
  for (const [member, values] of [
    ['dot', filters.dot_id_nos],
    ['container', filters.container_types],
    ['handling', filters.handling_codes],
  ] as const) {
    const clause = lineSet(member, values);
    if (clause) builder.raw(...clause);
  }
  if (filters.shipped_date_start) builder.raw('t.shipped_date >= ?', filters.shipped_date_start);
  if (filters.shipped_date_end) builder.raw('t.shipped_date <= ?', filters.shipped_date_end);
  if (filters.received_date_start) builder.raw('t.received_date >= ?', filters.received_date_start);
  if (filters.received_date_end) builder.raw('t.received_date <= ?', filters.received_date_end);
  return builder.search(search).build();
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
 * so SQLite does not pick the received-date index and sort. Undefined when another member or a search
 * takes part, or when there is no received bound.
 */
export function receivedWindow(
  filters: ManifestFilterFields,
  searchKey: string,
  lag: ReceiptLag,
): Where | undefined {
  const { received_date_start: start, received_date_end: end } = filters;
  if ((!start && !end) || searchKey !== '') return undefined;
  const lists = [
    filters.generator_names,
    filters.transporter_names,
    filters.designated_facility_names,
    filters.dot_id_nos,
    filters.container_types,
    filters.handling_codes,
  ];
  if (lists.some((values) => values && values.length > 0)) return undefined;
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
