/**
 * shared/query as plain functions: the search fold and the search rule's refusals, the order of values and
 * the tie-breaker on the public key, what each filter member of the definition matches (run by the test
 * oracle), the totals' reductions, and the lookup page. The server and the offline engine are held to the
 * definition in test/server/query-semantics.test.ts and test/offline/engine-differential.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { GeneratorLookupQuery, SearchKey } from '../../shared/api/index.ts';
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../../shared/query/definition.ts';
import { lookupEntries, lookupPage } from '../../shared/query/lookup.ts';
import { asciiFoldSuffices, foldCase, matchesAnySearch } from '../../shared/query/search.ts';
import { compareValues } from '../../shared/query/sort.ts';
import { reduceTotals } from '../../shared/query/totals.ts';
import { manifestFacts } from '../server/support.ts';
import { comparator, matches, type OracleItem } from '../helpers/query-oracle.ts';

describe('search', () => {
  it.each([
    ['ÉCOLE', 'école'],
    ['Straße', 'straße'],
    ['STRASSE', 'strasse'],
    ['İstanbul', 'İstanbul'],
    ['ΟΔΟΣ', 'οδοσ'],
    ['οδος', 'οδοσ'],
    ['\u212Aelvin', 'kelvin'],
    ['\u{1F600}ABC', '\u{1F600}abc'],
  ])('folds %j to %j', (text, folded) => {
    expect(foldCase(text)).toBe(folded);
  });

  it('matches a case-insensitive substring of any one value, and everything for an empty search', () => {
    expect(matchesAnySearch(['x', 'ÉCOLE Cleaners'], 'école')).toBe(true);
    expect(matchesAnySearch(['Straße'], 'STRASSE')).toBe(false);
    expect(matchesAnySearch(['ab', 'cd'], 'bc')).toBe(false);
    expect(matchesAnySearch(['anything'], '')).toBe(true);
  });

  it('knows when folding A–Z alone finds the same matches', () => {
    expect(asciiFoldSuffices('ab')).toBe(true);
    expect(asciiFoldSuffices('K')).toBe(false);
    expect(asciiFoldSuffices('s')).toBe(false);
    expect(asciiFoldSuffices('é')).toBe(false);
  });

  const controls = [...Array.from({ length: 0x20 }, (_, point) => point), 0x7f];
  it.each(controls)('refuses control character %i, naming it and where it is', (point) => {
    const parsed = SearchKey.safeParse(`ab${String.fromCharCode(point)}`);
    const name = `U+${point.toString(16).toUpperCase().padStart(4, '0')}`;
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
      `searchKey must not hold control characters (U+0000–U+001F, U+007F); found ${name} at character 3`,
    ]);
  });

  it('names the lookup search as such, and counts characters, not UTF-16 units', () => {
    const parsed = GeneratorLookupQuery.safeParse({ field: 'naics', page: 1, search: '\u{1F600}x\n' });
    expect(parsed.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [
        ['search'],
        'search must not hold control characters (U+0000–U+001F, U+007F); found U+000A at character 3',
      ],
    ]);
  });

  it('refuses a key too long once, without also searching it for control characters', () => {
    const parsed = SearchKey.safeParse(`${'a'.repeat(200)}\t`);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
      'searchKey is at most 200 characters',
    ]);
  });

  it('accepts any other text as it is', () => {
    expect(SearchKey.parse(' é\u{1F600}\u0080')).toBe(' é\u{1F600}\u0080');
  });
});

describe('sort', () => {
  it('puts null first, then numbers, then text by code point', () => {
    const values = ['\u{1F600}', 'b', '\uFF3A', 2, null, 10, 'a'];
    expect([...values].sort(compareValues)).toEqual([null, 2, 10, 'a', 'b', '\uFF3A', '\u{1F600}']);
  });

  it('breaks ties on the public key in the sort’s direction', () => {
    const rows = [
      { epa_handler_id: 'B', generator_name: 'x' },
      { epa_handler_id: 'A', generator_name: 'x' },
      { epa_handler_id: 'C', generator_name: 'w' },
    ];
    const asc = [...rows].sort(comparator(GENERATOR_QUERY, { field: 'generator_name', direction: 'asc' }));
    expect(asc.map((row) => row.epa_handler_id)).toEqual(['C', 'A', 'B']);
    const desc = [...rows].sort(comparator(GENERATOR_QUERY, { field: 'generator_name', direction: 'desc' }));
    expect(desc.map((row) => row.epa_handler_id)).toEqual(['B', 'A', 'C']);
    const manifests = [
      { manifest_tracking_number: '2', shipped_date: '2024-01-01' },
      { manifest_tracking_number: '1', shipped_date: '2024-01-01' },
    ];
    const byDate = [...manifests].sort(
      comparator(MANIFEST_QUERY, { field: 'shipped_date', direction: 'asc' }),
    );
    expect(byDate.map((row) => row.manifest_tracking_number)).toEqual(['1', '2']);
  });
});

const generator: OracleItem = {
  row: {
    epa_handler_id: 'CAD000000001',
    generator_name: 'Acme Plating',
    physical_address: '1 Main St',
    location_city: 'Fresno',
    location_state: 'CA',
    location_zip: '93701',
    contact_name: 'Ada',
    primary_naics_code: '332813',
    primary_naics_desc: 'Electroplating',
  },
  facts: {
    shippedYears: new Set(['2023']),
    wasteCodes: new Set(['D001']),
    handlingCodes: new Set(['H141']),
    statuses: new Set(['LQG']),
  },
};
const generatorMatches = (item: OracleItem, filters: Record<string, unknown>, searchKey = '') =>
  matches(GENERATOR_QUERY, item, filters, searchKey);

describe('generator filters, as the definition reads them', () => {
  it.each([
    ['shippedYears', '2023', '2024'],
    ['cities', 'Fresno', 'fresno'],
    ['naics', '332813', '33281'],
    ['ids', 'CAD000000001', 'CAD000000002'],
    ['states', 'CA', 'ca'],
    ['wasteCodes', 'D001', 'D002'],
    ['names', 'Acme Plating', 'Acme'],
    ['statuses', 'LQG', 'SQG'],
    ['handlingCodes', 'H141', 'H040'],
  ] as const)('%s matches %j exactly, not %j', (member, hit, miss) => {
    expect(generatorMatches(generator, { [member]: [hit] })).toBe(true);
    expect(generatorMatches(generator, { [member]: [miss, hit] })).toBe(true);
    expect(generatorMatches(generator, { [member]: [miss] })).toBe(false);
    expect(generatorMatches(generator, { [member]: [] })).toBe(true);
  });

  it('never matches "" in a member over a fact, even when a set held it', () => {
    const odd = {
      ...generator,
      facts: {
        ...generator.facts,
        statuses: new Set(['']),
        wasteCodes: new Set(['']),
        handlingCodes: new Set(['']),
      },
    };
    for (const member of ['statuses', 'wasteCodes', 'handlingCodes'] as const) {
      expect(generatorMatches(odd, { [member]: [''] })).toBe(false);
    }
  });

  it('ANDs members and the search', () => {
    expect(generatorMatches(generator, { states: ['CA'], cities: ['Fresno'] }, 'PLAT')).toBe(true);
    expect(generatorMatches(generator, { states: ['CA'], cities: ['Fresno'] }, 'nope')).toBe(false);
    expect(generatorMatches(generator, { states: ['CA'], cities: ['Reno'] })).toBe(false);
  });
});

const manifest: OracleItem = {
  row: {
    manifest_tracking_number: '000000001ELC',
    generator_name: 'Acme Plating',
    generator_epa_id: 'CAD000000001',
    transporter: 'Haulers',
    designated_facility_name: 'Landfill',
    shipped_date: '2024-03-10',
    received_date: '2024-03-12',
  },
  facts: manifestFacts([
    { usdot_id_number: 'UN1993', container_type_code: 'DM', management_method_code: 'H141' },
    { usdot_id_number: '', container_type_code: 'TT', management_method_code: '' },
  ]),
};
const manifestMatches = (filters: Record<string, unknown>) => matches(MANIFEST_QUERY, manifest, filters);

describe('manifest filters, as the definition reads them', () => {
  it.each([
    ['generator_names', 'Acme Plating', 'Acme'],
    ['transporter_names', 'Haulers', 'haulers'],
    ['designated_facility_names', 'Landfill', 'Land'],
    ['dot_id_nos', 'UN1993', ''],
    ['container_types', 'TT', ''],
    ['handling_codes', 'H141', ''],
  ] as const)('%s matches %j, not %j', (member, hit, miss) => {
    expect(manifestMatches({ [member]: [hit] })).toBe(true);
    expect(manifestMatches({ [member]: [miss] })).toBe(false);
  });

  it.each([
    ['shipped_date_start', '2024-03-10', '2024-03-11'],
    ['shipped_date_end', '2024-03-10', '2024-03-09'],
    ['received_date_start', '2024-03-12', '2024-03-13'],
    ['received_date_end', '2024-03-12', '2024-03-11'],
  ] as const)('%s is inclusive: %j holds, %j does not', (member, hit, miss) => {
    expect(manifestMatches({ [member]: hit })).toBe(true);
    expect(manifestMatches({ [member]: miss })).toBe(false);
    expect(manifestMatches({ [member]: '' })).toBe(true);
  });
});

describe('totals, as the engines that hold rows in memory reduce them', () => {
  it('counts rows, sums with compensation and rounds, and counts rows above zero', () => {
    // 1 between ±1e16 is lost in plain addition; added with compensation, as SQLite's sum(), it is kept.
    const tons = [1e16, 1.23456, -1e16, 2];
    const columns = {
      total_waste_quantity_tons: Float64Array.from(tons),
      container_count: Float64Array.from([0, 1, 2, 3]),
      waste_stream_count: Float64Array.from([1, 1, 1, 1]),
    };
    expect(reduceTotals(MANIFEST_QUERY.totals, columns, Int32Array.from([0, 1, 2, 3]))).toEqual({
      total_waste: 3.2346,
      shipped_count: 4,
      container_count: 6,
      waste_streams: 4,
    });
    expect(reduceTotals(MANIFEST_QUERY.totals, columns, Int32Array.from([1, 3]))).toMatchObject({
      shipped_count: 2,
      container_count: 4,
    });
    expect(reduceTotals(MANIFEST_QUERY.totals, columns, new Int32Array(0))).toEqual({
      total_waste: 0,
      shipped_count: 0,
      container_count: 0,
      waste_streams: 0,
    });
    const generators = {
      shippedTons: Float64Array.from([1.5, 0, 2.25]),
      shippedCount: Float64Array.from([3, 0, 1]),
      containerCount: Float64Array.from([4, 0, 2]),
    };
    expect(reduceTotals(GENERATOR_QUERY.totals, generators, Int32Array.from([0, 1, 2]))).toEqual({
      epa_total: 3.75,
      shipped_count: 4,
      container_count: 6,
      mmc_count: 2,
    });
  });
});

describe('lookups', () => {
  const entries = lookupEntries(
    [
      'b',
      '',
      'a',
      'É1',
      ...Array.from({ length: 60 }, (_, index) => `é${String(index).padStart(2, '0')}`),
    ].map((value) => ({ value, text: value })),
  );

  it('pages 50 entries at a time, sorted by code point, empty values left out', () => {
    expect(entries[0]).toEqual({ value: 'a', text: 'a' });
    expect(entries.some((entry) => entry.value === '')).toBe(false);
    const first = lookupPage(entries, '', 1);
    expect(first.results).toHaveLength(50);
    expect(first.pagination.more).toBe(true);
    expect(lookupPage(entries, '', 2).pagination.more).toBe(false);
  });

  it('searches with the same fold', () => {
    const page = lookupPage(entries, 'É', 1);
    expect(page.results[0]).toEqual({ value: 'É1', text: 'É1' });
    expect(page.results).toHaveLength(50);
    expect(page.pagination.more).toBe(true);
    expect(lookupPage(entries, 'É', 2).results).toHaveLength(11);
  });
});
