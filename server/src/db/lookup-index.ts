/**
 * The lookup index: every filter box's list of values (lookup-lists.ts) in one FTS5 trigram table, each
 * list's entries under consecutive rowids in lookup order. A lookup search of three characters or more is
 * then one index query that walks its list's rowid range in order and stops once the page is full, instead
 * of a scan: a few digits of a tracking number over a million manifests, ~100 ms scanned, is answered from
 * the index in well under a millisecond (docs/benchmarks/server.md).
 *
 * Folded as the list search index folds (trigram, case_sensitive 0), which is the search rule itself
 * (shared/query/search.ts). `value` is stored beside the text but not indexed.
 */
import type { Database } from 'better-sqlite3';
import { lookupEntries } from '../../../shared/query/lookup.ts';
import { lookupLists } from './lookup-lists.ts';

const TABLES_SQL = `
DROP TABLE IF EXISTS lookup_search;
DROP TABLE IF EXISTS lookup_lists;
CREATE VIRTUAL TABLE lookup_search USING fts5(text, value UNINDEXED, tokenize='trigram case_sensitive 0');
-- Each list's rowid range in lookup_search: first > last for a list with no values.
CREATE TABLE lookup_lists (
  list  TEXT PRIMARY KEY,
  first INTEGER NOT NULL,
  last  INTEGER NOT NULL
) WITHOUT ROWID;
`;

export function createLookupIndex(db: Database): void {
  db.exec(TABLES_SQL);
  const insert = db.prepare('INSERT INTO lookup_search (rowid, text, value) VALUES (?, ?, ?)');
  const range = db.prepare('INSERT INTO lookup_lists (list, first, last) VALUES (?, ?, ?)');
  db.transaction(() => {
    let next = 1;
    for (const [list, load] of lookupLists()) {
      const first = next;
      for (const entry of lookupEntries(load(db))) {
        insert.run(next, entry.text, entry.value);
        next += 1;
      }
      range.run(list, first, next - 1);
    }
  })();
  // Merged into one segment: many small ones are slower to read, and the index never changes after.
  db.exec("INSERT INTO lookup_search (lookup_search) VALUES ('optimize')");
}
