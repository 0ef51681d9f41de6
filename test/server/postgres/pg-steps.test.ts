/**
 * The import writers' steps on PostgreSQL (server/src/import/postgres/pg-steps.ts): writes whose answer no
 * writer reads are sent without waiting, yet a writer still sees every earlier write when it reads, and a
 * failing write fails the writer with its own error — not with the "transaction is aborted" of the
 * statements sent after it — and takes the whole transaction back. New rows (`add`) go many to a statement,
 * each statement's in the order they came, and the ids `nextId` gives are new, batch after batch.
 */
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresSteps } from '../../../server/src/import/postgres/pg-steps.ts';
import { add, exec, get, nextId, value, type Writing } from '../../../server/src/import/writers/steps.ts';
import { connect } from '../../../server/src/postgres/pg-store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres-database.ts';

let database: TestDatabase;
let sql: Sql;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = await connect(database.url, { max: 1 });
  await sql`CREATE TABLE steps_test (id integer PRIMARY KEY, name text NOT NULL)`;
  await sql`CREATE TABLE steps_other (id integer PRIMARY KEY, name text NOT NULL)`;
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

  it('adds many rows to a statement, in the order each statement’s came, before the next read', async () => {
    let statements = 0;
    const counted = await connect(database.url, { max: 1, debug: () => (statements += 1) });
    const OTHER = 'INSERT INTO steps_other (id, name) VALUES (?, ?) ON CONFLICT DO NOTHING';
    function* writer(): Writing<unknown> {
      for (let id = 1000; id < 2234; id += 1) {
        yield* add(INSERT, id, `row ${id}`);
        // The same key twice in one stretch: the first row stays, as one statement a row would leave it.
        yield* add(OTHER, id % 600, `first ${id}`);
      }
      return yield* get(
        `SELECT (SELECT count(*)::int FROM steps_test WHERE id >= 1000),
                (SELECT count(*)::int FROM steps_other), (SELECT name FROM steps_other WHERE id = 5)`,
      );
    }
    try {
      const steps = new PostgresSteps();
      const answer = await counted.begin((tx) => steps.run(tx, writer()));
      expect(answer).toEqual([1234, 600, 'first 1205']);
      // 2 × 1,234 rows: two statements of 500 and a few by powers of two for each table, not one a row.
      expect(statements).toBeLessThan(30);
    } finally {
      await counted.end();
    }
  });

  it('fails with a failing add’s own error and keeps none of the transaction', async () => {
    function* writer(): Writing<unknown> {
      for (let id = 3000; id < 3100; id += 1) yield* add(INSERT, id, 'kept only if all is');
      yield* add(INSERT, 1, 'a key already there');
      return yield* value('SELECT count(*)::int FROM steps_test WHERE id >= 3000');
    }
    const steps = new PostgresSteps();
    await expect(sql.begin((tx) => steps.run(tx, writer()))).rejects.toThrow(/duplicate key/);
    expect(await sql`SELECT id FROM steps_test WHERE id >= 3000`).toHaveLength(0);
  });

  it('gives ids no row has and no other nextId gave, after a rolled-back batch too', async () => {
    const steps = new PostgresSteps();
    const given: number[] = [];
    function* writer(count: number, fail: boolean): Writing<void> {
      for (let taken = 0; taken < count; taken += 1) given.push(yield* nextId('manifests'));
      if (fail) yield* exec(INSERT, 1, 'a key already there');
    }
    await expect(sql.begin((tx) => steps.run(tx, writer(40, true)))).rejects.toThrow(/duplicate key/);
    await sql.begin((tx) => steps.run(tx, writer(100, false)));
    // Another writer of the table, taking its ids from the same sequence, between them.
    const other = (
      await sql<{ id: number }[]>`SELECT nextval(pg_get_serial_sequence('manifests', 'id'))::int AS id`
    )[0]?.id;
    await sql.begin((tx) => steps.run(tx, writer(10, false)));
    expect(new Set([...given, other]).size).toBe(151);
    expect(Math.min(...given)).toBeGreaterThan(0);
  });
});
