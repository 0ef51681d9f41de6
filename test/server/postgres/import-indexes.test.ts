/**
 * An import into an empty PostgreSQL database builds the indexes the serving queries read at its finish, as a
 * load does (pg-finalize.ts), and only those it reads itself while it runs; into a database that has data
 * every index is there from the start.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runImport } from '../../../server/src/import/run.ts';
import { discoverSources } from '../../../server/src/import/sources.ts';
import { indexName, indexStatements } from '../../../server/src/postgres/pg-finalize.ts';
import { ONE_PER_ROW } from '../../../server/src/postgres/pg-lookup-lists.ts';
import { connect } from '../../../server/src/postgres/pg-store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres-database.ts';
import { FIXTURES, openSink, wrapSink, type ImportTarget } from '../import/import-support.ts';

let database: TestDatabase;
let sql: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = await connect(database.url, { max: 1 });
});

afterAll(async () => {
  await sql?.end();
  await database?.drop();
});

const names = (which: 'all' | 'import reads') =>
  indexStatements(which).flatMap((statement) => indexName(statement) ?? []);

async function indexes(): Promise<Set<string>> {
  const rows = await sql<
    { name: string }[]
  >`SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public'`;
  return new Set(rows.map((row) => row.name));
}

/** Imports `folder`, noting after each batch which of the serving indexes exist. */
async function importNoting(folder: string): Promise<Set<string>[]> {
  const target = { backend: 'postgres', db: database.url } as ImportTarget;
  const sink = await openSink(target);
  const seen: Set<string>[] = [];
  const noting = wrapSink(sink, {
    write: async (batch) => {
      const counts = await sink.write(batch);
      const present = await indexes();
      seen.push(new Set(names('all').filter((name) => present.has(name))));
      return counts;
    },
  });
  try {
    await runImport({ sink: noting, sources: await discoverSources([folder]), batchRows: 50 });
  } finally {
    await sink.close();
  }
  return seen;
}

it('into an empty database, builds the serving indexes at the finish and only its own before', async () => {
  const seen = await importNoting(`${FIXTURES}week1`);
  expect(seen.length).toBeGreaterThan(1);
  for (const present of seen) expect([...present].sort()).toEqual(names('import reads').sort());
  const after = await indexes();
  expect(names('all').filter((name) => !after.has(name))).toEqual([]);
  // The lookup lists written in order too: every entry of each at or before its ordered bound.
  for (const { name, table } of ONE_PER_ROW) {
    const [list] = await sql.unsafe<{ entries: number; ordered: number }[]>(
      `SELECT (SELECT count(*)::int FROM ${table}) AS entries, ordered_through AS ordered
       FROM lookup_lists WHERE list = $1`,
      [name],
    );
    expect(list?.entries, name).toBeGreaterThan(0);
    expect(list?.ordered, name).toBe(list?.entries);
  }
});

it('into a database that has data, keeps every index from the start', async () => {
  const seen = await importNoting(`${FIXTURES}week2`);
  expect(seen.length).toBeGreaterThan(0);
  for (const present of seen) expect([...present].sort()).toEqual(names('all').sort());
});
