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
 * Every list but the two of one value per row also has its entries in the ordinary table `lookup_values`,
 * by value (for an import to find one) and by text (the lookup order, for pages and searches too short for
 * trigrams).
 *
 * Folded as the list search index folds (trigram, case_sensitive 0), which is the search rule itself
 * (shared/query/search.ts). `value` is stored beside the text but not indexed.
 */
import type { Database } from 'better-sqlite3';
import type { LookupEntry } from '../../../shared/query/lookup.ts';
import { lookupLists, orderedEntries, type LookupList } from './lookup-lists.ts';
import type { StatementCache } from './statements.ts';

/** The FTS5 table holding one list ("<table>.<field>"): lookup_generators_epa_handler_id. */
export function lookupSearchTable(list: string): string {
  if (!/^[a-z_]+\.[a-z_]+$/.test(list)) throw new Error(`not a lookup list name: ${list}`);
  return `lookup_${list.replace('.', '_')}`;
}

/** Lists of one value per row (every manifest, every generator): values only ever join them, with their row. */
export const ONE_PER_ROW_LISTS: ReadonlySet<string> = new Set([
  'manifests.manifest_number',
  'generators.epa_handler_id',
]);

const LISTS_SQL = `
CREATE TABLE IF NOT EXISTS lookup_lists (
  list    TEXT PRIMARY KEY,
  -- 1 while the list's rowids are its lookup order; 0 once an import has added entries at the end
  -- (searches then sort their matches) until the list is written again in order.
  ordered INTEGER NOT NULL
) WITHOUT ROWID;
-- Each entry of the other lists by value, so an import finds whether a value is listed (and as what text)
-- without scanning the list.
CREATE TABLE IF NOT EXISTS lookup_values (
  list  TEXT NOT NULL,
  value TEXT NOT NULL,
  text  TEXT NOT NULL,
  PRIMARY KEY (list, value)
) WITHOUT ROWID;
-- A list's entries in lookup order (text by code point), for pages and short searches (repositories/lookups.ts).
CREATE INDEX IF NOT EXISTS lookup_values_text ON lookup_values (list, text);
`;

/**
 * Writes one list's table anew, its entries under rowids 1, 2, … in lookup order. With FTS5's default
 * segment size: an append writes its lists again at its end, and a build's larger one (search-index.ts)
 * took its peak RSS past 300 MB.
 */
export function writeLookupList(db: Database, name: string, list: LookupList): void {
  const table = lookupSearchTable(name);
  db.exec(`
    DROP TABLE IF EXISTS ${table};
    CREATE VIRTUAL TABLE ${table} USING fts5(text, value UNINDEXED, tokenize='trigram case_sensitive 0');
  `);
  const insert = db.prepare(`INSERT INTO ${table} (rowid, text, value) VALUES (?, ?, ?)`);
  const byValue = db.prepare('INSERT INTO lookup_values (list, value, text) VALUES (?, ?, ?)');
  const keepValues = !ONE_PER_ROW_LISTS.has(name);
  db.transaction(() => {
    db.prepare('DELETE FROM lookup_values WHERE list = ?').run(name);
    let rowid = 0;
    for (const entry of orderedEntries(db, list)) {
      rowid += 1;
      insert.run(rowid, entry.text, entry.value);
      if (keepValues) byValue.run(name, entry.value, entry.text);
    }
    db.prepare('INSERT OR REPLACE INTO lookup_lists (list, ordered) VALUES (?, 1)').run(name);
  })();
  // Merged into one segment: many small ones are slower to read.
  db.exec(`INSERT INTO ${table} (${table}) VALUES ('optimize')`);
}

export function createLookupIndex(db: Database): void {
  db.exec('DROP TABLE IF EXISTS lookup_lists; DROP TABLE IF EXISTS lookup_values;');
  db.exec(LISTS_SQL);
  for (const [name, list] of lookupLists()) writeLookupList(db, name, list);
}

/**
 * Adds an entry after the list's others (its search then sorts matches, lookups.ts); in the caller's
 * transaction. The import calls these per value of every batch: statements come from the caller's cache.
 */
export function addLookupEntry(statements: StatementCache, name: string, entry: LookupEntry): void {
  const table = lookupSearchTable(name);
  statements.get(`INSERT INTO ${table} (text, value) VALUES (?, ?)`).run(entry.text, entry.value);
  if (!ONE_PER_ROW_LISTS.has(name)) {
    statements
      .get('INSERT INTO lookup_values (list, value, text) VALUES (?, ?, ?)')
      .run(name, entry.value, entry.text);
  }
  statements.get('UPDATE lookup_lists SET ordered = 0 WHERE list = ? AND ordered = 1').run(name);
}

/**
 * Removes a value's entry from a list other than ONE_PER_ROW_LISTS (a scan of the list's table: values
 * leave lists seldom, only when the last row holding one changes).
 */
export function removeLookupEntry(statements: StatementCache, name: string, value: string): void {
  const table = lookupSearchTable(name);
  statements
    .get(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE value = ?)`)
    .run(value);
  statements.get('DELETE FROM lookup_values WHERE list = ? AND value = ?').run(name, value);
}

/**
 * The texts a list shows for these values, those it lists (not for ONE_PER_ROW_LISTS): one statement for a
 * batch's values rather than one per value.
 */
export function listedTexts(
  statements: StatementCache,
  name: string,
  values: Iterable<string>,
): Map<string, string> {
  const rows = statements
    .get('SELECT value, text FROM lookup_values WHERE list = ? AND value IN (SELECT value FROM json_each(?))')
    .raw()
    .all(name, JSON.stringify([...values])) as [string, string][];
  return new Map(rows);
}

/** Lists an import left out of order, to be written in order again. */
export function unorderedLookupLists(db: Database): string[] {
  return db.prepare('SELECT list FROM lookup_lists WHERE ordered = 0').pluck().all() as string[];
}
