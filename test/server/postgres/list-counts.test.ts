/**
 * A server process keeps the counts of the latest searches and filters (pg-cache.ts `recent`) for the data
 * version they were read at: a commit that changes which rows match is in the next count.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildDemoDatabase } from '../../../server/src/data/demo/build-demo.ts';
import { VersionedCache } from '../../../server/src/postgres/pg-cache.ts';
import { manifestWhere } from '../../../server/src/postgres/pg-query.ts';
import { countOf } from '../../../server/src/postgres/pg-reads.ts';
import { connect } from '../../../server/src/postgres/pg-store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres-database.ts';

let dir = '';
let database: TestDatabase;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tracker-list-counts-'));
  await buildDemoDatabase(join(dir, 'demo.db'), { manifests: 200, seed: 3 });
  database = await createTestDatabase(join(dir, 'demo.db'));
});

afterAll(async () => {
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

it('counts a search again once a commit has changed the rows it matches', async () => {
  const sql = await connect(database.url, { max: 2 });
  try {
    const cache = new VersionedCache(sql);
    const search = manifestWhere({}, 'Zyxwv');
    expect(await countOf(sql, cache, 'manifests', search)).toBe(0);
    // Another process's commit: the row now matches, and the data version has moved with it.
    await sql`UPDATE manifests SET generator_name = 'Zyxwv Plating' WHERE id = (SELECT min(id) FROM manifests)`;
    expect(await countOf(sql, cache, 'manifests', search)).toBe(1);
    // The same search with other filters is its own count.
    const narrowed = manifestWhere({ generator_names: ['Nobody'] }, 'Zyxwv');
    expect(await countOf(sql, cache, 'manifests', narrowed)).toBe(0);
  } finally {
    await sql.end();
  }
});

it("keeps a filter's count for the data version it was read at, and counts again once it moves", async () => {
  const sql = await connect(database.url, { max: 2 });
  try {
    const cache = new VersionedCache(sql);
    const [first] = await sql<{ id: number; received: string }[]>`
      SELECT id, received_date AS received FROM manifests WHERE received_date <> '' ORDER BY id LIMIT 1`;
    if (!first) throw new Error('the demo data has no received manifest');
    const range = manifestWhere(
      { received_date_start: first.received, received_date_end: first.received },
      '',
    );
    const counted = await countOf(sql, cache, 'manifests', range);
    expect(counted).toBeGreaterThan(0);
    // A change that does not move the data version (triggers off, as only a superuser can) is not seen: the
    // count was kept, not read again.
    await sql.begin(async (tx) => {
      await tx`SET LOCAL session_replication_role = replica`;
      await tx`UPDATE manifests SET received_date = '1990-01-01' WHERE id = ${first.id}`;
    });
    expect(await countOf(sql, cache, 'manifests', range)).toBe(counted);
    // Any commit that moves it: the next count reads the rows again.
    await sql`UPDATE manifests SET generator_name = generator_name WHERE id = ${first.id}`;
    expect(await countOf(sql, cache, 'manifests', range)).toBe(counted - 1);
  } finally {
    await sql.end();
  }
});
