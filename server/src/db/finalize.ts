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

/**
 * Lets SQLite sort on a helper thread while a build's GROUP BYs, ORDER BYs and index builds sort millions of
 * rows (PRAGMA threads; none by default). On the 1M demo database (2 cores) the manifests' line sets took
 * 19.8 s with one helper, 18.9 s with two and 31.7 s with none; with two, the query indexes 34–38 s against
 * 50. One helper, not one per core: each sorts in a page cache's worth of memory of its own, and with two
 * the 1M import's peak RSS reached 294 MB of its 300 (284 MB with one).
 */
export function sortOnHelperThread(db: Database): void {
  db.pragma('threads = 1');
}

/** The steps, in order, each named as `onStep` says it when it starts (data:import prints how long each took). */
const STEPS: readonly (readonly [name: string, run: (db: Database) => void])[] = [
  ['per-generator sets of codes, years and methods', deriveSets],
  ['query indexes', createQueryIndexes],
  ['search index', createSearchIndex],
  ['lookup lists', createLookupIndex],
  ['waste lines as the API sends them', createWasteLinesJson],
  ['tallies', computeTallies],
  [
    'planner statistics',
    (db) => {
      // A sampled ANALYZE: enough for the planner, seconds instead of a minute on a million manifests.
      db.pragma('analysis_limit = 2000');
      db.exec('ANALYZE');
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
  ],
];

export function finalize(db: Database, onStep?: (step: string) => void): void {
  sortOnHelperThread(db);
  for (const [name, run] of STEPS) {
    onStep?.(name);
    run(db);
  }
}
