/**
 * What every filterFields member matches (docs/api.md "filterFields"), as predicates over plain rows: values
 * inside a member are OR-ed, members are AND-ed, an absent or empty member restricts nothing, matching is
 * exact. The server's SQL follows these (test/server/query-semantics.test.ts holds it to them); an offline
 * engine runs them as they are. Pure functions: no zod, no Node, no DOM.
 */
import type { GeneratorFilterFields } from '../api/generators.ts';
import type { ManifestFilterFields } from '../api/manifests.ts';
import { GENERATOR_SEARCH_FIELDS, MANIFEST_SEARCH_FIELDS } from './index.ts';
import { matchesAnySearch } from './search.ts';

/** The generator fields the filters and the search read. */
export type GeneratorRow = Readonly<
  Record<
    'location_city' | 'primary_naics_code' | 'epa_handler_id' | 'location_state' | 'generator_name',
    string
  > &
    Record<(typeof GENERATOR_SEARCH_FIELDS)[number], string>
>;

/**
 * What the generator members over shipments and statuses need beyond the row: derived from the generator's
 * manifests and waste lines, and from its detail. None holds "".
 */
export interface GeneratorFacts {
  /** Years (`"2024"`) of its manifests' shipped dates. */
  shippedYears: ReadonlySet<string>;
  /** Federal waste codes on its manifests' waste lines (each line's comma-separated list, trimmed). */
  wasteCodes: ReadonlySet<string>;
  /** Management method codes on its manifests' waste lines. */
  handlingCodes: ReadonlySet<string>;
  /** Its registration status and its federal generator status (detail: federal_generator_status_universe). */
  statuses: ReadonlySet<string>;
}

type Test<Row, Facts> = (row: Row, facts: Facts, value: string) => boolean;

/** Per generator member: does this one value match the generator? */
export const GENERATOR_MEMBER_TESTS: {
  [Member in keyof GeneratorFilterFields]-?: Test<GeneratorRow, GeneratorFacts>;
} = {
  shippedYears: (_row, facts, year) => facts.shippedYears.has(year),
  cities: (row, _facts, city) => row.location_city === city,
  naics: (row, _facts, code) => row.primary_naics_code === code,
  ids: (row, _facts, id) => row.epa_handler_id === id,
  states: (row, _facts, state) => row.location_state === state,
  // Members over sets of codes never match "": an empty value carries no code (docs/api.md).
  wasteCodes: (_row, facts, code) => code !== '' && facts.wasteCodes.has(code),
  names: (row, _facts, name) => row.generator_name === name,
  statuses: (_row, facts, status) => status !== '' && facts.statuses.has(status),
  handlingCodes: (_row, facts, code) => code !== '' && facts.handlingCodes.has(code),
};

function oneOf(values: readonly string[] | undefined, holds: (value: string) => boolean): boolean {
  return values === undefined || values.length === 0 || values.some(holds);
}

/** True when the generator matches every member of `filters` and the search key. */
export function generatorMatches(
  row: GeneratorRow,
  facts: GeneratorFacts,
  filters: GeneratorFilterFields,
  searchKey = '',
): boolean {
  for (const [member, test] of Object.entries(GENERATOR_MEMBER_TESTS) as [
    keyof GeneratorFilterFields,
    Test<GeneratorRow, GeneratorFacts>,
  ][]) {
    if (!oneOf(filters[member], (value) => test(row, facts, value))) return false;
  }
  return matchesAnySearch(
    GENERATOR_SEARCH_FIELDS.map((field) => row[field]),
    searchKey,
  );
}

/** The manifest fields the filters and the search read. */
export type ManifestRow = Readonly<
  Record<
    'generator_name' | 'transporter' | 'designated_facility_name' | 'shipped_date' | 'received_date',
    string
  > &
    Record<(typeof MANIFEST_SEARCH_FIELDS)[number], string>
>;

/** What the manifest members over waste lines need: the codes its waste lines carry. None holds "". */
export interface ManifestFacts {
  /** The waste lines' usdot_id_number values. */
  dotIds: ReadonlySet<string>;
  /** The waste lines' container_type_code values. */
  containerTypes: ReadonlySet<string>;
  /** The waste lines' management method codes (management_method_code). */
  handlingCodes: ReadonlySet<string>;
}

/** Per manifest list member: does this one value match the manifest? */
export const MANIFEST_MEMBER_TESTS = {
  generator_names: (row, _facts, name) => row.generator_name === name,
  transporter_names: (row, _facts, name) => row.transporter === name,
  designated_facility_names: (row, _facts, name) => row.designated_facility_name === name,
  dot_id_nos: (_row, facts, id) => id !== '' && facts.dotIds.has(id),
  container_types: (_row, facts, type) => type !== '' && facts.containerTypes.has(type),
  handling_codes: (_row, facts, code) => code !== '' && facts.handlingCodes.has(code),
} as const satisfies Record<string, Test<ManifestRow, ManifestFacts>>;

/**
 * Per date member: the bound it sets, inclusive. Dates are `YYYY-MM-DD`, so text order is date order; a
 * bound that is absent or "" is no bound.
 */
export const MANIFEST_DATE_TESTS = {
  shipped_date_start: (row, date) => row.shipped_date >= date,
  shipped_date_end: (row, date) => row.shipped_date <= date,
  received_date_start: (row, date) => row.received_date >= date,
  received_date_end: (row, date) => row.received_date <= date,
} as const satisfies Record<string, (row: ManifestRow, date: string) => boolean>;

/** True when the manifest matches every member of `filters` and the search key. */
export function manifestMatches(
  row: ManifestRow,
  facts: ManifestFacts,
  filters: ManifestFilterFields,
  searchKey = '',
): boolean {
  for (const [member, test] of Object.entries(MANIFEST_MEMBER_TESTS)) {
    const values = filters[member as keyof typeof MANIFEST_MEMBER_TESTS];
    if (!oneOf(values, (value) => test(row, facts, value))) return false;
  }
  for (const [member, test] of Object.entries(MANIFEST_DATE_TESTS)) {
    const date = filters[member as keyof typeof MANIFEST_DATE_TESTS];
    if (date && !test(row, date)) return false;
  }
  return matchesAnySearch(
    MANIFEST_SEARCH_FIELDS.map((field) => row[field]),
    searchKey,
  );
}

/** A manifest's facts from its waste lines as stored (or as an offline engine keeps them). */
export function manifestFacts(
  lines: readonly {
    usdot_id_number: string;
    container_type_code: string;
    management_method_code: string;
  }[],
): ManifestFacts {
  const codes = (pick: (line: (typeof lines)[number]) => string) =>
    new Set(lines.map(pick).filter((code) => code !== ''));
  return {
    dotIds: codes((line) => line.usdot_id_number),
    containerTypes: codes((line) => line.container_type_code),
    handlingCodes: codes((line) => line.management_method_code),
  };
}
