/**
 * The import writers' steps on PostgreSQL (server/src/import/postgres/pg-steps.ts): writes whose answer no
 * writer reads are sent without waiting, yet a writer still sees every earlier write when it reads, and a
 * failing write fails the writer with its own error — not with the "transaction is aborted" of the
 * statements sent after it — and takes the whole transaction back.
 */
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresSteps } from '../../../server/src/import/postgres/pg-steps.ts';
import { exec, get, value, type Writing } from '../../../server/src/import/writers/steps.ts';
import { connect } from '../../../server/src/postgres/pg-store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres-database.ts';

let database: TestDatabase;
let sql: Sql;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = await connect(database.url, { max: 1 });
  await sql`CREATE TABLE steps_test (id integer PRIMARY KEY, name text NOT NULL)`;
});

afterAll(async () => {
  await sql?.end();
  await database?.drop();
});

const INSERT = 'INSERT INTO steps_test (id, name) VALUES (?, ?)';

describe('PostgresSteps', () => {
  it('lets a writer read what it wrote without waiting', async () => {
    function* writer(): Writing<unknown> {
      for (let id = 1; id <= 50; id += 1) yield* exec(INSERT, id, `row ${id}`);
      return yield* value('SELECT count(*)::int FROM steps_test WHERE id <= ?', 50);
    }
    const steps = new PostgresSteps();
    await expect(sql.begin((tx) => steps.run(tx, writer()))).resolves.toBe(50);
  });

  it('fails with the failing write’s own error and keeps none of the transaction', async () => {
    function* writer(): Writing<unknown> {
      yield* exec(INSERT, 100, 'kept only if all is');
      yield* exec(INSERT, 1, 'a key already there');
      yield* exec(INSERT, 101, 'after the failure');
      return yield* get('SELECT name FROM steps_test WHERE id = ?', 100);
    }
    const steps = new PostgresSteps();
    await expect(sql.begin((tx) => steps.run(tx, writer()))).rejects.toThrow(/duplicate key/);
    expect(await sql`SELECT id FROM steps_test WHERE id >= 100`).toHaveLength(0);
  });

  it('fails outside a transaction too, when a write after the failing one succeeds', async () => {
    function* writer(): Writing<string> {
      yield* exec(INSERT, 2, 'a key already there');
      yield* exec(INSERT, 200, 'written after the failure');
      return 'finished';
    }
    const steps = new PostgresSteps();
    await expect(steps.run(sql, writer())).rejects.toThrow(/duplicate key/);
  });
});
