/**
 * The offline engine against the server: a pack holding the whole demo dataset, read through the API as the
 * app downloads one, then hundreds of generated requests (every filter member, date ranges, search keys cut
 * from real text in any case, non-ASCII and one or two characters long, every sort field in both
 * directions, page sizes and pages, selectedFields, lookups with search and pages, totals, details): the
 * engine's answer equals the server's answer as main parses it, exactly. Then filtered packs (one state's
 * generators, one year of manifests) with requests generated inside their scope, which `covers` accepts.
 *
 * Every pack here is opened both ways, and each answer checked equal between them: from its rows, building
 * each index the first time a request needs it (a pack stored without indexes), and from the indexes a pack
 * stores (built all at once, then through a structured clone as IndexedDB stores them), as the app opens it.
 *
 * The server speaks the typed dialect: the sample dialect rounds totals to two decimals on the wire, and the
 * engine answers the four the typed dialect carries (docs/offline.md).
 */
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GENERATOR_FIELDS,
  GENERATOR_LOOKUP_FIELDS,
  GeneratorDetail,
  GeneratorList,
  GeneratorTotals,
  LookupResult,
  MANIFEST_FIELDS,
  MANIFEST_LOOKUP_FIELDS,
  ManifestList,
  ManifestTotals,
} from '../../shared/api/index.ts';
import { GENERATOR_QUERY, MANIFEST_QUERY, type ManifestFact } from '../../shared/query/definition.ts';
import type {
  EngineRequestName,
  EngineRequests,
  PackQuery,
  PackRows,
} from '../../renderer/src/offline/engine/contract.ts';
import { covers } from '../../renderer/src/offline/engine/covers.ts';
import { openPack, type OpenedPack } from '../../renderer/src/offline/engine/open-pack.ts';
import { generatorFactsOf, lineValues } from '../../renderer/src/offline/engine/pack-facts.ts';
import { readPack } from '../helpers/pack-reader.ts';
import { checkProperty, listRequests, searchKeys } from '../helpers/query-arbitraries.ts';
import type { OracleItem } from '../helpers/query-oracle.ts';
import { buildTestDatabase, startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import {
  IDLE_GENERATOR,
  INSPECTOR,
  UNICODE_GENERATORS,
  addGenerators,
  addUnicodeManifests,
  get,
  post,
  signInAs,
  type Session,
} from '../server/support.ts';

let dir = '';
let server: TrackerServer;
let session: Session;
let whole: { generators: PackRows; manifests: PackRows };
let generatorPack: OpenedPack;
const WHOLE_GENERATORS: PackQuery = { list: 'generators', filterFields: {}, searchKey: '' };
let manifestPack: OpenedPack;

/**
 * A pack opened from its rows and again from its stored indexes; each answer is the first's, after checking
 * the second gives the same.
 */
function openedBothWays(rows: PackRows): OpenedPack {
  const built = openPack(rows);
  const stored = openPack(rows, structuredClone(openPack(rows).indexes()));
  expect(stored.fromStored).toBe(true);
  return {
    list: built.list,
    fromStored: false,
    indexes: () => built.indexes(),
    answer: <Name extends EngineRequestName>(name: Name, input: EngineRequests[Name]) => {
      const answer = built.answer(name, input);
      expect(stored.answer(name, input)).toEqual(answer);
      return answer;
    },
  };
}

beforeAll(async () => {
  const built = await buildTestDatabase(3000, 13);
  dir = built.dir;
  addGenerators(built.path, [...UNICODE_GENERATORS, IDLE_GENERATOR]);
  addUnicodeManifests(built.path);
  server = await startTrackerServer({ dbPath: built.path, dialect: 'typed', socket: false });
  session = await signInAs(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
  whole = {
    generators: await readPack(session, WHOLE_GENERATORS),
    manifests: await readPack(session, { list: 'manifests', filterFields: {}, searchKey: '' }),
  };
  generatorPack = openedBothWays(whole.generators);
  manifestPack = openedBothWays(whole.manifests);
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------------------
// The server's answers, parsed as main parses them

async function serverList(list: 'generators' | 'manifests', body: object) {
  const answer = await post(server.baseUrl, `/api/tracker/${list}/`, session.token, body);
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  return (list === 'generators' ? GeneratorList : ManifestList).parse(answer.body);
}

async function serverGeneratorTotals(body: object) {
  const answer = await post(server.baseUrl, '/api/tracker/generators/aggregated_data/', session.token, body);
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  return GeneratorTotals.parse(answer.body);
}

async function serverTotals(body: object) {
  const answer = await post(server.baseUrl, '/api/tracker/manifests/aggregated_data/', session.token, body);
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  return ManifestTotals.parse(answer.body);
}

async function serverLookup(
  list: 'generators' | 'manifests',
  query: { field: string; page: number; search: string },
) {
  const path =
    list === 'generators'
      ? '/api/tracker/generators/filters/'
      : '/api/tracker/shipments_and_waste_volumes/filters/';
  const answer = await get(server.baseUrl, path, session.token, query);
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  return LookupResult.parse(answer.body);
}

function data<T>(answer: { ok: true; data: T } | { ok: false; error: { kind: string; message: string } }): T {
  if (!answer.ok) throw new Error(`the engine refused: ${answer.error.kind}: ${answer.error.message}`);
  return answer.data;
}

// ---------------------------------------------------------------------------------------------------------
// Requests

/** A pack's generators with the facts their details carry: what the request generator draws values from. */
function generatorItems(rows: PackRows): OracleItem[] {
  const details = new Map(rows.details.map((detail) => [detail.generator_data.epa_handler_id, detail]));
  return rows.generators.map((row) => {
    const detail = details.get(row.epa_handler_id ?? '');
    if (!detail) throw new Error(`the pack lacks the detail of ${row.epa_handler_id}`);
    return { row, facts: generatorFactsOf(detail) };
  });
}

function manifestItems(rows: PackRows): OracleItem[] {
  const facts = Object.keys(MANIFEST_QUERY.facts) as ManifestFact[];
  return rows.manifests.map((row) => ({
    row,
    facts: Object.fromEntries(facts.map((fact) => [fact, new Set(lineValues(row, fact))])),
  }));
}

const generatorRequests = (rows: PackRows) =>
  listRequests(GENERATOR_QUERY, generatorItems(rows), GENERATOR_FIELDS);
const manifestRequests = (rows: PackRows) =>
  listRequests(MANIFEST_QUERY, manifestItems(rows), MANIFEST_FIELDS);

function lookupRequests(fields: readonly string[], texts: () => string[]) {
  return fc.record({
    field: fc.constantFrom(...fields),
    page: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 40 })),
    search: fc.oneof(
      fc.constant(''),
      searchKeys(texts()).filter((key) => [...key].length <= 100),
    ),
  });
}

/**
 * Of 150 generated requests, how many must match some rows but not all (whatever page they ask for) for the
 * run to count as exercising the filters. Runs give about 70; the floor leaves room for chance and still
 * fails a generator that only yields empty or whole answers.
 */
const MIN_PARTIAL_ANSWERS = 30;

// ---------------------------------------------------------------------------------------------------------

describe('a pack of the whole dataset answers exactly what the server answers', () => {
  it('holds every row the server has', () => {
    expect(whole.generators.generators.length).toBeGreaterThan(100);
    expect(whole.generators.details.length).toBe(whole.generators.generators.length);
    expect(whole.manifests.manifests.length).toBe(3000 + UNICODE_GENERATORS.length);
  });

  it('generator pages: filters, search, sort, paging, selectedFields', async () => {
    let partial = 0;
    await checkProperty(
      generatorRequests(whole.generators),
      async (request) => {
        const expected = await serverList('generators', request);
        expect(data(generatorPack.answer('generators.list', request))).toEqual(expected);
        if (expected.totalElements > 0 && expected.totalElements < whole.generators.generators.length)
          partial += 1;
      },
      150,
      // Requests that matched some rows but not all: the filters were exercised, not just the empty answer.
      () => expect(partial).toBeGreaterThan(MIN_PARTIAL_ANSWERS),
    );
  });

  it('manifest pages: filters over waste lines, date ranges, search, sort, paging, selectedFields', async () => {
    let partial = 0;
    await checkProperty(
      manifestRequests(whole.manifests),
      async (request) => {
        const expected = await serverList('manifests', request);
        expect(data(manifestPack.answer('manifests.list', request))).toEqual(expected);
        if (expected.totalElements > 0 && expected.totalElements < whole.manifests.manifests.length)
          partial += 1;
      },
      150,
      () => expect(partial).toBeGreaterThan(MIN_PARTIAL_ANSWERS),
    );
  });

  it('manifest totals', async () => {
    await checkProperty(
      manifestRequests(whole.manifests),
      async ({ filterFields, searchKey }) => {
        const expected = await serverTotals({ filterFields, searchKey });
        expect(data(manifestPack.answer('manifests.aggregate', { filterFields, searchKey }))).toEqual(
          expected,
        );
      },
      100,
    );
  });

  it('generator lookups, with search and pages', async () => {
    const texts = () =>
      whole.generators.generators.flatMap((g) => [g.generator_name ?? '', g.location_city ?? '']);
    await checkProperty(
      lookupRequests(GENERATOR_LOOKUP_FIELDS, texts),
      async (query) => {
        const expected = await serverLookup('generators', query);
        expect(data(generatorPack.answer('generators.lookup', query as never))).toEqual(expected);
      },
      120,
    );
  });

  it('manifest lookups, with search and pages', async () => {
    const texts = () =>
      whole.manifests.manifests.flatMap((m) => [
        m.manifest_tracking_number ?? '',
        m.transporter ?? '',
        m.designated_facility_name ?? '',
      ]);
    await checkProperty(
      lookupRequests(MANIFEST_LOOKUP_FIELDS, texts),
      async (query) => {
        const expected = await serverLookup('manifests', query);
        expect(data(manifestPack.answer('manifests.lookup', query as never))).toEqual(expected);
      },
      120,
    );
  });

  it('generator details, and an unknown id is not found in both', async () => {
    const ids = [
      ...whole.generators.generators.slice(0, 20).map((g) => g.epa_handler_id ?? ''),
      IDLE_GENERATOR.epa_handler_id,
    ];
    for (const id of ids) {
      const answer = await get(server.baseUrl, '/api/tracker/generators/details/', session.token, {
        handler_id: id,
      });
      expect(answer.status).toBe(200);
      const expected = GeneratorDetail.parse(answer.body);
      expect(data(generatorPack.answer('generators.detail', { handler_id: id }))).toEqual(expected);
      // A manifests pack holds the generators its manifests name; the idle one shipped nothing.
      if (id === IDLE_GENERATOR.epa_handler_id) {
        expect(manifestPack.answer('generators.detail', { handler_id: id })).toMatchObject({
          ok: false,
          error: { kind: 'not-found' },
        });
      } else {
        expect(data(manifestPack.answer('generators.detail', { handler_id: id }))).toEqual(expected);
      }
    }
    const missing = await get(server.baseUrl, '/api/tracker/generators/details/', session.token, {
      handler_id: 'ZZ-NONE',
    });
    expect(missing.status).toBe(404);
    expect(generatorPack.answer('generators.detail', { handler_id: 'ZZ-NONE' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found' },
    });
  });

  it.each([
    ['an unknown sort field', { pageInfo: { page: 0, pageSize: 10, sort: 'colour asc' } }],
    ['an unknown direction', { pageInfo: { page: 0, pageSize: 10, sort: 'shipped_date sideways' } }],
    ['an unknown selected field', { pageInfo: { page: 0, pageSize: 10, selectedFields: 'colour' } }],
    ['a page size over 500', { pageInfo: { page: 0, pageSize: 501 } }],
    ['a control character in the search', { pageInfo: { page: 0, pageSize: 10 }, searchKey: 'a\tb' }],
    [
      'a start after its end',
      {
        pageInfo: { page: 0, pageSize: 10 },
        filterFields: { shipped_date_start: '2024-02-01', shipped_date_end: '2024-01-01' },
      },
    ],
    [
      'a date that does not exist',
      { pageInfo: { page: 0, pageSize: 10 }, filterFields: { received_date_end: '2024-02-30' } },
    ],
    ['an unknown member', { pageInfo: { page: 0, pageSize: 10 }, filterFields: { colours: ['red'] } }],
  ])('refuses %s as the server does, in its words', async (_name, request) => {
    const answer = await post(server.baseUrl, '/api/tracker/manifests/', session.token, request);
    expect(answer.status).toBe(400);
    const { detail } = answer.body as { detail: string };
    expect(manifestPack.answer('manifests.list', request as never)).toEqual({
      ok: false,
      error: { kind: 'bad-request', message: detail.replace(/^body\./, '') },
    });
  });

  it('generator totals, summed from each generator’s own totals', async () => {
    let shipping = 0;
    await checkProperty(
      generatorRequests(whole.generators),
      async ({ filterFields, searchKey }) => {
        const expected = await serverGeneratorTotals({ filterFields, searchKey });
        expect(covers(WHOLE_GENERATORS, 'generators.aggregate', { filterFields, searchKey })).toBe(true);
        expect(data(generatorPack.answer('generators.aggregate', { filterFields, searchKey }))).toEqual(
          expected,
        );
        if (expected.mmc_count > 0) shipping += 1;
      },
      100,
    );
    expect(shipping).toBeGreaterThan(10);
  });

  it('refuses generator totals from a pack made without each generator’s totals', () => {
    const { totals: _dropped, ...older } = whole.generators;
    expect(
      openedBothWays(older).answer('generators.aggregate', { filterFields: {}, searchKey: '' }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'offline', message: expect.stringContaining('refresh it') as string },
    });
  });
});

describe('stored indexes are answered from only over the rows they were made over', () => {
  const requests = () => {
    const manifest = whole.manifests.manifests[7]!;
    return [
      { filterFields: {}, searchKey: '', pageInfo: { page: 0, pageSize: 50 } },
      {
        filterFields: { generator_names: [manifest.generator_name ?? ''] },
        searchKey: '',
        pageInfo: { page: 0, pageSize: 20, sort: 'shipped_date desc' },
      },
      {
        filterFields: { shipped_date_start: '2023-01-01' },
        searchKey: (manifest.transporter ?? '').slice(0, 3).toLowerCase(),
        pageInfo: { page: 1, pageSize: 10, sort: 'transporter asc' },
      },
    ];
  };

  it('a pack whose rows come in another order, or are others, sets them aside and answers from its rows', async () => {
    const indexes = structuredClone(openPack(whole.manifests).indexes());
    const rows = whole.manifests.manifests;
    const [first, second, ...rest] = rows;
    const others: [string, PackRows, PackRows['manifests'] | undefined][] = [
      ['reversed', { ...whole.manifests, manifests: [...rows].reverse() }, undefined],
      ['two rows swapped', { ...whole.manifests, manifests: [second!, first!, ...rest] }, undefined],
      // One row fewer: the server holds it, so the answer is held to the same rows opened without indexes.
      ['one row fewer', { ...whole.manifests, manifests: rows.slice(1) }, rows.slice(1)],
    ];
    for (const [what, changed, own] of others) {
      const pack = openPack(changed, indexes);
      expect(pack.fromStored, what).toBe(false);
      for (const request of requests()) {
        const expected = own
          ? data(openPack({ ...whole.manifests, manifests: own }).answer('manifests.list', request))
          : await serverList('manifests', request);
        expect(data(pack.answer('manifests.list', request)), what).toEqual(expected);
      }
    }
  });

  it('indexes of another format or of the other list are not read', async () => {
    const indexes = structuredClone(openPack(whole.manifests).indexes());
    expect(openPack(whole.manifests, indexes).fromStored).toBe(true);
    expect(openPack(whole.manifests, { ...indexes, format: indexes.format + 1 }).fromStored).toBe(false);
    expect(openPack(whole.generators, indexes).fromStored).toBe(false);
    const request = requests()[1]!;
    expect(
      data(openPack(whole.manifests, { ...indexes, format: 0 }).answer('manifests.list', request)),
    ).toEqual(await serverList('manifests', request));
  });
});

// ---------------------------------------------------------------------------------------------------------

/** The most common value of a list, so a filtered pack keeps a good share of the rows. */
function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

/** A request moved inside the pack's scope: its members narrowed to the pack's values, its dates into the pack's range. */
function inside<Filters extends Record<string, unknown>>(packFilters: Filters, filters: Filters): Filters {
  const narrowed: Record<string, unknown> = { ...filters };
  for (const [member, allowed] of Object.entries(packFilters)) {
    if (Array.isArray(allowed)) {
      const asked = (filters[member] as string[] | undefined) ?? [];
      const kept = asked.filter((value) => allowed.includes(value));
      narrowed[member] = kept.length > 0 ? kept : allowed;
    }
  }
  for (const range of ['shipped', 'received']) {
    const packStart = packFilters[`${range}_date_start`] as string | undefined;
    const packEnd = packFilters[`${range}_date_end`] as string | undefined;
    let start = filters[`${range}_date_start`] as string | undefined;
    let end = filters[`${range}_date_end`] as string | undefined;
    if (packStart && (!start || start < packStart)) start = packStart;
    if (packEnd && (!end || end > packEnd)) end = packEnd;
    if (start && end && start > end) [start, end] = [packStart ?? end, packEnd ?? start];
    if (start) narrowed[`${range}_date_start`] = start;
    if (end) narrowed[`${range}_date_end`] = end;
  }
  return narrowed as Filters;
}

describe('a filtered pack answers requests inside its scope exactly as the server does', () => {
  it("one state's generators", async () => {
    const state = mostCommon(whole.generators.generators.map((g) => g.location_state ?? ''));
    const query: PackQuery = { list: 'generators', filterFields: { states: [state] }, searchKey: '' };
    const rows = await readPack(session, query);
    expect(rows.generators.length).toBeGreaterThan(10);
    expect(rows.generators.length).toBeLessThan(whole.generators.generators.length);
    const pack = openedBothWays(rows);
    await checkProperty(
      generatorRequests(whole.generators),
      async (generated) => {
        const request = { ...generated, filterFields: inside(query.filterFields, generated.filterFields) };
        expect(covers(query, 'generators.list', request)).toBe(true);
        const expected = await serverList('generators', request);
        expect(data(pack.answer('generators.list', request))).toEqual(expected);
        const aggregate = { filterFields: request.filterFields, searchKey: request.searchKey };
        expect(covers(query, 'generators.aggregate', aggregate)).toBe(true);
        expect(data(pack.answer('generators.aggregate', aggregate))).toEqual(
          await serverGeneratorTotals(aggregate),
        );
      },
      80,
    );
  });

  it('one year of manifests', async () => {
    const year = mostCommon(whole.manifests.manifests.map((m) => (m.shipped_date ?? '').slice(0, 4)));
    const query: PackQuery = {
      list: 'manifests',
      filterFields: { shipped_date_start: `${year}-01-01`, shipped_date_end: `${year}-12-31` },
      searchKey: '',
    };
    const rows = await readPack(session, query);
    expect(rows.manifests.length).toBeGreaterThan(100);
    expect(rows.manifests.length).toBeLessThan(whole.manifests.manifests.length);
    const pack = openedBothWays(rows);
    await checkProperty(
      manifestRequests(whole.manifests),
      async (generated) => {
        const request = { ...generated, filterFields: inside(query.filterFields, generated.filterFields) };
        expect(covers(query, 'manifests.list', request)).toBe(true);
        const expected = await serverList('manifests', request);
        expect(data(pack.answer('manifests.list', request))).toEqual(expected);
        const totals = await serverTotals({
          filterFields: request.filterFields,
          searchKey: request.searchKey,
        });
        const aggregate = { filterFields: request.filterFields, searchKey: request.searchKey };
        expect(data(pack.answer('manifests.aggregate', aggregate))).toEqual(totals);
      },
      80,
    );
  });

  it("a searched pack: one transporter's manifests found by a search key", async () => {
    const transporter = mostCommon(whole.manifests.manifests.map((m) => m.transporter ?? ''));
    const key = [...transporter].slice(0, 5).join('');
    const query: PackQuery = {
      list: 'manifests',
      filterFields: { handling_codes: ['H141', 'H040', 'H061'] },
      searchKey: key,
    };
    const pack = openedBothWays(await readPack(session, query));
    await checkProperty(
      fc.tuple(manifestRequests(whole.manifests), fc.constantFrom('', 'x')),
      async ([generated, more]) => {
        const searchKey = more === '' ? key.toUpperCase() : `${key}${transporter.slice(5, 6)}`;
        const request = {
          ...generated,
          searchKey,
          filterFields: inside(query.filterFields, generated.filterFields),
        };
        expect(covers(query, 'manifests.list', request)).toBe(true);
        expect(data(pack.answer('manifests.list', request))).toEqual(await serverList('manifests', request));
      },
      40,
    );
  });
});
