/**
 * Shared helpers of the server's HTTP test suite: calling the API over real HTTP, walking every page of a
 * list, and the truth about the dataset read straight from the SQLite file, independently of the server's
 * derived tables and queries, with shared/query's definition run over it (test/helpers/query-oracle.ts)
 * for what a request matches and in which order.
 */
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { expect } from 'vitest';
import { finalize } from '../../server/src/db/finalize.ts';
import { DEMO_USERS } from '../helpers/demo-users.ts';
import { send, type SentAnswer } from '../helpers/tracker-server.ts';
import type { GeneratorFilterFields, ManifestFilterFields } from '../../shared/api/index.ts';
import {
  GENERATOR_QUERY,
  MANIFEST_QUERY,
  type GeneratorFact,
  type GeneratorQuantity,
  type ManifestFact,
} from '../../shared/query/definition.ts';
import { matchesAnySearch } from '../../shared/query/search.ts';
import { comparator, matches } from '../helpers/query-oracle.ts';

// ---------------------------------------------------------------------------------------------------------
// What the spec's field tables and docs/api.md say, written out here so that the tests pin the documents
// rather than the shared constants the server is built from.

/** spec 2.2, in the spec's order. */
export const GENERATOR_FIELDS = [
  'epa_handler_id',
  'generator_name',
  'physical_address',
  'location_street_number',
  'location_street_1',
  'location_city',
  'location_state',
  'location_zip',
  'contact_name',
  'contact_phone_number',
  'contact_email',
  'primary_naics_code',
  'primary_naics_desc',
  'registration_status',
  'state_handler_id',
  'total_waste',
] as const;

/** spec 2.5, in the spec's order. */
export const MANIFEST_FIELDS = [
  'manifest_tracking_number',
  'generator_name',
  'transporter',
  'designated_facility_name',
  'shipped_date',
  'received_date',
  'total_waste_quantity_tons',
  'container_count',
  'waste_stream_count',
  'generator_location_state',
  'generator_epa_id',
  'waste_lines',
] as const;
/** spec 2.6, in the spec's order. */
export const WASTE_LINE_FIELDS = [
  'manifest_tracking_number',
  'waste_line_number',
  'usdot_haz_indicator',
  'usdot_id_number',
  'usdot_desc',
  'container_count',
  'container_type_code',
  'epa_waste_indicator',
  'waste_quantity_tons',
  'transporter',
  'federal_waste_codes',
  'mmc_and_desc',
] as const;

/** docs/api.md "searchKey": the fields the query definition searches. */
export const GENERATOR_SEARCH_FIELDS = GENERATOR_QUERY.searchFields;
export const MANIFEST_SEARCH_FIELDS = MANIFEST_QUERY.searchFields;

/** spec 4.2. */
export const GENERATOR_FILTER_MEMBERS = [
  'shippedYears',
  'cities',
  'naics',
  'ids',
  'states',
  'wasteCodes',
  'names',
  'statuses',
  'handlingCodes',
] as const satisfies readonly (keyof GeneratorFilterFields)[];

/** spec 4.6: the manifest members that list values, then the date bounds. */
export const MANIFEST_FILTER_MEMBERS = [
  'generator_names',
  'transporter_names',
  'designated_facility_names',
  'dot_id_nos',
  'container_types',
  'handling_codes',
  'shipped_date_start',
  'shipped_date_end',
  'received_date_start',
  'received_date_end',
] as const satisfies readonly (keyof ManifestFilterFields)[];

/** spec 4.3 plus docs/api.md's shipped_year and status; spec 4.7. */
export const GENERATOR_LOOKUP_FIELDS = [
  'generator_city',
  'naics',
  'epa_handler_id',
  'generator_state',
  'epa_waste_code',
  'generator_name',
  'mmc',
  'shipped_year',
  'status',
] as const;
export const MANIFEST_LOOKUP_FIELDS = [
  'manifest_number',
  'generator_name',
  'transporter_name',
  'designated_facility_name',
  'dot_id_no',
  'container_type',
  'handling_code',
] as const;

export const PATHS = {
  login: '/api/tracker/auth/login/',
  logout: '/api/tracker/auth/logout/',
  generators: '/api/tracker/generators/',
  generatorTotals: '/api/tracker/generators/aggregated_data/',
  generatorLookup: '/api/tracker/generators/filters/',
  detail: '/api/tracker/generators/details/',
  manifests: '/api/tracker/manifests/',
  manifestTotals: '/api/tracker/manifests/aggregated_data/',
  manifestLookup: '/api/tracker/shipments_and_waste_volumes/filters/',
} as const;

/** A signed-in caller of one server. */
export interface Session {
  baseUrl: string;
  token: string;
}

/** An HTTP answer with its body read: parsed JSON when there is any, else undefined. Calls go through `send`
 * (test/helpers/tracker-server.ts): injected into a server without a socket, else over real HTTP. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

function read({ status, headers, text }: SentAnswer): Answer {
  let body: unknown = undefined;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  return { status, headers, text, body };
}

function authorization(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

/** POSTs `body` as JSON (or `raw` text with its own content type). */
export async function post(
  baseUrl: string,
  path: string,
  token: string | undefined,
  body: unknown,
  options: { raw?: string; contentType?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const hasBody = options.raw !== undefined || body !== undefined;
  const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
  const answer = await send(baseUrl, path, {
    method: 'POST',
    headers: {
      ...(hasBody ? { 'content-type': options.contentType ?? 'application/json' } : {}),
      ...authorization(token),
      ...options.headers,
    },
    ...(payload === undefined ? {} : { body: payload }),
  });
  return read(answer);
}

/** GETs `path` with the query parameters given (a string is used as the query as is). */
export async function get(
  baseUrl: string,
  path: string,
  token: string | undefined,
  query: Record<string, string | number> | string = {},
): Promise<Answer> {
  const search =
    typeof query === 'string'
      ? query
      : new URLSearchParams(
          Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
        ).toString();
  const answer = await send(baseUrl, `${path}${search === '' ? '' : `?${search}`}`, {
    method: 'GET',
    headers: authorization(token),
  });
  return read(answer);
}

/** Signs in over HTTP and returns the session. */
export async function signInAs(baseUrl: string, username: string, password: string): Promise<Session> {
  const answer = await post(baseUrl, PATHS.login, undefined, { username, password });
  expect(answer.status, `sign-in as ${username}`).toBe(200);
  return { baseUrl, token: (answer.body as { access_token: string }).access_token };
}

export const INSPECTOR = DEMO_USERS.inspector;
export const GENERATORS_ONLY = DEMO_USERS.generatorsOnly;

/**
 * Adds generators that have shipped nothing to a database file, as copies of its first generator with the
 * columns given replaced, then finalizes the file as a loader would (derived sets, indexes, search index).
 * The demo data gives every generator manifests and only ASCII text; these fill the gaps. Call it before a
 * server opens the file.
 */
export function addGenerators(path: string, generators: readonly Record<string, string>[]): void {
  const db = new BetterSqlite3(path);
  try {
    const columns = (
      db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('generators') as string[]
    ).filter((column) => column !== 'id');
    for (const replaced of generators) {
      db.prepare(
        `INSERT INTO generators (${columns.join(', ')})
         SELECT ${columns.map((column) => (column in replaced ? '?' : column)).join(', ')}
         FROM generators WHERE id = (SELECT min(id) FROM generators)`,
      ).run(...columns.filter((column) => column in replaced).map((column) => replaced[column]));
    }
    finalize(db);
  } finally {
    db.close();
  }
}

/** A generator that has shipped nothing. */
export const IDLE_GENERATOR = { epa_handler_id: 'ZZD000000001', generator_name: 'Idle Test Generator Co' };

/**
 * Generators whose text is not ASCII: Latin letters with case (Unicode folding), and names that order
 * differently by UTF-16 code unit than by code point (U+FF3A is below U+1F600, but its code unit 0xFF3A
 * is above the surrogate 0xD83D).
 */
export const UNICODE_GENERATORS = [
  { epa_handler_id: 'ZZD000000002', generator_name: 'Ærø Økologi Åland', location_city: 'Ærøskøbing' },
  {
    epa_handler_id: 'ZZD000000003',
    generator_name: '\u{1F600} Smiley Supplies',
    location_city: '\u{1F600}ville',
  },
  {
    epa_handler_id: 'ZZD000000004',
    generator_name: '\u{FF3A}eta Fullwidth Works',
    location_city: '\u{FF3A}ity',
  },
];

/**
 * Manifests of the added non-ASCII generators (no waste lines), copied from the first manifest with a
 * tracking number, a transporter and a facility of non-ASCII text, so manifest text holds them too. Call it
 * after addGenerators(path, UNICODE_GENERATORS).
 */
export function addUnicodeManifests(path: string): void {
  const db = new BetterSqlite3(path);
  try {
    const insert = db.prepare(
      `INSERT INTO manifests (manifest_tracking_number, generator_id, generator_name, generator_epa_id,
         generator_location_state, transporter, designated_facility_name, shipped_date, received_date,
         total_waste_quantity_tons, container_count, waste_stream_count)
       SELECT ?, g.id, g.generator_name, g.epa_handler_id, g.location_state, ?, ?, m.shipped_date,
              m.received_date, m.total_waste_quantity_tons, m.container_count, 0
       FROM generators g, (SELECT * FROM manifests ORDER BY id LIMIT 1) m WHERE g.epa_handler_id = ?`,
    );
    UNICODE_GENERATORS.forEach((generator, index) => {
      insert.run(
        `ZZ${index}ÉÇØ`,
        `Transports ${generator.generator_name}`,
        'Straße Landfill',
        generator.epa_handler_id,
      );
    });
    finalize(db);
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Lists

export type Row = Record<string, unknown>;
export type ListKind = 'generators' | 'manifests';

export interface ListQuery {
  filterFields?: GeneratorFilterFields | ManifestFilterFields | Record<string, unknown>;
  searchKey?: string;
  sort?: string;
  selectedFields?: string;
  page?: number;
  pageSize?: number;
}

export interface ListAnswer {
  totalElements: number;
  content: Row[];
}

export function listBody(query: ListQuery): Record<string, unknown> {
  return {
    pageInfo: {
      page: query.page ?? 0,
      pageSize: query.pageSize ?? 50,
      filters: 'all=',
      selectedFields: query.selectedFields ?? '',
      sort: query.sort ?? '',
    },
    filterFields: query.filterFields ?? {},
    searchKey: query.searchKey ?? '',
  };
}

/** One page of a list; fails the test unless the answer is a 200 list envelope. */
export async function listPage(session: Session, kind: ListKind, query: ListQuery): Promise<ListAnswer> {
  const answer = await post(session.baseUrl, PATHS[kind], session.token, listBody(query));
  expect(answer.status, `${kind} ${JSON.stringify(query)} answered ${answer.text.slice(0, 300)}`).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  const body = answer.body as ListAnswer;
  expect(typeof body.totalElements).toBe('number');
  expect(Array.isArray(body.content)).toBe(true);
  return body;
}

/**
 * Every page of a list, in order: each page reports the same total, every page but the last is full, and
 * the pages together hold exactly `totalElements` rows.
 */
export async function walkAllPages(
  session: Session,
  kind: ListKind,
  query: Omit<ListQuery, 'page'>,
): Promise<{ totalElements: number; rows: Row[] }> {
  const pageSize = query.pageSize ?? 500;
  const first = await listPage(session, kind, { ...query, page: 0, pageSize });
  const totalElements = first.totalElements;
  const pages = Math.ceil(totalElements / pageSize);
  const rows = [...first.content];
  for (let page = 1; page < pages; page += 1) {
    const answer = await listPage(session, kind, { ...query, page, pageSize });
    expect(answer.totalElements, `total on page ${page}`).toBe(totalElements);
    rows.push(...answer.content);
  }
  if (pages > 0) {
    expect(first.content.length).toBe(Math.min(pageSize, totalElements));
  } else {
    expect(first.content).toEqual([]);
  }
  expect(rows.length, 'rows over all pages').toBe(totalElements);
  return { totalElements, rows };
}

/** The unique key of a row as the API returns it. */
export function rowKey(kind: ListKind, row: Row): string {
  const key = kind === 'generators' ? row.epa_handler_id : row.manifest_tracking_number;
  if (typeof key !== 'string') throw new Error(`row without its key: ${JSON.stringify(row)}`);
  return key;
}

// ---------------------------------------------------------------------------------------------------------
// Order (docs/api.md "sort"): text by code point (SQLite BINARY), numbers numerically, ties by the public key.

/** SQLite's BINARY collation over UTF-8 text: byte order, which is code point order. */
export function compareText(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

export type Direction = 'asc' | 'desc';

/**
 * Items ordered by `field` and then by the list's public unique key (EPA handler id, tracking number), both
 * in `direction`, as the definition orders rows.
 */
export function ordered<T extends { row: Row }>(
  items: readonly T[],
  field: string,
  direction: Direction,
): T[] {
  const definition = 'epa_handler_id' in (items[0]?.row ?? {}) ? GENERATOR_QUERY : MANIFEST_QUERY;
  const compare = comparator(definition, { field, direction });
  return [...items].sort((a, b) => compare(a.row, b.row));
}

/** Distinct values sorted in code point order. */
export function sortedDistinct(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareText);
}

// ---------------------------------------------------------------------------------------------------------
// Search (docs/api.md "searchKey"): a case-insensitive substring of one field, every key length folded by
// the one rule of shared/query/search.ts (the rule itself is held to SQLite's trigram index by
// search-fold.test.ts).

export function searchMatches(values: readonly string[], key: string): boolean {
  return matchesAnySearch(values, key);
}

/**
 * A search key cut from the middle of a stored value: `length` characters when some value is that long
 * (a middle value by length, so the key is neither the rarest nor the most common), else the longest value.
 */
export function fragmentOf(values: readonly string[], length: number): string {
  const long = values.filter((value) => value.length >= length);
  if (long.length === 0) return [...values].sort((a, b) => b.length - a.length || compareText(a, b))[0] ?? '';
  const value =
    long.sort((a, b) => b.length - a.length || compareText(a, b))[Math.floor(long.length / 2)] ?? '';
  const start = Math.floor((value.length - length) / 2);
  return value.slice(start, start + length);
}

// ---------------------------------------------------------------------------------------------------------
// The truth about generators, read from the raw tables (generators, manifests, waste_lines).

export interface GeneratorTruth {
  id: number;
  /** The row as the list should return it: every field of spec 2.2. */
  row: Row;
  federalStatus: string;
  years: Set<string>;
  wasteCodes: Set<string>;
  handlingCodes: Set<string>;
  shippedTons: number;
  shippedCount: number;
  containerCount: number;
  /** The definition's facts, read from the raw tables (the sets above, and both statuses). */
  facts: Record<GeneratorFact, ReadonlySet<string>>;
  /** The definition's derived quantities. */
  quantities: Record<GeneratorQuantity, number>;
}

export function splitCodes(text: string): string[] {
  return text
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code !== '');
}

export function loadGenerators(db: Database): GeneratorTruth[] {
  const rows = db
    .prepare(`SELECT id, ${GENERATOR_FIELDS.join(', ')}, federal_generator_status_universe FROM generators`)
    .all() as (Row & { id: number; federal_generator_status_universe: string })[];
  const byId = new Map<number, GeneratorTruth>();
  for (const { id, federal_generator_status_universe, ...row } of rows) {
    const years = new Set<string>();
    const wasteCodes = new Set<string>();
    const handlingCodes = new Set<string>();
    const statuses = [String(row.registration_status), federal_generator_status_universe];
    byId.set(id, {
      id,
      row,
      federalStatus: federal_generator_status_universe,
      years,
      wasteCodes,
      handlingCodes,
      shippedTons: 0,
      shippedCount: 0,
      containerCount: 0,
      facts: {
        shippedYears: years,
        wasteCodes,
        handlingCodes,
        statuses: new Set(statuses.filter((status) => status !== '')),
      },
      quantities: { shippedTons: 0, shippedCount: 0, containerCount: 0 },
    });
  }
  const manifests = db
    .prepare('SELECT generator_id, shipped_date, total_waste_quantity_tons, container_count FROM manifests')
    .all() as {
    generator_id: number;
    shipped_date: string;
    total_waste_quantity_tons: number;
    container_count: number;
  }[];
  for (const manifest of manifests) {
    const generator = byId.get(manifest.generator_id);
    if (!generator) throw new Error(`manifest of unknown generator ${manifest.generator_id}`);
    generator.years.add(manifest.shipped_date.slice(0, 4));
    generator.shippedTons += manifest.total_waste_quantity_tons;
    generator.shippedCount += 1;
    generator.containerCount += manifest.container_count;
  }
  const lines = db
    .prepare(
      `SELECT m.generator_id, w.federal_waste_codes, w.management_method_code
       FROM waste_lines w JOIN manifests m ON m.id = w.manifest_id`,
    )
    .all() as { generator_id: number; federal_waste_codes: string; management_method_code: string }[];
  for (const line of lines) {
    const generator = byId.get(line.generator_id);
    if (!generator) throw new Error(`waste line of unknown generator ${line.generator_id}`);
    for (const code of splitCodes(line.federal_waste_codes)) generator.wasteCodes.add(code);
    if (line.management_method_code !== '') generator.handlingCodes.add(line.management_method_code);
  }
  for (const generator of byId.values()) {
    generator.quantities = {
      shippedTons: generator.shippedTons,
      shippedCount: generator.shippedCount,
      containerCount: generator.containerCount,
    };
  }
  return [...byId.values()];
}

/** docs/api.md "filterFields" (generators) and "searchKey": the definition run over the truth. */
export function generatorMatches(g: GeneratorTruth, filters: GeneratorFilterFields, searchKey = ''): boolean {
  return matches(GENERATOR_QUERY, g, filters, searchKey);
}

// ---------------------------------------------------------------------------------------------------------
// The truth about manifests and their waste lines.

export interface WasteLineTruth {
  waste_line_number: number;
  usdot_haz_indicator: string;
  usdot_id_number: string;
  usdot_desc: string;
  container_count: number;
  container_type_code: string;
  epa_waste_indicator: string;
  waste_quantity_tons: number;
  transporter: string;
  federal_waste_codes: string;
  management_method_code: string;
  mmc_and_desc: string;
}

export interface ManifestTruth {
  id: number;
  /** Every scalar field of spec 2.5. */
  row: Row;
  lines: WasteLineTruth[];
  /** The definition's facts, read from the raw waste lines. */
  facts: Record<ManifestFact, ReadonlySet<string>>;
}

/** The waste line column whose values each manifest fact collects (definition.ts words them). */
const LINE_FACT_COLUMNS = {
  dotIds: 'usdot_id_number',
  containerTypes: 'container_type_code',
  handlingCodes: 'management_method_code',
} as const satisfies Record<ManifestFact, keyof WasteLineTruth>;

/** A manifest's facts from its waste lines: each fact's non-empty values. */
export function manifestFacts(
  lines: readonly Pick<WasteLineTruth, (typeof LINE_FACT_COLUMNS)[ManifestFact]>[],
): Record<ManifestFact, ReadonlySet<string>> {
  const values = (column: (typeof LINE_FACT_COLUMNS)[ManifestFact]) =>
    new Set(lines.map((line) => line[column]).filter((value) => value !== ''));
  return {
    dotIds: values(LINE_FACT_COLUMNS.dotIds),
    containerTypes: values(LINE_FACT_COLUMNS.containerTypes),
    handlingCodes: values(LINE_FACT_COLUMNS.handlingCodes),
  };
}

export const MANIFEST_SCALAR_FIELDS = MANIFEST_FIELDS.filter((field) => field !== 'waste_lines');

export function loadManifests(db: Database): ManifestTruth[] {
  const rows = db.prepare(`SELECT id, ${MANIFEST_SCALAR_FIELDS.join(', ')} FROM manifests`).all() as (Row & {
    id: number;
  })[];
  const byId = new Map<number, ManifestTruth>(
    rows.map(({ id, ...row }) => [id, { id, row, lines: [], facts: manifestFacts([]) }]),
  );
  const lines = db
    .prepare('SELECT * FROM waste_lines ORDER BY manifest_id, waste_line_number')
    .all() as (WasteLineTruth & { manifest_id: number })[];
  for (const { manifest_id, ...line } of lines) {
    const manifest = byId.get(manifest_id);
    if (!manifest) throw new Error(`waste line of unknown manifest ${manifest_id}`);
    manifest.lines.push(line);
  }
  for (const manifest of byId.values()) manifest.facts = manifestFacts(manifest.lines);
  return [...byId.values()];
}

/** docs/api.md "filterFields" (manifests) and "searchKey": the definition run over the truth. */
export function manifestMatches(m: ManifestTruth, filters: ManifestFilterFields, searchKey = ''): boolean {
  return matches(MANIFEST_QUERY, m, filters, searchKey);
}

// ---------------------------------------------------------------------------------------------------------
// Checks shared by several files.

/** Rows returned for a list walk, mapped to the truth items they stand for; fails on duplicates. */
export function identify<T extends { row: Row }>(
  kind: ListKind,
  rows: readonly Row[],
  truth: readonly T[],
): T[] {
  const byKey = new Map(truth.map((item) => [rowKey(kind, item.row), item]));
  const seen = new Set<string>();
  return rows.map((row) => {
    const key = rowKey(kind, row);
    expect(seen.has(key), `row ${key} appears twice`).toBe(false);
    seen.add(key);
    const item = byKey.get(key);
    if (!item) throw new Error(`the API returned ${key}, which is not in the database`);
    return item;
  });
}

/** Asserts no error body leaks internals (docs/api.md "Errors"). */
export function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\bat \S+ \(?(file:|\/|node:)/);
  expect(text).not.toMatch(/node_modules/);
  expect(text).not.toMatch(/\.ts:\d+/);
  expect(text).not.toMatch(/\bSELECT\b/i);
  expect(text).not.toMatch(/sqlite/i);
}

/** Asserts an RFC 9457 problem answer with this status. */
export function expectProblem(
  answer: Answer,
  status: number,
): { type: string; detail: string; errors?: { path: string; message: string }[] } {
  expect(answer.status, answer.text.slice(0, 500)).toBe(status);
  expect(answer.headers.get('content-type') ?? '').toMatch(/^application\/problem\+json/);
  const body = answer.body as {
    type: unknown;
    title: unknown;
    status: unknown;
    detail: unknown;
    errors?: { path: string; message: string }[];
  };
  expect(typeof body.type).toBe('string');
  expect(typeof body.title).toBe('string');
  expect(body.status).toBe(status);
  expect(typeof body.detail).toBe('string');
  expectNoInternals(answer.text);
  return body as { type: string; detail: string; errors?: { path: string; message: string }[] };
}

/** Asserts a validation problem: 400, the validation type, and an error whose path and message match. */
export function expectValidation(answer: Answer, path: string | RegExp, message?: RegExp): void {
  const problem = expectProblem(answer, 400);
  expect(problem.type).toBe('urn:waste-tracker:problem:validation');
  expect(problem.errors?.length ?? 0).toBeGreaterThan(0);
  const errors = problem.errors ?? [];
  const hit = errors.find(
    (error) =>
      (typeof path === 'string' ? error.path === path : path.test(error.path)) &&
      (message === undefined || message.test(error.message)),
  );
  expect(
    hit,
    `an error at ${String(path)} ${message ? String(message) : ''} in ${JSON.stringify(errors)}`,
  ).toBeDefined();
}
