/**
 * Indexes that serve the list, lookup and aggregate queries. Built once after a bulk load (finalize), never
 * maintained row by row during it. Each index names the query it serves.
 */
import type { Database } from 'better-sqlite3';

const QUERY_INDEXES_SQL = `
-- Default manifest order (shipped_date desc, id desc) and its keyset pages.
CREATE INDEX IF NOT EXISTS manifests_shipped ON manifests (shipped_date DESC, id DESC);
-- Default generator order (generator_name asc, id asc).
CREATE INDEX IF NOT EXISTS generators_name ON generators (generator_name, id);
`;

export function createQueryIndexes(db: Database): void {
  db.exec(QUERY_INDEXES_SQL);
}
