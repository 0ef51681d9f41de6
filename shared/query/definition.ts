/**
 * What a list request means, as data (docs/api.md "Query semantics"): for each list, every filterFields
 * member with the row field or derived fact it reads and how a value compares, the search fields, the sort
 * fields with the public-key tie-break, and the totals as named reductions with their rounding.
 *
 * Nothing here runs a query. The server's SQL and in-memory counts (server/src/repositories/sqlite-query.ts,
 * generator-matches.ts), the offline engine's member indexes, ranges and totals
 * (renderer/src/offline/engine/) and the test oracle (test/helpers/query-oracle.ts) are built from these
 * entries, so a member, a search field or a total is written once. Adding a filter member is one entry in
 * `members` (beside its wire schema in shared/api) plus the database index that serves it; a member over a
 * new derived fact also needs that fact derived where each engine keeps its rows (the maps typed by
 * `GeneratorFact` and `ManifestFact` name every place).
 *
 * How members combine is the same for every list: the values of one member are OR-ed, the members and the
 * search are AND-ed, and an absent or empty member restricts nothing.
 */
import { GENERATOR_FIELDS, type GeneratorField, type GeneratorFilterFields } from '../api/generators.ts';
import {
  MANIFEST_FIELDS,
  type WASTE_LINE_FIELDS,
  type ManifestField,
  type ManifestFilterFields,
} from '../api/manifests.ts';

export type SortDirection = 'asc' | 'desc';
export interface Sort<Field extends string> {
  field: Field;
  direction: SortDirection;
}

/**
 * One filter member.
 * - `equals`: a list of values; one matches a row whose `field` is exactly that text.
 * - `holds`: a list of values; one matches a row whose derived `fact` (a set of codes) holds it. A fact never
 *   holds "", so "" matches no row.
 * - `from` / `to`: one value, an inclusive lower / upper bound on `field` in the field's order (dates are
 *   YYYY-MM-DD text, so text order is date order); "" or absent is no bound.
 */
export type Member<Field extends string, Fact extends string> =
  { match: 'equals'; field: Field } | { match: 'holds'; fact: Fact } | { match: 'from' | 'to'; field: Field };

/**
 * A number each row has, which totals reduce: a row field, or one derived from the row's records (`derived`
 * says what it is; every engine derives it from the records it keeps).
 */
export type Quantity<Field extends string> = { field: Field } | { derived: string };

/**
 * One total over the rows a request matches.
 * - `rows`: how many rows match.
 * - `sum`: the sum of a quantity, added with Neumaier's compensation as SQLite's sum() adds, then rounded to
 *   `decimals` places when given (whole numbers add exactly either way).
 * - `rowsAbove0`: how many matching rows have the quantity above zero.
 */
export type Reduction<Quantity extends string> =
  | { reduce: 'rows' }
  | { reduce: 'sum'; of: Quantity; decimals?: number }
  | { reduce: 'rowsAbove0'; of: Quantity };

export interface ListDefinition<
  Field extends string,
  Filters extends object,
  Fact extends string,
  QuantityName extends string,
  Total extends string,
> {
  /** The public unique key every row carries: the last tie-break of every order. */
  key: Field;
  /** The fields a list can be sorted by; ties are broken by `key` in the same direction. */
  sortFields: readonly Field[];
  defaultSort: Sort<Field>;
  /** searchKey matches a case-insensitive substring of any one of these (shared/query/search.ts). */
  searchFields: readonly Field[];
  members: { [Name in keyof Filters & string]-?: Member<Field, Fact> };
  /** What each derived fact holds, in words: every engine derives it from the records it keeps. */
  facts: Record<Fact, string>;
  quantities: Record<QuantityName, Quantity<Field>>;
  /** The totals answer's members, in the order the answer writes them. */
  totals: Record<Total, Reduction<QuantityName>>;
}

/** The generator facts the filter members over shipments and statuses read. */
export type GeneratorFact = 'shippedYears' | 'wasteCodes' | 'handlingCodes' | 'statuses';
export type GeneratorQuantity = 'shippedTons' | 'shippedCount' | 'containerCount';
export type GeneratorTotal = 'epa_total' | 'shipped_count' | 'container_count' | 'mmc_count';

export const GENERATOR_QUERY = {
  key: 'epa_handler_id',
  sortFields: GENERATOR_FIELDS,
  defaultSort: { field: 'generator_name', direction: 'asc' },
  searchFields: [
    'epa_handler_id',
    'generator_name',
    'physical_address',
    'location_city',
    'location_state',
    'location_zip',
    'contact_name',
    'primary_naics_code',
    'primary_naics_desc',
  ],
  members: {
    shippedYears: { match: 'holds', fact: 'shippedYears' },
    cities: { match: 'equals', field: 'location_city' },
    naics: { match: 'equals', field: 'primary_naics_code' },
    ids: { match: 'equals', field: 'epa_handler_id' },
    states: { match: 'equals', field: 'location_state' },
    wasteCodes: { match: 'holds', fact: 'wasteCodes' },
    names: { match: 'equals', field: 'generator_name' },
    statuses: { match: 'holds', fact: 'statuses' },
    handlingCodes: { match: 'holds', fact: 'handlingCodes' },
  },
  facts: {
    shippedYears: 'the years ("2024") of its manifests’ shipped dates',
    wasteCodes: 'the federal waste codes on its manifests’ waste lines (each line’s comma-separated list)',
    handlingCodes: 'the management method codes on its manifests’ waste lines',
    statuses: 'its registration status and its federal generator status',
  },
  // Each reduces its manifests' quantities as GENERATOR_FROM_MANIFESTS says.
  quantities: {
    shippedTons: { derived: 'the tons its manifests shipped' },
    shippedCount: { derived: 'how many manifests it shipped' },
    containerCount: { derived: 'the containers on its manifests' },
  },
  totals: {
    epa_total: { reduce: 'sum', of: 'shippedTons', decimals: 4 },
    shipped_count: { reduce: 'sum', of: 'shippedCount' },
    container_count: { reduce: 'sum', of: 'containerCount' },
    // "Total shippers": generators with at least one manifest.
    mmc_count: { reduce: 'rowsAbove0', of: 'shippedCount' },
  },
} as const satisfies ListDefinition<
  GeneratorField,
  GeneratorFilterFields,
  GeneratorFact,
  GeneratorQuantity,
  GeneratorTotal
>;

/** The manifest facts the filter members over waste lines read. */
export type ManifestFact = 'dotIds' | 'containerTypes' | 'handlingCodes';
export type ManifestQuantity = 'total_waste_quantity_tons' | 'container_count' | 'waste_stream_count';
export type ManifestTotal = 'total_waste' | 'shipped_count' | 'container_count' | 'waste_streams';

export const MANIFEST_QUERY = {
  key: 'manifest_tracking_number',
  // Every scalar field: waste_lines is a list.
  sortFields: MANIFEST_FIELDS.filter((field) => field !== 'waste_lines'),
  defaultSort: { field: 'shipped_date', direction: 'desc' },
  searchFields: [
    'manifest_tracking_number',
    'generator_name',
    'generator_epa_id',
    'transporter',
    'designated_facility_name',
  ],
  members: {
    generator_names: { match: 'equals', field: 'generator_name' },
    transporter_names: { match: 'equals', field: 'transporter' },
    designated_facility_names: { match: 'equals', field: 'designated_facility_name' },
    dot_id_nos: { match: 'holds', fact: 'dotIds' },
    container_types: { match: 'holds', fact: 'containerTypes' },
    handling_codes: { match: 'holds', fact: 'handlingCodes' },
    shipped_date_start: { match: 'from', field: 'shipped_date' },
    shipped_date_end: { match: 'to', field: 'shipped_date' },
    received_date_start: { match: 'from', field: 'received_date' },
    received_date_end: { match: 'to', field: 'received_date' },
  },
  facts: {
    dotIds: 'the DOT id numbers (usdot_id_number) of its waste lines',
    containerTypes: 'the container type codes (container_type_code) of its waste lines',
    handlingCodes: 'the management method codes of its waste lines (the code mmc_and_desc starts with)',
  },
  quantities: {
    total_waste_quantity_tons: { field: 'total_waste_quantity_tons' },
    container_count: { field: 'container_count' },
    waste_stream_count: { field: 'waste_stream_count' },
  },
  totals: {
    total_waste: { reduce: 'sum', of: 'total_waste_quantity_tons', decimals: 4 },
    shipped_count: { reduce: 'rows' },
    container_count: { reduce: 'sum', of: 'container_count' },
    waste_streams: { reduce: 'sum', of: 'waste_stream_count' },
  },
} as const satisfies ListDefinition<
  ManifestField,
  ManifestFilterFields,
  ManifestFact,
  ManifestQuantity,
  ManifestTotal
>;

/** The waste line fields (spec 2.6) that a manifest's quantities add up. */
export type LineQuantity = Extract<
  (typeof WASTE_LINE_FIELDS)[number],
  'waste_quantity_tons' | 'container_count'
>;

/**
 * How each manifest quantity is made from the manifest's waste lines, rounded as it is stored and served
 * (a manifest whose source states its total tons keeps the source's: server/src/import/). The server's
 * derived data on either database, the importer's first guess of a new manifest's totals and the demo
 * generator reduce by these.
 */
export const MANIFEST_FROM_LINES = {
  total_waste_quantity_tons: { reduce: 'sum', of: 'waste_quantity_tons', decimals: 4 },
  container_count: { reduce: 'sum', of: 'container_count' },
  waste_stream_count: { reduce: 'rows' },
} as const satisfies Record<ManifestQuantity, Reduction<LineQuantity>>;

/** The manifest quantities in MANIFEST_FROM_LINES' order. */
export const MANIFEST_QUANTITIES = Object.keys(MANIFEST_FROM_LINES) as ManifestQuantity[];

/**
 * How each generator quantity is made from its manifests' quantities, rounded as it is stored and served:
 * the server's derived data on either database, worked out whole or moved by what an import changed, reduce
 * by these.
 */
export const GENERATOR_FROM_MANIFESTS = {
  shippedTons: { reduce: 'sum', of: 'total_waste_quantity_tons', decimals: 4 },
  shippedCount: { reduce: 'rows' },
  containerCount: { reduce: 'sum', of: 'container_count' },
} as const satisfies Record<GeneratorQuantity, Reduction<ManifestQuantity>>;

/** The generator quantities in GENERATOR_FROM_MANIFESTS' order. */
export const GENERATOR_QUANTITIES = Object.keys(GENERATOR_FROM_MANIFESTS) as GeneratorQuantity[];

export type GeneratorMember = keyof typeof GENERATOR_QUERY.members;

type Matching<Members, Match> = Extract<Members[keyof Members], { match: Match }>;
/** The names of the members that match in this way. */
type NamesOf<Members, Match> = {
  [Name in keyof Members]: Members[Name] extends { match: Match } ? Name : never;
}[keyof Members] &
  string;

/** The members of a definition that list values (equals, holds), in its order, with how each reads a row. */
export function valuesMembers<Members extends Readonly<Record<string, Member<string, string>>>>(
  members: Members,
): [NamesOf<Members, 'equals' | 'holds'>, Matching<Members, 'equals' | 'holds'>][] {
  return Object.entries(members).filter(
    ([, member]) => member.match === 'equals' || member.match === 'holds',
  ) as [NamesOf<Members, 'equals' | 'holds'>, Matching<Members, 'equals' | 'holds'>][];
}

/** The members of a definition that bound a field (from, to), in its order, with the field and the side. */
export function boundMembers<Members extends Readonly<Record<string, Member<string, string>>>>(
  members: Members,
): [NamesOf<Members, 'from' | 'to'>, Matching<Members, 'from' | 'to'>][] {
  return Object.entries(members).filter(([, member]) => member.match === 'from' || member.match === 'to') as [
    NamesOf<Members, 'from' | 'to'>,
    Matching<Members, 'from' | 'to'>,
  ][];
}
