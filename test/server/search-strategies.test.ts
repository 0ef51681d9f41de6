/**
 * searchKey is answered two ways depending on how many rows match (server/src/repositories/trigram-search.ts):
 * an id list for few matches, a per-row set test for many. The demo test data never reaches the many-matches
 * threshold, so this drives the second way by lowering it, and checks both give the same pages, counts and
 * totals for every sort.
 */
import type Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATOR_FIELDS, MANIFEST_FIELDS } from '../../shared/api/index.ts';
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../../shared/query/definition.ts';
import { openDatabase } from '../../server/src/db/open.ts';
import { GeneratorsRepository } from '../../server/src/repositories/generators-repository.ts';
import { ManifestsRepository } from '../../server/src/repositories/manifests-repository.ts';
import { buildTestDatabase } from '../helpers/tracker-server.ts';

let dir = '';
const connections: Database.Database[] = [];
let listed: { generators: GeneratorsRepository; manifests: ManifestsRepository };
let probed: { generators: GeneratorsRepository; manifests: ManifestsRepository };

beforeAll(async () => {
  const built = await buildTestDatabase(3000, 11);
  dir = built.dir;
  // One connection each: the set test is a SQL function registered per connection.
  const listDb = openDatabase(built.path);
  const probeDb = openDatabase(built.path);
  connections.push(listDb, probeDb);
  listed = {
    generators: new GeneratorsRepository(listDb, { searchListLimit: Number.MAX_SAFE_INTEGER }),
    manifests: new ManifestsRepository(listDb, { searchListLimit: Number.MAX_SAFE_INTEGER }),
  };
  probed = {
    generators: new GeneratorsRepository(probeDb, { searchListLimit: 0 }),
    manifests: new ManifestsRepository(probeDb, { searchListLimit: 0 }),
  };
});

afterAll(() => {
  for (const db of connections) db.close();
  rmSync(dir, { recursive: true, force: true });
});

const KEYS = ['inc', 'Chem', 'ELC', 'waste', 'zzzz-no-match'];

describe('a search with many matches gives what the same search with few matches gives', () => {
  it.each(KEYS)('manifests searched for %j, every sort, both directions, two pages', (searchKey) => {
    for (const field of MANIFEST_QUERY.sortFields) {
      for (const direction of ['asc', 'desc'] as const) {
        for (const page of [0, 3]) {
          const query = {
            filterFields: {},
            searchKey,
            sort: { field, direction },
            page,
            pageSize: 25,
            fields: MANIFEST_FIELDS,
          };
          expect(probed.manifests.pageBytes(query)).toEqual(listed.manifests.pageBytes(query));
        }
      }
    }
    expect(probed.manifests.totals({}, searchKey)).toEqual(listed.manifests.totals({}, searchKey));
  });

  it.each(KEYS)('generators searched for %j, combined with a state filter too', (searchKey) => {
    for (const field of GENERATOR_QUERY.sortFields) {
      for (const filterFields of [{}, { states: ['TX', 'CA', 'LA'] }]) {
        const query = {
          filterFields,
          searchKey,
          sort: { field, direction: 'desc' as const },
          page: 1,
          pageSize: 20,
          fields: GENERATOR_FIELDS,
        };
        expect(probed.generators.page(query)).toEqual(listed.generators.page(query));
      }
    }
    expect(probed.generators.totals({}, searchKey)).toEqual(listed.generators.totals({}, searchKey));
  });

  it('finds rows at all, so the comparison above is not of empty pages', () => {
    const found = JSON.parse(
      listed.manifests
        .pageBytes({
          filterFields: {},
          searchKey: 'inc',
          sort: { field: 'shipped_date', direction: 'desc' },
          page: 0,
          pageSize: 25,
          fields: MANIFEST_FIELDS,
        })
        .toString(),
    ) as { totalElements: number; content: unknown[] };
    expect(found.totalElements).toBeGreaterThan(25);
    expect(found.content).toHaveLength(25);
  });
});
