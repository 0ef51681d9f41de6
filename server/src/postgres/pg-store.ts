/**
 * The tracker store on PostgreSQL (store/store.ts): opened from a postgres:// URL, its schema migrated to
 * the current version (pg-schema.ts) on open, then reads (pg-reads.ts) and accounts (pg-accounts.ts) over
 * one connection pool.
 */
import postgres, { type Sql } from 'postgres';
import { DatabaseError } from '../db/database-error.ts';
import type { TrackerStore } from '../store/store.ts';
import { pgAccounts } from './pg-accounts.ts';
import { VersionedCache } from './pg-cache.ts';
import { pgManifestReads } from './pg-manifest-reads.ts';
import { PgMatches } from './pg-matches.ts';
import { pgDetailReads, pgGeneratorReads } from './pg-reads.ts';
import { PG_SCHEMA_VERSION, appliedVersion, migrate } from './pg-schema.ts';
import { redactUrl } from './pg-url.ts';

/** Connections a server process keeps open; a list request uses two at once (its page and its count). */
export const DEFAULT_POOL_SIZE = 8;

/**
 * A connection pool, checked by a first statement so that a wrong URL is told at once, and in words.
 * `lasting`: its connections are never ended for idling or age (the client's default ends each within an
 * hour and opens another), for a client whose session holds something, such as an import's lock.
 */
export async function connect(
  url: string,
  options: {
    max?: number;
    lasting?: boolean;
    debug?: (connection: number, query: string, parameters: unknown[]) => void;
  } = {},
): Promise<Sql> {
  const sql = postgres(url, {
    max: options.max ?? DEFAULT_POOL_SIZE,
    ...(options.debug ? { debug: options.debug } : {}),
    onnotice: () => undefined,
    connect_timeout: 10,
    ...(options.lasting ? { idle_timeout: 0, max_lifetime: 0 } : { idle_timeout: 60 }),
  });
  try {
    await sql`SELECT 1`;
  } catch (error) {
    await sql.end({ timeout: 1 });
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseError(`cannot open the PostgreSQL database ${redactUrl(url)}: ${reason}`);
  }
  return sql;
}

/** Applies what the database lacks; refuses one migrated by a newer version of this server. */
export async function migrateOrRefuse(sql: Sql, url: string): Promise<void> {
  const applied = await appliedVersion(sql);
  if (applied > PG_SCHEMA_VERSION) {
    throw new DatabaseError(
      `${redactUrl(url)} has schema version ${applied}, newer than this server's ${PG_SCHEMA_VERSION}`,
    );
  }
  if (applied < PG_SCHEMA_VERSION) await migrate(sql);
}

export async function openPostgresStore(
  url: string,
  options: Parameters<typeof connect>[1] = {},
): Promise<TrackerStore & { sql: Sql; matchesReady: () => Promise<void> }> {
  const sql = await connect(url, options);
  try {
    await migrateOrRefuse(sql, url);
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw error;
  }
  const cache = new VersionedCache(sql);
  const matches = new PgMatches(sql, cache);
  const generators = pgGeneratorReads(sql, cache, matches);
  const manifests = pgManifestReads(sql, cache);
  return {
    backend: 'postgres',
    sql,
    generators,
    manifests,
    details: pgDetailReads(sql),
    accounts: pgAccounts(sql),
    async warm() {
      await Promise.all([generators.totals({}, ''), manifests.totals({}, '')]);
      // Not awaited: the matches of 100,000 generators take seconds to read (more than the server's start
      // may wait on a busy machine), and counts are read with SQL until they are in.
      void matches.read();
    },
    /** Resolves once the generators' matches warm() started reading are in: bench:server waits for them. */
    matchesReady: () => matches.ready(),
    checkData: () => undefined,
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
