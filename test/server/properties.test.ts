/**
 * Property tests: random requests built from the real data (filter values from the lookups plus values that
 * do not exist, search fragments cut from real row text, any sort, any page) answer exactly the page the
 * documented semantics define.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LookupResult, type GeneratorFilterFields } from '../../shared/api/index.ts';
import { foldCase } from '../../shared/query/search.ts';
import { manifestFilterFields, valuesFrom } from '../helpers/query-arbitraries.ts';
import { startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import {
  INSPECTOR,
  PATHS,
  compareText,
  generatorMatches,
  get,
  listPage,
  loadGenerators,
  loadManifests,
  manifestMatches,
  ordered,
  rowKey,
  signInAs,
  sortedDistinct,
  type GeneratorTruth,
  type ManifestTruth,
  type Session,
  GENERATOR_FIELDS,
  GENERATOR_FILTER_MEMBERS,
  GENERATOR_LOOKUP_FIELDS,
  GENERATOR_SEARCH_FIELDS,
  MANIFEST_SCALAR_FIELDS,
  MANIFEST_SEARCH_FIELDS,
} from './support.ts';

const RUNS = 60;

let server: TrackerServer;
let session: Session;
let generators: GeneratorTruth[];
let manifests: ManifestTruth[];

beforeAll(async () => {
  server = await startTrackerServer({ socket: false });
  session = await signInAs(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
  generators = loadGenerators(server.db);
  manifests = loadManifests(server.db);
});

afterAll(async () => {
  await server?.close();
});

/** Every value of a lookup, walked over the API. */
async function lookupValues(path: string, field: string): Promise<string[]> {
  const values: string[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await get(session.baseUrl, path, session.token, { field, page });
    expect(answer.status).toBe(200);
    const body = LookupResult.parse(answer.body);
    values.push(...body.results.map((entry) => entry.value));
    if (!body.pagination.more) return values;
  }
}

/** A fragment of real row text, 1–6 characters, in its own case, upper or lower case. */
const realFragment = (texts: string[]) =>
  fc
    .tuple(
      fc.constantFrom(...texts),
      fc.nat(),
      fc.integer({ min: 1, max: 6 }),
      fc.constantFrom('same', 'upper', 'lower'),
    )
    .map(([text, start, length, casing]) => {
      const from = text.length === 0 ? 0 : start % text.length;
      const fragment = text.slice(from, from + length);
      return casing === 'upper'
        ? fragment.toUpperCase()
        : casing === 'lower'
          ? fragment.toLowerCase()
          : fragment;
    });

const LOOKUP_OF: Record<keyof GeneratorFilterFields, string> = {
  shippedYears: 'shipped_year',
  cities: 'generator_city',
  naics: 'naics',
  ids: 'epa_handler_id',
  states: 'generator_state',
  wasteCodes: 'epa_waste_code',
  names: 'generator_name',
  statuses: 'status',
  handlingCodes: 'mmc',
};

describe('generators list', () => {
  it('answers exactly the page the filters, search, sort and paging define', async () => {
    const real: Record<string, string[]> = {};
    for (const member of GENERATOR_FILTER_MEMBERS) {
      real[member] = await lookupValues(PATHS.generatorLookup, LOOKUP_OF[member]);
    }
    const filters = fc.record(
      Object.fromEntries(
        GENERATOR_FILTER_MEMBERS.map((member) => [member, valuesFrom(real[member] ?? [])]),
      ) as Record<keyof GeneratorFilterFields, fc.Arbitrary<string[]>>,
      { requiredKeys: [] },
    );
    const texts = generators.flatMap((g) => GENERATOR_SEARCH_FIELDS.map((field) => String(g.row[field])));
    const request = fc.record({
      filterFields: filters,
      searchKey: fc.oneof(fc.constant(''), realFragment(texts)),
      field: fc.constantFrom(...GENERATOR_FIELDS),
      direction: fc.constantFrom('asc' as const, 'desc' as const),
      page: fc.nat({ max: 4 }),
      pageSize: fc.integer({ min: 1, max: 60 }),
    });

    await fc.assert(
      fc.asyncProperty(request, async ({ filterFields, searchKey, field, direction, page, pageSize }) => {
        const matching = generators.filter((g) => generatorMatches(g, filterFields, searchKey));
        const expected = ordered(matching, field, direction).slice(page * pageSize, (page + 1) * pageSize);
        const answer = await listPage(session, 'generators', {
          filterFields,
          searchKey,
          sort: `${field} ${direction}`,
          page,
          pageSize,
        });
        expect(answer.totalElements).toBe(matching.length);
        expect(answer.content).toEqual(expected.map((g) => g.row));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('manifests list', () => {
  it('answers exactly the page the filters, dates, search, sort and paging define', async () => {
    const lookup = (field: string) => lookupValues(PATHS.manifestLookup, field);
    const real = {
      generator_names: await lookup('generator_name'),
      transporter_names: await lookup('transporter_name'),
      designated_facility_names: await lookup('designated_facility_name'),
      dot_id_nos: await lookup('dot_id_no'),
      container_types: await lookup('container_type'),
      handling_codes: await lookup('handling_code'),
    };
    const dates = sortedDistinct(
      manifests.flatMap((m) => [String(m.row.shipped_date), String(m.row.received_date)]),
    );
    const range = fc
      .tuple(fc.option(fc.constantFrom(...dates)), fc.option(fc.constantFrom(...dates)))
      .map(([a, b]) => (a !== null && b !== null && compareText(a, b) > 0 ? [b, a] : [a, b]));
    const filters = fc
      .tuple(
        fc.record(
          {
            generator_names: valuesFrom(real.generator_names),
            transporter_names: valuesFrom(real.transporter_names),
            designated_facility_names: valuesFrom(real.designated_facility_names),
            dot_id_nos: valuesFrom(real.dot_id_nos),
            container_types: valuesFrom(real.container_types),
            handling_codes: valuesFrom(real.handling_codes),
          },
          { requiredKeys: [] },
        ),
        range,
        range,
      )
      .map(manifestFilterFields);
    const texts = manifests.flatMap((m) => MANIFEST_SEARCH_FIELDS.map((field) => String(m.row[field])));
    const request = fc.record({
      filterFields: filters,
      searchKey: fc.oneof(fc.constant(''), realFragment(texts)),
      field: fc.constantFrom(...MANIFEST_SCALAR_FIELDS),
      direction: fc.constantFrom('asc' as const, 'desc' as const),
      page: fc.nat({ max: 4 }),
      pageSize: fc.integer({ min: 1, max: 60 }),
    });
    const scalarFields = MANIFEST_SCALAR_FIELDS.join(',');

    await fc.assert(
      fc.asyncProperty(request, async ({ filterFields, searchKey, field, direction, page, pageSize }) => {
        const matching = manifests.filter((m) => manifestMatches(m, filterFields, searchKey));
        const expected = ordered(matching, field, direction).slice(page * pageSize, (page + 1) * pageSize);
        const answer = await listPage(session, 'manifests', {
          filterFields,
          searchKey,
          sort: `${field} ${direction}`,
          page,
          pageSize,
          selectedFields: scalarFields,
        });
        expect(answer.totalElements).toBe(matching.length);
        expect(answer.content.map((row) => rowKey('manifests', row))).toEqual(
          expected.map((m) => rowKey('manifests', m.row)),
        );
        expect(answer.content).toEqual(expected.map((m) => m.row));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('lookups', () => {
  it('answer exactly the page of matching texts a search and page define', async () => {
    const all: Record<string, { value: string; text: string }[]> = {};
    for (const field of GENERATOR_LOOKUP_FIELDS) {
      const entries: { value: string; text: string }[] = [];
      for (let page = 1; ; page += 1) {
        const body = LookupResult.parse(
          (await get(session.baseUrl, PATHS.generatorLookup, session.token, { field, page })).body,
        );
        entries.push(...body.results);
        if (!body.pagination.more) break;
      }
      all[field] = entries;
    }
    const request = fc.constantFrom(...GENERATOR_LOOKUP_FIELDS).chain((field) =>
      fc.record({
        field: fc.constant(field),
        search: fc.oneof(fc.constant(''), realFragment((all[field] ?? []).map((entry) => entry.text))),
        page: fc.integer({ min: 1, max: 3 }),
      }),
    );

    await fc.assert(
      fc.asyncProperty(request, async ({ field, search, page }) => {
        const matching = (all[field] ?? []).filter((entry) =>
          foldCase(entry.text).includes(foldCase(search)),
        );
        const answer = await get(session.baseUrl, PATHS.generatorLookup, session.token, {
          field,
          page,
          search,
        });
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({
          results: matching.slice((page - 1) * 50, page * 50),
          pagination: { more: matching.length > page * 50 },
        });
      }),
      { numRuns: RUNS },
    );
  });
});
