/**
 * Substring search (searchKey, docs/api.md) served by FTS5 trigram indexes: a LIKE '%x%' scan over the
 * search fields of a million manifests costs ~250 ms, a trigram lookup ~1–11 ms (BASELINES.md).
 *
 * External-content tables: the text lives once, in generators/manifests; the index holds only trigrams.
 * One column per search field, so a match never spans two fields.
 */
import type { Database } from 'better-sqlite3';
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../../../shared/query/definition.ts';

/**
 * How much of an FTS5 index's new postings it holds in memory before writing them as a segment, in bytes
 * (its 'hashsize', kept in the table's config). Each segment written is merged into larger ones again and
 * again, so a whole build holds more: the manifests' search index of the 1M demo database was built in
 * 46.5 s with 1 MiB, 35.7 s with 16, 27.4 s with 32 and 30.7 s with 64, the build's peak RSS 105, 125, 145
 * and 187 MB. Once built, the table is set back to FTS5's 1 MiB for the writes after, an import's batches
 * into a served database, which must not hold that much per table: the lookup lists, written again at the
 * end of an append with 32 MiB, took its peak RSS to 308 MB (100,000 manifests into the 1M bench database),
 * and keep the default throughout (db/lookup-index.ts).
 */
const FTS_HASH_BYTES = { build: 32 * 1024 * 1024, write: 1024 * 1024 } as const;

/** Sets an FTS5 table's hashsize for a build or for the writes after it (FTS_HASH_BYTES). */
function ftsHashSizeSql(table: string, use: keyof typeof FTS_HASH_BYTES): string {
  return `INSERT INTO ${table} (${table}, rank) VALUES ('hashsize', ${FTS_HASH_BYTES[use]});`;
}

function searchTableSql(table: string, fields: readonly string[]): string {
  return `
DROP TABLE IF EXISTS ${table}_search;
CREATE VIRTUAL TABLE ${table}_search USING fts5(
  ${fields.join(', ')},
  content='${table}', content_rowid='id', tokenize='trigram case_sensitive 0'
);
${ftsHashSizeSql(`${table}_search`, 'build')}
INSERT INTO ${table}_search (${table}_search) VALUES ('rebuild');
${ftsHashSizeSql(`${table}_search`, 'write')}`;
}

export function createSearchIndex(db: Database): void {
  db.exec(searchTableSql('generators', GENERATOR_QUERY.searchFields));
  db.exec(searchTableSql('manifests', MANIFEST_QUERY.searchFields));
}

/** Trigram search needs at least three characters; shorter keys fall back to a scan (docs/api.md). */
export const TRIGRAM_MIN_LENGTH = 3;

/** The FTS5 query matching `key` as a substring: one quoted phrase, quotes doubled. */
export function trigramPhrase(key: string): string {
  return `"${key.replaceAll('"', '""')}"`;
}
