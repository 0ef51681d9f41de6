/**
 * PostgreSQL's tracker_fold (pg-schema.ts) is foldCase of shared/query/search.ts for every code point, in the
 * PL/pgSQL of schema version 5, and a database of version 4 (its SQL function) gets it when migrated.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { foldCase } from '../../../shared/query/search.ts';
import { migrate } from '../../../server/src/postgres/pg-schema.ts';
import { connect } from '../../../server/src/postgres/pg-store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres-database.ts';

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

/** Every code point but the surrogates and NUL (which PostgreSQL text cannot hold), in runs of 4,096. */
function* codePointRuns(): Generator<string> {
  let run = '';
  for (let point = 1; point <= 0x10ffff; point += 1) {
    if (point >= 0xd800 && point <= 0xdfff) continue;
    run += String.fromCodePoint(point);
    if (run.length >= 4096) {
      yield run;
      run = '';
    }
  }
  if (run !== '') yield run;
}

async function expectFoldCase(): Promise<void> {
  const runs = [...codePointRuns()];
  const folded = await sql<{ folded: string }[]>`
    SELECT tracker_fold(run) AS folded FROM unnest(${runs}::text[]) WITH ORDINALITY AS r(run, at) ORDER BY at`;
  const wrong = runs.flatMap((run, index) => (folded[index]?.folded === foldCase(run) ? [] : [index]));
  expect(wrong, 'runs of code points that tracker_fold folds otherwise than foldCase').toEqual([]);
}

async function language(): Promise<string> {
  const [row] = await sql<{ language: string }[]>`
    SELECT l.lanname AS language FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
    WHERE p.proname = 'tracker_fold'`;
  return String(row?.language);
}

it('folds every code point as foldCase, compiled once a session (PL/pgSQL)', async () => {
  expect(await language()).toBe('plpgsql');
  await expectFoldCase();
  // A text with other characters than ASCII takes translate(), the rest lower(): both paths in one row.
  const [row] = await sql<{ folded: string }[]>`SELECT tracker_fold(${'ÀLPHA Beta ΣΊΣΥΦΟΣ'}) AS folded`;
  expect(row?.folded).toBe(foldCase('ÀLPHA Beta ΣΊΣΥΦΟΣ'));
});

it('replaces the SQL function of a version 4 database when it is migrated', async () => {
  await sql.unsafe(`
    CREATE OR REPLACE FUNCTION tracker_fold(text) RETURNS text
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN lower($1 COLLATE "C");
    DELETE FROM schema_migrations WHERE version = 5;`);
  expect(await language()).toBe('sql');
  expect(await migrate(sql)).toEqual([5]);
  expect(await language()).toBe('plpgsql');
  await expectFoldCase();
});
