/**
 * POST /api/tracker/generators/ (spec 4.2, docs/api.md "Query semantics"), checked row by row against the
 * SQLite file the server reads: filters, search, sort, paging and field selection.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeneratorFilterFields } from '../../shared/api/index.ts';
import { buildTestDatabase, startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import {
  INSPECTOR,
  PATHS,
  compareText,
  expectValidation,
  fragmentOf,
  generatorMatches,
  identify,
  listBody,
  listPage,
  loadGenerators,
  ordered,
  post,
  signInAs,
  walkAllPages,
  type Direction,
  type GeneratorTruth,
  type Session,
  GENERATOR_FIELDS,
  GENERATOR_FILTER_MEMBERS,
  GENERATOR_SEARCH_FIELDS,
  IDLE_GENERATOR,
  UNICODE_GENERATORS,
  addGenerators,
} from './support.ts';

type Member = keyof GeneratorFilterFields;

let dir: string;
let server: TrackerServer;
let session: Session;
let generators: GeneratorTruth[];

beforeAll(async () => {
  const built = await buildTestDatabase();
  dir = built.dir;
  addGenerators(built.path, [IDLE_GENERATOR, ...UNICODE_GENERATORS]);
  server = await startTrackerServer({ dbPath: built.path, socket: false });
  session = await signInAs(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
  generators = loadGenerators(server.db);
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The values a generator holds for one filter member (docs/api.md, generators filter table). */
const HELD: Record<Member, (g: GeneratorTruth) => string[]> = {
  shippedYears: (g) => [...g.years],
  cities: (g) => [String(g.row.location_city)],
  naics: (g) => [String(g.row.primary_naics_code)],
  ids: (g) => [String(g.row.epa_handler_id)],
  states: (g) => [String(g.row.location_state)],
  wasteCodes: (g) => [...g.wasteCodes],
  names: (g) => [String(g.row.generator_name)],
  statuses: (g) => [String(g.row.registration_status), g.federalStatus],
  handlingCodes: (g) => [...g.handlingCodes],
};

/** Generator ids holding each non-empty value of a member. */
function holders(member: Member): Map<string, Set<number>> {
  const byValue = new Map<string, Set<number>>();
  for (const g of generators) {
    for (const value of HELD[member](g)) {
      if (value === '') continue;
      const set = byValue.get(value) ?? new Set<number>();
      set.add(g.id);
      byValue.set(value, set);
    }
  }
  return byValue;
}

/** The most common value that still leaves some generators out. */
function commonValue(member: Member): string {
  const candidates = [...holders(member)]
    .filter(([, ids]) => ids.size < generators.length)
    .sort((a, b) => b[1].size - a[1].size || compareText(a[0], b[0]));
  const first = candidates[0];
  if (!first) throw new Error(`no restrictive value for ${member}`);
  return first[0];
}

/** The `count` most common values. */
function commonValues(member: Member, count: number): string[] {
  return [...holders(member)]
    .sort((a, b) => b[1].size - a[1].size || compareText(a[0], b[0]))
    .slice(0, count)
    .map(([value]) => value);
}

/** Two values whose holders are not nested, so OR-ing them keeps more than either alone. */
function twoValues(member: Member): [string, string] {
  const list = [...holders(member)].sort((a, b) => a[1].size - b[1].size || compareText(a[0], b[0]));
  for (const [a, aIds] of list) {
    for (const [b, bIds] of list) {
      if (a === b) continue;
      const aOnly = [...aIds].some((id) => !bIds.has(id));
      const bOnly = [...bIds].some((id) => !aIds.has(id));
      if (aOnly && bOnly) return [a, b];
    }
  }
  throw new Error(`no two independent values for ${member}`);
}

/**
 * Walks every page of the list for this request and checks it against the truth: the same set of
 * generators, the documented default order, and the true total. Returns the matching generators.
 */
async function expectMatches(filterFields: GeneratorFilterFields, searchKey = ''): Promise<GeneratorTruth[]> {
  const expected = generators.filter((g) => generatorMatches(g, filterFields, searchKey));
  const { totalElements, rows } = await walkAllPages(session, 'generators', {
    filterFields,
    searchKey,
    pageSize: 500,
    selectedFields: 'epa_handler_id',
  });
  expect(totalElements, `total for ${JSON.stringify({ filterFields, searchKey })}`).toBe(expected.length);
  const returned = identify('generators', rows, generators);
  expect(returned.map((g) => g.id)).toEqual(ordered(expected, 'generator_name', 'asc').map((g) => g.id));
  return expected;
}

describe('the unfiltered generators list', () => {
  it('returns every generator once, each field as stored, in the spec field order', async () => {
    const { totalElements, rows } = await walkAllPages(session, 'generators', { pageSize: 500 });
    expect(totalElements).toBe(generators.length);
    expect(generators.length).toBeGreaterThan(50);
    const returned = identify('generators', rows, generators);
    rows.forEach((row, index) => {
      expect(Object.keys(row)).toEqual([...GENERATOR_FIELDS]);
      expect(row).toEqual(returned[index]?.row);
      expect(typeof row.total_waste).toBe('number');
    });
  });

  it('orders by generator_name ascending when no sort is given (ties by EPA handler id)', async () => {
    await expectMatches({});
  });
});

describe('each filter member alone', () => {
  it.each(GENERATOR_FILTER_MEMBERS)(
    '%s with one value keeps exactly the generators holding it',
    async (member) => {
      const expected = await expectMatches({ [member]: [commonValue(member)] });
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(generators.length);
    },
  );

  it.each(GENERATOR_FILTER_MEMBERS)('%s with several values OR-s them', async (member) => {
    const [a, b] = twoValues(member);
    const either = await expectMatches({ [member]: [a, b, 'no such value ✗'] });
    const onlyA = generators.filter((g) => generatorMatches(g, { [member]: [a] }));
    const onlyB = generators.filter((g) => generatorMatches(g, { [member]: [b] }));
    expect(either.length).toBeGreaterThan(Math.max(onlyA.length, onlyB.length));
  });

  it.each(GENERATOR_FILTER_MEMBERS)('%s as an empty array is no restriction', async (member) => {
    const expected = await expectMatches({ [member]: [] });
    expect(expected.length).toBe(generators.length);
  });

  it.each(GENERATOR_FILTER_MEMBERS)('%s with only unknown values matches nothing', async (member) => {
    const answer = await listPage(session, 'generators', { filterFields: { [member]: ['no such value ✗'] } });
    expect(answer).toEqual({ totalElements: 0, content: [] });
  });

  it('matches values exactly and case-sensitively', async () => {
    const city = commonValue('cities');
    const changed = city.toLowerCase() === city ? city.toUpperCase() : city.toLowerCase();
    expect(changed).not.toBe(city);
    const expected = await expectMatches({ cities: [changed] });
    expect(expected.every((g) => g.row.location_city === changed)).toBe(true);
    const prefix = await expectMatches({ cities: [city.slice(0, -1)] });
    expect(prefix.every((g) => g.row.location_city === city.slice(0, -1))).toBe(true);
  });

  it('statuses match the registration status or the federal generator status', async () => {
    const federalOnly = [...holders('statuses')].find(([value]) =>
      generators.some((g) => g.federalStatus === value && g.row.registration_status !== value),
    );
    expect(federalOnly, 'a status that some generator holds only as its federal status').toBeDefined();
    const registrationOnly = [...holders('statuses')].find(([value]) =>
      generators.some((g) => g.row.registration_status === value && g.federalStatus !== value),
    );
    expect(registrationOnly, 'a status some generator holds only as its registration status').toBeDefined();
    const values = [federalOnly?.[0] ?? '', registrationOnly?.[0] ?? ''];
    const expected = await expectMatches({ statuses: values });
    expect(
      expected.some((g) => g.row.registration_status !== values[0] && g.federalStatus === values[0]),
    ).toBe(true);
  });
});

describe('filter members combined', () => {
  it('AND-s members: a state together with a NAICS code held in it', async () => {
    const state = commonValue('states');
    const inState = generators.filter((g) => g.row.location_state === state);
    const naics = String(inState[0]?.row.primary_naics_code);
    const expected = await expectMatches({ states: [state], naics: [naics] });
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(inState.length);
  });

  it('AND-s the shipment members: year, waste code and handling code', async () => {
    const g = generators.find(
      (item) => item.years.size > 0 && item.wasteCodes.size > 0 && item.handlingCodes.size > 0,
    );
    if (!g) throw new Error('no generator with shipments');
    const filters: GeneratorFilterFields = {
      shippedYears: [[...g.years][0] ?? ''],
      wasteCodes: [[...g.wasteCodes][0] ?? ''],
      handlingCodes: [[...g.handlingCodes][0] ?? ''],
    };
    const expected = await expectMatches(filters);
    expect(expected.map((item) => item.id)).toContain(g.id);
  });

  it('AND-s several multi-value members with search', async () => {
    const [cityA, cityB] = twoValues('cities');
    const expected = await expectMatches(
      {
        cities: [cityA, cityB],
        statuses: [commonValue('statuses')],
        shippedYears: [commonValue('shippedYears')],
      },
      'e',
    );
    expect(expected.length).toBeLessThanOrEqual(generators.length);
  });

  it('answers an impossible combination with no rows and a zero total', async () => {
    const g = generators[0];
    const other = generators.find((item) => item.row.location_state !== g?.row.location_state);
    const answer = await listPage(session, 'generators', {
      filterFields: { ids: [String(g?.row.epa_handler_id)], states: [String(other?.row.location_state)] },
    });
    expect(answer).toEqual({ totalElements: 0, content: [] });
  });

  it('combines every member at once', async () => {
    const g = generators.find(
      (item) => item.years.size > 0 && item.wasteCodes.size > 0 && item.handlingCodes.size > 0,
    );
    if (!g) throw new Error('no generator with shipments');
    const filters: GeneratorFilterFields = {};
    for (const member of GENERATOR_FILTER_MEMBERS) {
      filters[member] = [HELD[member](g).find((value) => value !== '') ?? '', 'no such value ✗'];
    }
    const expected = await expectMatches(filters);
    expect(expected.map((item) => item.id)).toEqual([g.id]);
  });
});

describe('searchKey', () => {
  /** A fragment of a stored value of this field, from the middle of the longest one. */
  const fragment = (field: string, length: number) =>
    fragmentOf(
      generators.map((g) => String(g.row[field])),
      length,
    );

  it.each(GENERATOR_SEARCH_FIELDS)(
    'finds a fragment of %s of up to 3 characters, in any case',
    async (field) => {
      const key = fragment(field, 3);
      const expected = await expectMatches({}, key);
      expect(expected.length).toBeGreaterThan(0);
      await expectMatches({}, key.toUpperCase());
      await expectMatches({}, key.toLowerCase());
    },
  );

  it.each(GENERATOR_SEARCH_FIELDS)(
    'finds a fragment of %s of up to 6 characters, in any case',
    async (field) => {
      const key = fragment(field, 6);
      const expected = await expectMatches({}, key);
      expect(expected.length).toBeGreaterThan(0);
      await expectMatches({}, key.toUpperCase());
    },
  );

  it('finds a whole generator name', async () => {
    const name = String(generators[Math.floor(generators.length / 2)]?.row.generator_name);
    const expected = await expectMatches({}, name);
    expect(expected.length).toBeGreaterThan(0);
  });

  it('finds a whole EPA handler id, in lower case', async () => {
    const id = String(generators[3]?.row.epa_handler_id);
    const expected = await expectMatches({}, id.toLowerCase());
    expect(expected.map((g) => g.row.epa_handler_id)).toContain(id);
  });

  it.each([1, 2])(
    'answers %i-character keys like longer ones (a scan instead of the trigram index)',
    async (length) => {
      for (const field of ['generator_name', 'location_city', 'epa_handler_id'] as const) {
        const key = fragment(field, length);
        const expected = await expectMatches({}, key);
        expect(expected.length).toBeGreaterThan(0);
        await expectMatches({}, key.toLowerCase() === key ? key.toUpperCase() : key.toLowerCase());
      }
    },
  );

  it('never matches across two fields', async () => {
    // The end of one generator's name joined to the start of its address, when no single field holds it.
    const candidates = generators.flatMap((g) => {
      const name = String(g.row.generator_name);
      const address = String(g.row.physical_address);
      if (name.length < 3 || address.length < 3) return [];
      const key = `${name.slice(-2)}${address.slice(0, 2)}`;
      return generators.some((item) => generatorMatches(item, {}, key)) ? [] : [key];
    });
    const key = candidates[0];
    if (key === undefined) throw new Error('no key spanning two fields only');
    const answer = await listPage(session, 'generators', { searchKey: key });
    expect(answer.totalElements).toBe(0);
  });

  it.each([
    "'",
    '"',
    '%',
    '_',
    '\\',
    '%%',
    '__',
    'a%',
    '_a',
    "O'",
    "o'b",
    '100%',
    '"; DROP TABLE generators; --',
    '" OR "1"="1',
    'a" b',
    'NEAR(a b)',
    'AND',
    'x*',
    '(^)',
    '{}',
    ':',
    '%_\\',
  ])('treats %j as plain text', async (key) => {
    await expectMatches({}, key);
  });

  it('folds Unicode letters for keys of three characters or more (the trigram index)', async () => {
    const [nordic] = UNICODE_GENERATORS;
    for (const key of ['ærø', 'ÆRØ', 'økologi', 'ÅLAND']) {
      const expected = await expectMatches({}, key);
      expect(
        expected.map((g) => g.row.epa_handler_id),
        key,
      ).toContain(nordic?.epa_handler_id);
    }
  });

  it('folds Unicode letters by the same rule for keys of one or two characters (the scan)', async () => {
    const [nordic] = UNICODE_GENERATORS;
    for (const key of ['Æ', 'æR', 'ø', 'ØK', 'å']) {
      const expected = await expectMatches({}, key);
      expect(
        expected.map((g) => g.row.epa_handler_id),
        key,
      ).toContain(nordic?.epa_handler_id);
    }
  });

  it('counts characters, not UTF-16 code units: an emoji and a letter is a two-character key', async () => {
    const smiley = UNICODE_GENERATORS[1];
    for (const key of ['\u{1F600}v', '\u{1F600}V', '\u{1F600} s', '\u{1F600}']) {
      const expected = await expectMatches({}, key);
      expect(
        expected.map((g) => g.row.epa_handler_id),
        key,
      ).toContain(smiley?.epa_handler_id);
    }
  });

  it('combines with filters', async () => {
    const state = commonValue('states');
    const expected = await expectMatches({ states: [state] }, fragment('generator_name', 3));
    expect(expected.every((g) => g.row.location_state === state)).toBe(true);
  });
});

describe('sort', () => {
  it('agrees with SQLite: the comparator of these tests orders like ORDER BY field, epa_handler_id', () => {
    for (const field of GENERATOR_FIELDS) {
      const sql = server.db
        .prepare(`SELECT id FROM generators ORDER BY ${field}, epa_handler_id`)
        .pluck()
        .all() as number[];
      expect(
        ordered(generators, field, 'asc').map((g) => g.id),
        field,
      ).toEqual(sql);
    }
  });

  const cases = GENERATOR_FIELDS.flatMap((field) =>
    (['asc', 'desc'] as const).map((direction) => [field, direction] as const),
  );

  it.each(cases)(
    'by %s %s orders every row, ties by the key in the same direction',
    async (field, direction) => {
      const { rows } = await walkAllPages(session, 'generators', {
        sort: `${field} ${direction}`,
        pageSize: 500,
        selectedFields: field === 'epa_handler_id' ? 'epa_handler_id' : `epa_handler_id,${field}`,
      });
      const returned = identify('generators', rows, generators);
      expect(returned.map((g) => g.id)).toEqual(ordered(generators, field, direction).map((g) => g.id));
      rows.forEach((row, index) => expect(row[field]).toEqual(returned[index]?.row[field]));
    },
  );

  it('has ties to break in the fields with repeated values', () => {
    const states = new Set(generators.map((g) => g.row.location_state));
    expect(states.size).toBeLessThan(generators.length);
  });

  it.each([
    ['location_state', 'asc'],
    ['location_state ASC', 'asc'],
    ['location_state Desc', 'desc'],
    ['  total_waste   desc  ', 'desc'],
  ] as const)('reads %j as direction %s', async (sort, direction: Direction) => {
    const field = sort.trim().split(/\s+/)[0] ?? '';
    const { rows } = await walkAllPages(session, 'generators', {
      sort,
      pageSize: 500,
      selectedFields: 'epa_handler_id',
    });
    expect(identify('generators', rows, generators).map((g) => g.id)).toEqual(
      ordered(generators, field, direction).map((g) => g.id),
    );
  });

  it('sorts a filtered, searched list too', async () => {
    const filterFields = { states: twoValues('states') };
    const expected = generators.filter((g) => generatorMatches(g, filterFields, 'a'));
    const { rows } = await walkAllPages(session, 'generators', {
      filterFields,
      searchKey: 'a',
      sort: 'total_waste desc',
      pageSize: 7,
      selectedFields: 'epa_handler_id',
    });
    expect(identify('generators', rows, generators).map((g) => g.id)).toEqual(
      ordered(expected, 'total_waste', 'desc').map((g) => g.id),
    );
  });
});

describe('paging', () => {
  it('covers every row exactly once with pages of 37, in the same order as one big page', async () => {
    const filterFields = { states: commonValues('states', 4) };
    const expected = generators.filter((g) => generatorMatches(g, filterFields));
    expect(expected.length).toBeGreaterThan(37);
    const { rows } = await walkAllPages(session, 'generators', {
      filterFields,
      pageSize: 37,
      sort: 'location_city asc',
      selectedFields: 'epa_handler_id',
    });
    expect(identify('generators', rows, generators).map((g) => g.id)).toEqual(
      ordered(expected, 'location_city', 'asc').map((g) => g.id),
    );
  });

  it('covers the whole unfiltered list with pages of 37', async () => {
    const { rows } = await walkAllPages(session, 'generators', {
      pageSize: 37,
      selectedFields: 'epa_handler_id',
    });
    expect(new Set(identify('generators', rows, generators).map((g) => g.id)).size).toBe(generators.length);
  });

  it('answers a page past the end with no rows and the same total', async () => {
    const filterFields = { states: [commonValue('states')] };
    const total = generators.filter((g) => generatorMatches(g, filterFields)).length;
    const pastEnd = Math.ceil(total / 37) + 2;
    expect(await listPage(session, 'generators', { filterFields, page: pastEnd, pageSize: 37 })).toEqual({
      totalElements: total,
      content: [],
    });
    expect(await listPage(session, 'generators', { page: 1_000_000, pageSize: 500 })).toEqual({
      totalElements: generators.length,
      content: [],
    });
  });

  it('answers the largest page number a client can send with no rows', async () => {
    expect(await listPage(session, 'generators', { page: Number.MAX_SAFE_INTEGER, pageSize: 500 })).toEqual({
      totalElements: generators.length,
      content: [],
    });
  });

  it('gives page sizes 1 and 500', async () => {
    const one = await listPage(session, 'generators', {
      page: 2,
      pageSize: 1,
      selectedFields: 'epa_handler_id',
    });
    expect(one.content).toEqual([
      { epa_handler_id: ordered(generators, 'generator_name', 'asc')[2]?.row.epa_handler_id },
    ]);
    const big = await listPage(session, 'generators', { pageSize: 500 });
    expect(big.content.length).toBe(Math.min(500, generators.length));
  });
});

describe('selectedFields', () => {
  it('returns only the fields asked for, in the spec order, ignoring a trailing comma', async () => {
    const answer = await listPage(session, 'generators', {
      selectedFields: 'generator_name,epa_handler_id,',
      pageSize: 20,
    });
    const expected = ordered(generators, 'generator_name', 'asc').slice(0, 20);
    expect(answer.content).toEqual(
      expected.map((g) => ({ epa_handler_id: g.row.epa_handler_id, generator_name: g.row.generator_name })),
    );
    for (const row of answer.content) expect(Object.keys(row)).toEqual(['epa_handler_id', 'generator_name']);
  });

  it('ignores spaces and empty items, and collapses duplicates', async () => {
    const answer = await listPage(session, 'generators', {
      selectedFields: ' total_waste , , location_city,total_waste ,',
      pageSize: 5,
    });
    for (const row of answer.content) expect(Object.keys(row)).toEqual(['location_city', 'total_waste']);
  });

  it.each(['', ' ', ',', ' , ,'])('returns every field for %j', async (selectedFields) => {
    const answer = await listPage(session, 'generators', { selectedFields, pageSize: 3 });
    for (const row of answer.content) expect(Object.keys(row)).toEqual([...GENERATOR_FIELDS]);
  });

  it.each(GENERATOR_FIELDS)('can select %s alone', async (field) => {
    const answer = await listPage(session, 'generators', {
      selectedFields: field,
      pageSize: 3,
      sort: `${field} desc`,
    });
    expect(answer.content).toEqual(
      ordered(generators, field, 'desc')
        .slice(0, 3)
        .map((g) => ({ [field]: g.row[field] })),
    );
  });

  it('refuses an unknown field by name', async () => {
    const answer = await post(
      session.baseUrl,
      PATHS.generators,
      session.token,
      listBody({ selectedFields: 'generator_name, colour ,' }),
    );
    expectValidation(answer, 'body.pageInfo.selectedFields', /colour/);
  });
});
