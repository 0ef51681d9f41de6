/**
 * A throwaway PostgreSQL database for a test, in the cluster TRACKER_TEST_POSTGRES_URL names (.ci/run
 * starts one; scripts/pg-cluster.sh starts one for a developer): created empty, migrated, and loaded from a
 * tracker database file with the same loader `data:demo --out postgres://…` uses, so both backends serve
 * the same rows; dropped when the test is done. Within a run of the server-postgres project, a database
 * loaded from the same file as one before is a copy of that one (createTestDatabase).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
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

/** The name of the variable the server-postgres project's global setup names its run in (support/). */
export const TEST_RUN_VARIABLE = 'TRACKER_TEST_RUN';

/** The prefix of the names of a run's templates, which its global setup drops when the run ends. */
export const templatePrefix = (run: string): string => `tracker_template_${run}_`;

/**
 * The name of this run's template for the databases made from `sqlitePath`: from the bytes of the file
 * and its write-ahead log (or of no file). Undefined outside a named run.
 */
function templateFor(sqlitePath: string | undefined): string | undefined {
  const run = process.env[TEST_RUN_VARIABLE];
  if (!run) return undefined;
  const hash = createHash('sha256').update(sqlitePath ? 'file' : 'none');
  for (const file of sqlitePath ? [sqlitePath, `${sqlitePath}-wal`] : []) {
    if (existsSync(file)) hash.update(readFileSync(file));
  }
  return `${templatePrefix(run)}${hash.digest('hex').slice(0, 24)}`;
}

/** PostgreSQL's codes for a database that exists already, and for one that another session is in. */
const DUPLICATE_DATABASE = '42P04';
const OBJECT_IN_USE = '55006';

const errorCode = (error: unknown): unknown =>
  typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;

/**
 * A new, empty, migrated database; loaded from `sqlitePath` when given. In a named run (TEST_RUN_VARIABLE)
 * the first database made from the same bytes is kept as a template, and the next are copies of it
 * (CREATE DATABASE … TEMPLATE: a fifth of a second where a load takes three or more).
 */
export async function createTestDatabase(sqlitePath?: string): Promise<TestDatabase> {
  const name = `tracker_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = templateFor(sqlitePath);
  const admin = await connect(clusterUrl(), { max: 1 });
  let copied: boolean;
  try {
    copied =
      template !== undefined &&
      (await admin`SELECT 1 FROM pg_database WHERE datname = ${template}`).length > 0;
    await admin.unsafe(copied ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(clusterUrl());
  url.pathname = `/${name}`;
  if (!copied) {
    // Two connections: the index build after a load runs its trigram indexes beside the others.
    const sql = await connect(url.toString(), { max: 2 });
    try {
      await migrate(sql);
      if (sqlitePath) await loadIntoPostgres(sqlitePath, sql);
    } finally {
      await sql.end();
    }
    if (template) await keepAsTemplate(name, template);
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

/**
 * Copies the database just made as `template`, unless another test made that one first; a copy that
 * cannot be made (the database still in use after PostgreSQL's wait of 5 s) only leaves the next test
 * to load its own.
 */
async function keepAsTemplate(name: string, template: string): Promise<void> {
  const admin = await connect(clusterUrl(), { max: 1 });
  try {
    await admin.unsafe(`CREATE DATABASE ${template} TEMPLATE ${name}`);
  } catch (error) {
    const code = errorCode(error);
    if (code !== DUPLICATE_DATABASE && code !== OBJECT_IN_USE) throw error;
  } finally {
    await admin.end();
  }
}

/** Drops the templates of `run` (its global setup, when the run ends). */
export async function dropTemplates(run: string): Promise<void> {
  const admin = await connect(clusterUrl(), { max: 1 });
  try {
    const templates = await admin<{ datname: string }[]>`
      SELECT datname FROM pg_database WHERE starts_with(datname, ${templatePrefix(run)})`;
    for (const { datname } of templates)
      await admin.unsafe(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
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
