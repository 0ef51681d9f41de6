/**
 * The lookup index: every filter box's list of values (lookup-lists.ts) in its own FTS5 trigram table, its
 * entries under rowids 1, 2, … in lookup order. A lookup search of three characters or more is then one
 * index query that walks the rowids in order and stops once the page is full, instead of a scan: a few
 * digits of a tracking number over a million manifests, ~100 ms scanned, is answered from the index in
 * about a millisecond (docs/benchmarks/server.md).
 *
 * One table per list rather than one for all: a trigram's postings are read whole by every query that
 * names it, and in a shared table a manifest-number search for "000000" read the postings of "000" in
 * every list (60,826 entries, ~55k of them EPA handler ids) four times, 6.6 ms a search on 1M manifests.
 *
 * Folded as the list search index folds (trigram, case_sensitive 0), which is the search rule itself
 * (shared/query/search.ts). `value` is stored beside the text but not indexed.
 */
import type { Database } from 'better-sqlite3';
import { lookupEntries } from '../../../shared/query/lookup.ts';
import { loadList, lookupLists } from './lookup-lists.ts';

/** The FTS5 table holding one list ("<table>.<field>"): lookup_generators_epa_handler_id. */
export function lookupSearchTable(list: string): string {
  if (!/^[a-z_]+\.[a-z_]+$/.test(list)) throw new Error(`not a lookup list name: ${list}`);
  return `lookup_${list.replace('.', '_')}`;
}

const LISTS_SQL = `
DROP TABLE IF EXISTS lookup_lists;
-- Each list's number of values: its entries are rowids 1 to size of its table (lookupSearchTable).
CREATE TABLE lookup_lists (
  list TEXT PRIMARY KEY,
  size INTEGER NOT NULL
) WITHOUT ROWID;
`;

export function createLookupIndex(db: Database): void {
  db.exec(LISTS_SQL);
  const size = db.prepare('INSERT INTO lookup_lists (list, size) VALUES (?, ?)');
  for (const [list, definition] of lookupLists()) {
    const table = lookupSearchTable(list);
    db.exec(`
      DROP TABLE IF EXISTS ${table};
      CREATE VIRTUAL TABLE ${table} USING fts5(text, value UNINDEXED, tokenize='trigram case_sensitive 0');
    `);
    const insert = db.prepare(`INSERT INTO ${table} (rowid, text, value) VALUES (?, ?, ?)`);
    db.transaction(() => {
      let rowid = 0;
      for (const entry of lookupEntries(loadList(definition)(db))) {
        rowid += 1;
        insert.run(rowid, entry.text, entry.value);
      }
      size.run(list, rowid);
    })();
    // Merged into one segment: many small ones are slower to read, and the index never changes after.
    db.exec(`INSERT INTO ${table} (${table}) VALUES ('optimize')`);
  }
}
