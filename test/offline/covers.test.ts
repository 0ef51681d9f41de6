/**
 * The offline engine's scope check: which requests a pack answers exactly (renderer/src/offline/engine/
 * covers.ts). The differential test shows the covered ones are answered as the server answers them; this
 * table pins the edges: narrower values and dates are inside, anything that could need a row the pack does
 * not hold is outside.
 */
import { describe, expect, it } from 'vitest';
import type {
  EngineRequestName,
  EngineRequests,
  PackQuery,
} from '../../renderer/src/offline/engine/contract.ts';
import { covers } from '../../renderer/src/offline/engine/covers.ts';

const page = { page: 0, pageSize: 50 };
const CA: PackQuery = { list: 'generators', filterFields: { states: ['CA', 'NV'] }, searchKey: '' };
const YEAR: PackQuery = {
  list: 'manifests',
  filterFields: {
    shipped_date_start: '2024-01-01',
    shipped_date_end: '2024-12-31',
    handling_codes: ['H141'],
  },
  searchKey: '',
};
const SEARCHED: PackQuery = { list: 'manifests', filterFields: {}, searchKey: 'Clean' };
const WHOLE: PackQuery = { list: 'manifests', filterFields: {}, searchKey: '' };

type Case = [string, PackQuery, EngineRequestName, EngineRequests[EngineRequestName], boolean];

const cases: Case[] = [
  [
    'the pack query itself',
    CA,
    'generators.list',
    { pageInfo: page, filterFields: { states: ['CA', 'NV'] } },
    true,
  ],
  ['fewer of the values', CA, 'generators.list', { pageInfo: page, filterFields: { states: ['NV'] } }, true],
  [
    'a further member',
    CA,
    'generators.list',
    { pageInfo: page, filterFields: { states: ['CA'], shippedYears: ['2024'] } },
    true,
  ],
  [
    'a search in a pack without one',
    CA,
    'generators.list',
    { pageInfo: page, filterFields: { states: ['CA'] }, searchKey: 'ab' },
    true,
  ],
  [
    'a value outside the pack',
    CA,
    'generators.list',
    { pageInfo: page, filterFields: { states: ['CA', 'OR'] } },
    false,
  ],
  ['the member left out', CA, 'generators.list', { pageInfo: page, filterFields: {} }, false],
  ['the member emptied', CA, 'generators.list', { pageInfo: page, filterFields: { states: [] } }, false],
  ['the other list', CA, 'manifests.list', { pageInfo: page }, false],
  [
    'generator totals inside the pack',
    CA,
    'generators.aggregate',
    { filterFields: { states: ['CA'] } },
    true,
  ],
  ['generator totals outside the pack', CA, 'generators.aggregate', { filterFields: {} }, false],
  ['a lookup of a filtered pack', CA, 'generators.lookup', { field: 'generator_city', page: 1 }, false],
  [
    'a detail the ids could hold',
    { ...CA, filterFields: { ids: ['X1'] } },
    'generators.detail',
    { handler_id: 'X1' },
    true,
  ],
  [
    'a detail the ids exclude',
    { ...CA, filterFields: { ids: ['X1'] } },
    'generators.detail',
    { handler_id: 'X2' },
    false,
  ],
  ['a detail from a manifests pack', YEAR, 'generators.detail', { handler_id: 'X2' }, true],
  [
    'dates inside the range',
    YEAR,
    'manifests.list',
    { pageInfo: page, filterFields: { ...YEAR.filterFields, shipped_date_start: '2024-03-01' } },
    true,
  ],
  [
    'the totals of dates inside',
    YEAR,
    'manifests.aggregate',
    { filterFields: { ...YEAR.filterFields, shipped_date_end: '2024-06-30' } },
    true,
  ],
  [
    'a start before the range',
    YEAR,
    'manifests.list',
    { pageInfo: page, filterFields: { ...YEAR.filterFields, shipped_date_start: '2023-12-31' } },
    false,
  ],
  [
    'an end after the range',
    YEAR,
    'manifests.aggregate',
    { filterFields: { ...YEAR.filterFields, shipped_date_end: '2025-01-01' } },
    false,
  ],
  [
    'no shipped range at all',
    YEAR,
    'manifests.list',
    { pageInfo: page, filterFields: { handling_codes: ['H141'] } },
    false,
  ],
  [
    'received dates added',
    YEAR,
    'manifests.list',
    { pageInfo: page, filterFields: { ...YEAR.filterFields, received_date_end: '2024-02-01' } },
    true,
  ],
  [
    'another handling code',
    YEAR,
    'manifests.list',
    { pageInfo: page, filterFields: { ...YEAR.filterFields, handling_codes: ['H040'] } },
    false,
  ],
  ['the same search', SEARCHED, 'manifests.list', { pageInfo: page, searchKey: 'Clean' }, true],
  [
    'the same search in another case',
    SEARCHED,
    'manifests.list',
    { pageInfo: page, searchKey: 'CLEAN' },
    true,
  ],
  ['a longer search holding it', SEARCHED, 'manifests.aggregate', { searchKey: 'clean h' }, true],
  ['a shorter search', SEARCHED, 'manifests.list', { pageInfo: page, searchKey: 'Clea' }, false],
  ['no search', SEARCHED, 'manifests.list', { pageInfo: page }, false],
  [
    'a lookup of a searched pack',
    SEARCHED,
    'manifests.lookup',
    { field: 'transporter_name', page: 1 },
    false,
  ],
  [
    'a lookup of the whole list',
    WHOLE,
    'manifests.lookup',
    { field: 'transporter_name', page: 3, search: 'x' },
    true,
  ],
  ['a lookup of the other list', WHOLE, 'generators.lookup', { field: 'generator_city', page: 1 }, false],
];

describe('covers: a request inside a pack’s scope, and only then', () => {
  it.each(cases)('%s', (_name, pack, name, request, expected) => {
    expect(covers(pack, name, request)).toBe(expected);
  });

  it.each([
    ['no input', undefined],
    ['a list for filters', { filterFields: ['CA'], searchKey: 7 }],
    ['a number for an id', { handler_id: 42 }],
  ])(
    'takes a request of the wrong shape (%s) without throwing, for the engine to refuse',
    (_name, request) => {
      for (const name of ['generators.list', 'generators.detail', 'manifests.aggregate'] as const) {
        expect(() => covers(CA, name, request as never)).not.toThrow();
      }
    },
  );
});
