/**
 * A throwaway PostgreSQL database for a test, in the cluster TRACKER_TEST_POSTGRES_URL names (.ci/run
 * starts one; scripts/pg-cluster.sh starts one for a developer): created empty, migrated, and loaded from a
 * tracker database file with the same loader `data:demo --out postgres://…` uses, so both backends serve
 * the same rows; dropped when the test is done.
 */
import { randomBytes } from 'node:crypto';
import type { Sql, TransactionSql } from 'postgres';
import { connect } from '../../server/src/postgres/pg-store.ts';
import { loadIntoPostgres } from '../../server/src/postgres/pg-load.ts';
import { migrate } from '../../server/src/postgres/pg-schema.ts';

/** Which backend the server tests run against: TRACKER_TEST_BACKEND=postgres, else SQLite. */
export const TEST_BACKEND: 'sqlite' | 'postgres' =
  process.env.TRACKER_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

export function clusterUrl(): string {
  const url = process.env.TRACKER_TEST_POSTGRES_URL;
  if (!url) {
    throw new Error(
      'TRACKER_TEST_POSTGRES_URL is not set: start a cluster with `eval "$(bash scripts/pg-cluster.sh start)"`',
    );
  }
  return url;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new, empty, migrated database; loaded from `sqlitePath` when given. */
export async function createTestDatabase(sqlitePath?: string): Promise<TestDatabase> {
  const admin = await connect(clusterUrl(), { max: 1 });
  const name = `tracker_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(clusterUrl());
  url.pathname = `/${name}`;
  // Two connections: the index build after a load runs its trigram indexes beside the others.
  const sql = await connect(url.toString(), { max: 2 });
  try {
    await migrate(sql);
    if (sqlitePath) await loadIntoPostgres(sqlitePath, sql);
  } finally {
    await sql.end();
  }
  return {
    url: url.toString(),
    async drop() {
      const owner = await connect(clusterUrl(), { max: 1 });
      try {
        await owner.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await owner.end();
      }
    },
  };
}

/** Asks `ask` every 10 ms until it answers rows, for at most 10 s. */
async function rowsWithin<T>(ask: () => Promise<readonly T[]>, what: string): Promise<readonly T[]> {
  for (let tries = 0; tries < 1000; tries += 1) {
    const rows = await ask();
    if (rows.length > 0) return rows;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${what} within 10 s`);
}

/**
 * Ends another session of the database as an administrator or a restart would, in the middle of its work:
 * the session (`pid`, or any) once it waits on a lock that `tx`, a transaction of another session, holds.
 * Resolves with the ended session's pid.
 */
export async function endWhileWaiting(tx: TransactionSql, pid?: number): Promise<number> {
  const [waiting] = await rowsWithin(
    () =>
      tx<{ pid: number }[]>`SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'
          AND (${pid ?? null}::int4 IS NULL OR pid = ${pid ?? null}::int4)`,
    'no session waited on the lock',
  );
  await tx`SELECT pg_terminate_backend(${waiting?.pid ?? 0})`;
  return waiting?.pid ?? 0;
}

/** Ends the idle session `pid` as an administrator or a restart would, and resolves once it has gone. */
export async function endSession(sql: Sql, pid: number): Promise<void> {
  await sql`SELECT pg_terminate_backend(${pid})`;
  await rowsWithin(
    async () => ((await sql`SELECT 1 FROM pg_stat_activity WHERE pid = ${pid}`).length ? [] : [pid]),
    'the session did not end',
  );
}
