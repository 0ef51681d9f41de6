/**
 * Deep pages of searched and filtered lists start from the bookmark the page before them noted, as an
 * export or a pack download reads them: every page, read in turn or out of turn, is the one a fresh
 * repository (no bookmarks) gives for the same offset, and a page read in turn tests the search on about as
 * many rows as the first page does, however deep it is. The count of rows tested comes from the search's
 * own SQL function (the many-matches strategy, forced by a zero list limit), so no time is measured.
 */
import { rmSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestField, ManifestFilterFields } from '../../shared/api/index.ts';
import type { Sort } from '../../shared/query/definition.ts';
import { openDatabase } from '../../server/src/db/open.ts';
import { GeneratorsRepository } from '../../server/src/repositories/generators-repository.ts';
import { ManifestsRepository } from '../../server/src/repositories/manifests-repository.ts';
import { buildTestDatabase } from '../helpers/tracker-server.ts';

let dir = '';
const connections: Database.Database[] = [];
/** Rows the search's set test was asked about, on the connection that counts them. */
let tested = 0;
let counted: ManifestsRepository;
let generators: GeneratorsRepository;
/** A repository of its own for each expected answer: no bookmark of an earlier read can help it. */
let fresh: () => { manifests: ManifestsRepository; generators: GeneratorsRepository };

beforeAll(async () => {
  const built = await buildTestDatabase(3000, 21);
  dir = built.dir;
  const db = openDatabase(built.path);
  // Every row the search's set test is asked about passes through here; the wrapper keeps the function's
  // arity, from which better-sqlite3 takes its number of arguments.
  const register = db.function.bind(db) as (
    name: string,
    options: object,
    fn: (id: unknown) => unknown,
  ) => unknown;
  (db as unknown as { function: typeof register }).function = (name, options, fn) =>
    register(name, options, (id: unknown) => {
      tested += 1;
      return fn(id);
    });
  connections.push(db);
  counted = new ManifestsRepository(db, { searchListLimit: 0 });
  generators = new GeneratorsRepository(db);
  fresh = () => {
    const other = openDatabase(built.path);
    connections.push(other);
    return { manifests: new ManifestsRepository(other), generators: new GeneratorsRepository(other) };
  };
}, 60_000);

afterAll(() => {
  for (const db of connections) db.close();
  rmSync(dir, { recursive: true, force: true });
});

const fields: readonly ManifestField[] = [
  'manifest_tracking_number',
  'shipped_date',
  'generator_location_state',
];

function manifestPage(
  repository: ManifestsRepository,
  filterFields: ManifestFilterFields,
  searchKey: string,
  sort: Sort<ManifestField>,
  page: number,
  pageSize: number,
) {
  const bytes = repository.pageBytes({ filterFields, searchKey, sort, page, pageSize, fields });
  return JSON.parse(bytes.toString('utf8')) as { totalElements: number; content: unknown[] };
}

describe('bookmarks of a searched or filtered list', () => {
  it('make a page read in turn test as many rows as the first, however deep', () => {
    const sort: Sort<ManifestField> = { field: 'shipped_date', direction: 'desc' };
    const total = manifestPage(counted, {}, 'inc', sort, 0, 1).totalElements;
    const pageSize = 25;
    const pages = Math.ceil(total / pageSize);
    expect(pages).toBeGreaterThan(8);
    const costs: number[] = [];
    for (let page = 0; page < pages; page += 1) {
      tested = 0;
      manifestPage(counted, {}, 'inc', sort, page, pageSize);
      costs.push(tested);
    }
    const first = costs[0] ?? 0;
    // The last full page: the deepest one a reader reaches in turn.
    expect(costs[pages - 2]).toBeLessThanOrEqual(2 * first);
  });

  it.each<[string, ManifestFilterFields, string, Sort<ManifestField>]>([
    ['a search, newest first', {}, 'inc', { field: 'shipped_date', direction: 'desc' }],
    [
      'a search by state, ties on the key',
      {},
      'Chem',
      { field: 'generator_location_state', direction: 'asc' },
    ],
    ['a one-character search (a scan)', {}, 'q', { field: 'manifest_tracking_number', direction: 'desc' }],
    [
      'a received-date filter',
      { received_date_start: '2023-01-01' },
      '',
      { field: 'shipped_date', direction: 'desc' },
    ],
    [
      'a filter and a search',
      { received_date_end: '2024-06-30' },
      'ELC',
      { field: 'total_waste_quantity_tons', direction: 'asc' },
    ],
  ])(
    'give the same pages as no bookmarks, in turn and out of turn: %s',
    (_, filterFields, searchKey, sort) => {
      const unmarked = fresh().manifests;
      const { totalElements: total } = manifestPage(unmarked, filterFields, searchKey, sort, 0, 1);
      // Every row in one page, from a repository that has noted no bookmark of this query.
      const all = manifestPage(unmarked, filterFields, searchKey, sort, 0, total).content;
      const pageSize = 20;
      expect(all.length).toBeGreaterThan(2 * pageSize);
      const pages = Math.ceil(total / pageSize);
      const order = [
        ...Array.from({ length: pages }, (_, page) => page),
        pages - 1,
        0,
        Math.floor(pages / 2),
        1,
        pages + 2,
      ];
      for (const page of order) {
        const answer = manifestPage(counted, filterFields, searchKey, sort, page, pageSize);
        expect(answer, `page ${page}`).toEqual({
          totalElements: total,
          content: all.slice(page * pageSize, (page + 1) * pageSize),
        });
      }
    },
  );

  it('keep generators pages right as well, read again with other page sizes', () => {
    const query = {
      filterFields: { states: ['CA', 'TX'] },
      searchKey: '',
      sort: { field: 'total_waste' as const, direction: 'desc' as const },
      fields: ['epa_handler_id', 'total_waste' as const] as ('epa_handler_id' | 'total_waste')[],
    };
    const { totalElements: total } = fresh().generators.page({ ...query, page: 0, pageSize: 1 });
    const all = fresh().generators.page({ ...query, page: 0, pageSize: total }).content;
    expect(all.length).toBeGreaterThan(20);
    for (const [page, pageSize] of [
      [0, 7],
      [1, 7],
      [2, 7],
      [3, 7],
      [1, 10],
      [2, 10],
      [0, 21],
      [5, 3],
    ] as const) {
      expect(generators.page({ ...query, page, pageSize }).content, `${page} × ${pageSize}`).toEqual(
        all.slice(page * pageSize, (page + 1) * pageSize),
      );
    }
  });
});
