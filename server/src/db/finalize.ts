/**
 * After a bulk load: derive what the queries read but the loader does not write, then build the indexes,
 * the search and lookup indexes, the stored JSON of waste lines and the dataset's tallies. Every step is idempotent, so finalize
 * can run again after an import.
 */
import type { Database } from 'better-sqlite3';
import { deriveSets } from './derive.ts';
import { createQueryIndexes } from './indexes.ts';
import { createLookupIndex } from './lookup-index.ts';
import { createSearchIndex } from './search-index.ts';
import { computeTallies } from './tallies.ts';
import { createWasteLinesJson } from './waste-lines-json.ts';

export function finalize(db: Database): void {
  deriveSets(db);
  createQueryIndexes(db);
  createSearchIndex(db);
  createLookupIndex(db);
  createWasteLinesJson(db);
  computeTallies(db);
  // A sampled ANALYZE: enough for the planner, seconds instead of a minute on a million manifests.
  db.pragma('analysis_limit = 2000');
  db.exec('ANALYZE');
  db.pragma('wal_checkpoint(TRUNCATE)');
}
