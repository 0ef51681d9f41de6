/**
 * A throwaway PostgreSQL database for a test, in the cluster TRACKER_TEST_POSTGRES_URL names (.ci/run
 * starts one; scripts/pg-cluster.sh starts one for a developer): created empty, migrated, and loaded from a
 * tracker database file with the same loader `data:demo --out postgres://…` uses, so both backends serve
 * the same rows; dropped when the test is done.
 */
import { randomBytes } from 'node:crypto';
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
