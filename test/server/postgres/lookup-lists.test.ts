/**
 * The lists of one value per row on PostgreSQL (pg-lookup-lists.ts): every page of a search equals the
 * lookup's definition (shared/query/lookup.ts) over the rows, when the list is in order as built, while
 * rows inserted since wait after it out of order, once the list has been written in order again, after
 * rows are deleted, and in a database migrated from before the lists; and how a search is read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupEntries, lookupPage, type LookupPage } from '../../../shared/query/lookup.ts';
import { buildDemoDatabase } from '../../../server/src/data/demo/build-demo.ts';
import { MANIFEST_LOOKUP_LISTS } from '../../../server/src/db/lookup-lists.ts';
import { VersionedCache } from '../../../server/src/postgres/pg-cache.ts';
import {
  ONE_PER_ROW,
  listTriggers,
  onePerRowList,
  rewriteUnorderedLists,
} from '../../../server/src/postgres/pg-lookup-lists.ts';
import { indexedSearchSql, walks } from '../../../server/src/postgres/pg-list-page.ts';
import { lookups } from '../../../server/src/postgres/pg-reads.ts';
import { migrate } from '../../../server/src/postgres/pg-schema.ts';
import { connect } from '../../../server/src/postgres/pg-store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres-database.ts';

const NUMBERS = onePerRowList('manifests.manifest_number');

/** Searches of every kind: none, too short for trigrams, common, cut from a number, and matching nothing. */
const SEARCHES = ['', '0', '1', '00', '000', '0001', 'jk', 'X', 'zzq'];

let dir = '';
let database: TestDatabase;
let sql: Sql;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tracker-lookup-lists-'));
  await buildDemoDatabase(join(dir, 'demo.db'), { manifests: 300, seed: 5 });
  database = await createTestDatabase(join(dir, 'demo.db'));
  sql = await connect(database.url, { max: 2 });
});

afterAll(async () => {
  await sql?.end();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** Every page of `search`, up to the one that says no more follow. */
async function pagesOf(read: (page: number) => Promise<LookupPage>): Promise<LookupPage[]> {
  const pages: LookupPage[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await read(page);
    pages.push(answer);
    if (!answer.pagination.more) return pages;
  }
}

/** Each search's pages, from the server's reads and from the definition over the rows. */
async function expectDefinitionPages(searches: readonly string[] = SEARCHES): Promise<void> {
  const lookup = lookups(sql, new VersionedCache(sql), 'manifests', MANIFEST_LOOKUP_LISTS);
  const numbers = (await sql`SELECT manifest_tracking_number AS value FROM manifests`).map((row) => ({
    value: String(row.value),
    text: String(row.value),
  }));
  const entries = lookupEntries(numbers);
  for (const search of searches) {
    const read = await pagesOf((page) => lookup('manifest_number', search, page));
    const defined = await pagesOf((page) => Promise.resolve(lookupPage(entries, search, page)));
    expect(read, search).toEqual(defined);
  }
}

/** The list's values by position, and the positions up to which it is in order. */
async function listState(): Promise<{ values: string[]; orderedThrough: number }> {
  const values = (await sql.unsafe(`SELECT value FROM ${NUMBERS?.table} ORDER BY pos`)).map((row) =>
    String(row.value),
  );
  const [state] = await sql`SELECT ordered_through FROM lookup_lists WHERE list = ${NUMBERS?.name ?? ''}`;
  return { values, orderedThrough: Number(state?.ordered_through) };
}

describe('the manifest-number lookup list on PostgreSQL', () => {
  it('is built in lookup order after the load, and answers as the definition', async () => {
    const state = await listState();
    expect(state.values).toEqual([...state.values].sort());
    expect(state.orderedThrough).toBe(300);
    await expectDefinitionPages();
  });

  it('merges the entries an import added after the ordered ones into every page, in order', async () => {
    // New manifests whose numbers fall between the others' (each an older number with an X after it),
    // inserted in the reverse of lookup order, in two statements of their own transactions (an import's
    // batches, an operator's SQL): each statement's trigger lists them after the others.
    const insert = (remainder: number) => sql`
      INSERT INTO manifests (id, manifest_tracking_number, generator_id, generator_name, generator_epa_id,
        generator_location_state, transporter, designated_facility_name, shipped_date, received_date,
        total_waste_quantity_tons, container_count, waste_stream_count)
      SELECT id + 100000, manifest_tracking_number || 'X', generator_id, generator_name, generator_epa_id,
        generator_location_state, transporter, designated_facility_name, shipped_date, received_date,
        total_waste_quantity_tons, container_count, waste_stream_count
      FROM manifests WHERE id < 100000 AND id % 6 = ${remainder} ORDER BY manifest_tracking_number DESC`;
    const added = (await insert(0)).count + (await insert(3)).count;
    const appended = await listState();
    expect(appended.orderedThrough).toBe(300);
    expect(appended.values).toHaveLength(300 + added);
    expect(appended.values.slice(300)).not.toEqual([...appended.values.slice(300)].sort());
    await expectDefinitionPages();

    const written: string[] = [];
    await rewriteUnorderedLists(sql, (name) => written.push(name));
    expect(written).toEqual(['manifests.manifest_number']);
    const rewritten = await listState();
    expect(rewritten.values).toEqual([...appended.values].sort());
    expect(rewritten.orderedThrough).toBe(300 + added);
    await expectDefinitionPages();

    // An ordered list is left as it is.
    written.length = 0;
    await rewriteUnorderedLists(sql, (name) => written.push(name));
    expect(written).toEqual([]);
  });

  it('takes out the entries of deleted rows', async () => {
    const before = await listState();
    const deleted =
      await sql`DELETE FROM manifests WHERE id % 50 = 1 RETURNING manifest_tracking_number AS value`;
    expect(deleted.length).toBeGreaterThan(1);
    const gone = new Set(deleted.map((row) => String(row.value)));
    const after = await listState();
    expect(after.values).toEqual(before.values.filter((value) => !gone.has(value)));
    await expectDefinitionPages();
  });
});

describe('a database loaded by a version without the lists', () => {
  it('gets them, in order and kept by their triggers, when it is migrated', async () => {
    // Back to schema version 3, as a database loaded before this version is.
    await sql.unsafe(`
      DROP TABLE lookup_lists, ${ONE_PER_ROW.map((list) => list.table).join(', ')};
      DROP FUNCTION ${ONE_PER_ROW.flatMap((list) => Object.values(listTriggers(list))).join(', ')} CASCADE;
      DELETE FROM schema_migrations WHERE version = 4;`);
    expect(await migrate(sql)).toEqual([4]);
    const numbers = (await sql`SELECT manifest_tracking_number AS value FROM manifests`).map((row) =>
      String(row.value),
    );
    const state = await listState();
    expect(state.values).toEqual([...numbers].sort());
    expect(state.orderedThrough).toBe(numbers.length);
    await sql`
      INSERT INTO manifests (id, manifest_tracking_number, generator_id, generator_name, generator_epa_id,
        generator_location_state, transporter, designated_facility_name, shipped_date, received_date,
        total_waste_quantity_tons, container_count, waste_stream_count)
      SELECT id + 200000, manifest_tracking_number || 'M', generator_id, generator_name, generator_epa_id,
        generator_location_state, transporter, designated_facility_name, shipped_date, received_date,
        total_waste_quantity_tons, container_count, waste_stream_count
      FROM manifests WHERE id % 7 = 0`;
    await expectDefinitionPages();
  });
});

describe('a key holding a run of one character', () => {
  /** Keys holding runs of four and more, a run of three, and runs the folding makes. */
  const RUN_SEARCHES = ['0000', '00000', '000', 'aaaa', 'AAAA', 'éééé', 'r0000'];
  /** Whether a run-key search of the ordered entries is planned through the index of the entries with runs. */
  const usesRunIndex = async (key: string) => {
    const plan = await sql.begin(async (tx) => {
      await tx.unsafe('SET LOCAL enable_seqscan = off');
      const query = indexedSearchSql(NUMBERS?.table ?? '', '<=', key).replace(/\$3/, `'%${key}%'`);
      return await tx.unsafe(`EXPLAIN ${query.replace(/\$1/, '1000000').replace(/\$2/, '51')}`);
    });
    return plan.map((row) => String(row['QUERY PLAN'])).some((line) => line.includes('_runs'));
  };

  it('finds every entry holding the key, in order, whether in order or added since', async () => {
    // Numbers with a run of four and of five, a run of three only, and runs that only the folded text holds.
    const runs = ['R0000A', 'R00000B', 'R000C', 'RAaAaD', 'RÉéÉéE', 'R0000F'];
    await sql`
      INSERT INTO manifests (id, manifest_tracking_number, generator_id, generator_name, generator_epa_id,
        generator_location_state, transporter, designated_facility_name, shipped_date, received_date,
        total_waste_quantity_tons, container_count, waste_stream_count)
      SELECT 300000 + n, number, generator_id, generator_name, generator_epa_id, generator_location_state,
        transporter, designated_facility_name, shipped_date, received_date, total_waste_quantity_tons,
        container_count, waste_stream_count
      FROM unnest(${runs}::text[]) WITH ORDINALITY AS made(number, n),
        (SELECT * FROM manifests ORDER BY id LIMIT 1) AS model`;
    await expectDefinitionPages(RUN_SEARCHES);
    await rewriteUnorderedLists(sql);
    await expectDefinitionPages(RUN_SEARCHES);
    const [flagged] = await sql.unsafe(
      `SELECT string_agg(value, ' ' ORDER BY value) AS values FROM ${NUMBERS?.table} WHERE has_run`,
    );
    expect(String(flagged?.values).split(' ')).toEqual(
      expect.arrayContaining(['R0000A', 'R00000B', 'RAaAaD', 'RÉéÉéE', 'R0000F']),
    );
    expect(String(flagged?.values)).not.toContain('R000C');
  });

  it('is read through the index of the entries holding a run, and only such a key', async () => {
    expect(await usesRunIndex('0000')).toBe(true);
    expect(await usesRunIndex('éééé')).toBe(true);
    expect(await usesRunIndex('000')).toBe(false);
  });

  it('gets the index on a list built before it, when it is migrated', async () => {
    await sql.unsafe(`
      ${ONE_PER_ROW.map((list) => `ALTER TABLE ${list.table} DROP COLUMN has_run;`).join('\n')}
      DELETE FROM schema_migrations WHERE version = 6;`);
    expect(await migrate(sql)).toEqual([6]);
    expect(await usesRunIndex('0000')).toBe(true);
    await expectDefinitionPages(RUN_SEARCHES);
  });
});

describe('how a search of the list is read', () => {
  // A sample of 1,000 numbers, each standing for 100 in order: "123" in one of every 20, early and late;
  // "txd" in the last 100 only; "zzq" nowhere.
  const folded = Array.from({ length: 1000 }, (_, index) =>
    index % 20 === 3 ? `a123-${index}` : index >= 900 ? `txd${index}` : `n${index}`,
  );
  const sample = { every: 100, folded };
  it.each([
    ['a key spread evenly, its page among the first positions', '123', 51, true],
    ['a key whose matches all lie late in the order', 'txd', 51, false],
    ['a key nothing in the sample holds', 'zzq', 51, false],
    ['a deep page of an even key, further than its matches are many', '123', 2001, false],
  ])('%s', (_, key, needed, walked) => {
    expect(walks(sample, key, needed)).toBe(walked);
  });
});
