/**
 * After a bulk load into PostgreSQL: the indexes every query reads (the same filter and sort indexes as
 * SQLite's, db/indexes.ts, plus the trigram indexes the search reads), the lookup lists of one value per
 * row written in order (pg-lookup-lists.ts), then VACUUM and ANALYZE, and a new data version, so that
 * every serving process reads its in-memory lists again. Idempotent.
 */
import type { Sql } from 'postgres';
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../../../shared/query/definition.ts';
import { FILTER_INDEXES_SQL, sortIndexes } from '../db/indexes.ts';
import { writeLookupLists } from './pg-lookup-lists.ts';

const POSTGRES_INDEXES_SQL = `
-- searchKey (pg_trgm over the folded search text, pg-schema.ts).
CREATE INDEX IF NOT EXISTS generators_search ON generators USING gin (search_text gin_trgm_ops);
CREATE INDEX IF NOT EXISTS manifests_search ON manifests USING gin (search_text gin_trgm_ops);
-- A waste-line member probed per manifest (pg-query.ts: EXISTS … s.member = … AND s.code IN … AND
-- s.manifest_id = t.id), answered from this index alone, and the importer's deletes by manifest (its prefix).
CREATE INDEX IF NOT EXISTS manifest_line_sets_by_manifest_code ON manifest_line_sets (manifest_id, member, code);
CREATE INDEX IF NOT EXISTS waste_lines_by_manifest ON waste_lines (manifest_id);
`;

/**
 * SQLite's index on manifest_line_sets by manifest (db/indexes.ts: manifest_id and the quantities its batches
 * sum), which the one above replaces on PostgreSQL: left out of the build, and dropped where an earlier build
 * made it under that name.
 */
const REPLACED_SHARED_INDEX = 'manifest_line_sets_by_manifest';

/** The index a `CREATE INDEX IF NOT EXISTS name …` statement builds. */
export function indexName(statement: string): string | undefined {
  return /CREATE INDEX IF NOT EXISTS (\w+)/.exec(statement)?.[1];
}

/**
 * The indexes an import's own statements read while it runs: the writers' and its derived data's lookups of
 * rows by their owner (import/postgres/pg-derived.ts: a generator's manifests, a manifest's line sets, a
 * generator's sets). An import into an empty database builds only these as it starts and the others at its
 * finish, as SQLite's does: every row it adds would otherwise go into two dozen more indexes one by one, and
 * each manifest's totals, written after its lines, into them again.
 */
const IMPORT_READS = new Set([
  'manifests_generator_id_shipped',
  'manifest_line_sets_by_manifest_code',
  'generator_waste_codes_by_generator',
  'generator_handling_codes_by_generator',
  'generator_shipped_years_by_generator',
  'generator_statuses_by_generator',
]);

/**
 * The index statements, one by one (PostgreSQL builds each B-tree with its own parallel workers): all of
 * them, or those an import reads while it runs (IMPORT_READS).
 */
export function indexStatements(which: 'all' | 'import reads' = 'all'): string[] {
  const creates = [
    FILTER_INDEXES_SQL,
    sortIndexes('generators', GENERATOR_QUERY.sortFields, GENERATOR_QUERY.key),
    sortIndexes('manifests', MANIFEST_QUERY.sortFields, MANIFEST_QUERY.key),
    POSTGRES_INDEXES_SQL,
  ]
    .join('\n')
    .split(';')
    .map((statement) =>
      statement
        .split('\n')
        .filter((line) => !line.trim().startsWith('--'))
        .join('\n')
        .trim(),
    )
    .filter((statement) => statement !== '' && indexName(statement) !== REPLACED_SHARED_INDEX)
    .filter((statement) => which === 'all' || IMPORT_READS.has(indexName(statement) ?? ''));
  return [`DROP INDEX IF EXISTS ${REPLACED_SHARED_INDEX}`, ...creates];
}

/** Raises the data version: every serving process reads its in-memory lists again. */
export async function bumpDataVersion(sql: Sql): Promise<void> {
  await sql`UPDATE data_version SET version = version + 1`;
}

/**
 * Memory for building one index, for this connection only: the trigram index of a million manifests' search
 * text (~100M trigrams) was flushed in runs under PostgreSQL's default 64 MB and took several times as long.
 * Raised only, never lowered below what the server is set to.
 */
const BUILD_MEMORY_MB = 1024;

/** A trigram (GIN) index: built by one process each, unlike a B-tree, whose build takes parallel workers. */
const isTrigram = (statement: string) => /USING gin/.test(statement);

/**
 * Runs `statements` in order on one connection of the pool, given the build memory for as long as they run
 * and reset after.
 */
async function build(
  sql: Sql,
  statements: readonly string[],
  onStep?: (step: string) => void,
): Promise<void> {
  const reserved = await sql.reserve();
  try {
    const [memory] = await reserved<{ mb: number }[]>`
      SELECT (setting::bigint / 1024)::int4 AS mb FROM pg_settings WHERE name = 'maintenance_work_mem'`;
    if ((memory?.mb ?? 0) < BUILD_MEMORY_MB) {
      await reserved.unsafe(`SET maintenance_work_mem = '${BUILD_MEMORY_MB}MB'`);
    }
    for (const statement of statements) {
      await reserved.unsafe(statement);
      onStep?.(statement.split('\n')[0] ?? statement);
    }
    await reserved`RESET maintenance_work_mem`;
  } finally {
    reserved.release();
  }
}

/**
 * Builds the indexes, then VACUUM (ANALYZE). The trigram indexes (a million manifests' search text: the
 * longest build, on one process) are built on a second connection beside the others when the pool has two
 * (a CREATE INDEX shares its table with another); with one, the second waits for the first's connection.
 */
export async function finalizePostgres(sql: Sql, onStep?: (step: string) => void): Promise<void> {
  const statements = indexStatements();
  await Promise.all([
    build(
      sql,
      statements.filter((statement) => !isTrigram(statement)),
      onStep,
    ),
    build(sql, statements.filter(isTrigram), onStep),
  ]);
  await writeLookupLists(sql);
  onStep?.('lookup lists');
  // VACUUM too: it marks the loaded pages all-visible, so that counts and sums over a covering index
  // (a date range's totals) read the index alone instead of every row it points to.
  await sql`VACUUM (ANALYZE)`;
  onStep?.('VACUUM (ANALYZE)');
  await bumpDataVersion(sql);
}
