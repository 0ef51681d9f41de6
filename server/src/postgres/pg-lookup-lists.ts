/**
 * The two lookup lists of one value per row (every manifest's tracking number, every generator's EPA
 * handler id) on PostgreSQL, as SQLite keeps them (db/lookup-index.ts): each in its own narrow table, its
 * entries under positions 1, 2, … in lookup order, its folded text under a pg_trgm GIN index. A search then
 * walks the positions and stops once its page is full, or sorts the few matches the trigram index gives
 * (pg-list-page.ts), where a search of the wide row table read every match through the trigram bitmap and
 * sorted them: "123" over a million manifests took 31 ms that way and takes 4 ms here (the client's time,
 * warm, on the 1M bench database).
 *
 * Rows added are listed after the others in the transaction that adds them, so the next request finds
 * them: an import's once per batch (`appendLookupEntries`), any other writer's (an operator's SQL) by a
 * statement trigger over the rows each statement inserted. Entries past `ordered_through` (lookup_lists)
 * are in no order, and a search merges them in. A statement that deletes rows takes their entries out. An import's finish writes each list it added to again in order
 * (`rewriteUnorderedLists`), in one transaction: readers see the old table or the new one, whole. The
 * values are the rows' keys: no writer of this server changes one, and the lists do not follow an
 * operator's UPDATE of them.
 */
import type { Sql, TransactionSql } from 'postgres';
import { ONE_PER_ROW_LISTS, lookupSearchTable } from '../db/lookup-index.ts';
import { lookupLists, type LookupList } from '../db/lookup-lists.ts';

export interface OnePerRowList {
  /** "<table>.<field>", as the lookup index names it. */
  name: string;
  /** The narrow table holding the list: lookup_manifests_manifest_number. */
  table: string;
  list: LookupList;
}

export const ONE_PER_ROW: readonly OnePerRowList[] = lookupLists()
  .filter(([name]) => ONE_PER_ROW_LISTS.has(name))
  .map(([name, list]) => ({ name, table: lookupSearchTable(name), list }));

/** The list named `name` ("<table>.<field>"), when it is one of ONE_PER_ROW. */
export function onePerRowList(name: string): OnePerRowList | undefined {
  return ONE_PER_ROW.find((entry) => entry.name === name);
}

/** Histogram buckets of a list's folded values (the default is 100); see `buildListSql`. */
const FOLDED_STATISTICS = 1000;

/**
 * Memory for building a list's trigram index, for the transaction only (a million tracking numbers hold
 * ~12M trigrams), raised only, never lowered below what the server is set to.
 */
const BUILD_MEMORY_MB = 256;
const BUILD_MEMORY_SQL = `SELECT set_config('maintenance_work_mem', '${BUILD_MEMORY_MB}MB', true)
  WHERE pg_size_bytes(current_setting('maintenance_work_mem')) < ${BUILD_MEMORY_MB}::bigint * 1024 * 1024`;

/**
 * Runs of one character. A key holding RUN_LENGTH or more of one character in a row ("0000", "000000") has
 * one trigram only, "000", which ~0.6 % of a million tracking numbers hold: through the trigram index a
 * search for "000000" read and checked 5,493 candidates for its 3 matches (9 ms). Few values hold such a
 * run (5,506 of a million), and a trigram index over those alone gives a few hundred (462, 1 ms). The
 * column says whether an entry's folded text holds a run, and a search whose key holds one names it
 * (`holdsRun`), which lets the planner use that index.
 */
const RUN_LENGTH = 4;
const RUN_PATTERN = `(.)${'\\1'.repeat(RUN_LENGTH - 1)}`;
const RUN_COLUMN = `has_run boolean GENERATED ALWAYS AS (tracker_fold(value) ~ '${RUN_PATTERN}') STORED`;
const RUN_REGEXP = new RegExp(RUN_PATTERN, 'su');

/** Whether a folded key holds a run (`RUN_LENGTH`): every entry holding it then has `has_run`. */
export function holdsRun(key: string): boolean {
  return RUN_REGEXP.test(key);
}

/** The trigram index of the entries holding a run. */
const runIndexSql = (table: string) =>
  `CREATE INDEX IF NOT EXISTS ${table}_runs ON ${table} USING gin (folded gin_trgm_ops) WHERE has_run`;

/**
 * The statements that create `into` and fill it with `list`'s entries in lookup order: the values by code
 * point (COLLATE "C"), which for a list whose text is its value is shared/query/lookup.ts's order, empty
 * values left out. The indexes are built after the rows are in, not kept up row by row.
 */
export function buildListSql({ list }: OnePerRowList, into: string): string[] {
  return [
    `CREATE TABLE ${into} (
      pos    integer PRIMARY KEY,
      value  text COLLATE "C" NOT NULL,
      folded text COLLATE "C" GENERATED ALWAYS AS (tracker_fold(value)) STORED,
      ${RUN_COLUMN}
    )`,
    `INSERT INTO ${into} (pos, value)
     SELECT row_number() OVER (ORDER BY ${list.column}), ${list.column} FROM ${list.from}
     WHERE ${list.column} <> ''`,
    // The planner's estimate of a key's matches (for the sort of an index search's matches, pg-list-page.ts)
    // comes from the histogram of folded values, whose default 100 buckets tell 0.7 % from none.
    `ALTER TABLE ${into} ALTER COLUMN folded SET STATISTICS ${FOLDED_STATISTICS}`,
    `CREATE INDEX ${into}_folded ON ${into} USING gin (folded gin_trgm_ops)`,
    runIndexSql(into),
    `ANALYZE ${into}`,
  ];
}

/**
 * Schema version 6 (pg-schema.ts): the run column and its index on lists built before them. A list built
 * by this version's version 4 has them already.
 */
export function runsMigrationSql(): string {
  return [
    BUILD_MEMORY_SQL,
    ...ONE_PER_ROW.flatMap(({ table }) => [
      `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${RUN_COLUMN}`,
      runIndexSql(table),
      `ANALYZE ${table}`,
    ]),
  ]
    .map((statement) => `${statement};`)
    .join('\n');
}

/** Marks the entries of `table` as in lookup order up to its last. */
const orderedThroughSql = (entry: OnePerRowList) =>
  `UPDATE lookup_lists SET ordered_through = (SELECT coalesce(max(pos), 0) FROM ${entry.table})
   WHERE list = '${entry.name}'`;

/** The statement triggers that add a list's entries for the rows inserted and take out the rows deleted. */
export function listTriggers({ table }: OnePerRowList): { added: string; removed: string } {
  return { added: `${table}_added`, removed: `${table}_removed` };
}

/**
 * The entries of the rows in `source` (a relation with the list's column) added after the list's others,
 * past both the last entry and the ordered ones, so that entries of a list emptied since it was written are
 * never taken for ordered.
 */
function appendSql({ name, table, list }: OnePerRowList, source: string): string {
  return `INSERT INTO ${table} (pos, value)
  SELECT greatest((SELECT coalesce(max(pos), 0) FROM ${table}),
                  (SELECT ordered_through FROM lookup_lists WHERE list = '${name}')) + row_number() OVER (),
         ${list.column}
  FROM ${source} WHERE ${list.column} <> ''`;
}

/**
 * The setting by which a transaction says it adds its rows' entries itself, once per batch
 * (`appendLookupEntries`): the importer inserts each row by a statement of its own, and the trigger's
 * work per statement doubled the time of a single-row insert into a million manifests (2,000 rows: 2.3 s
 * without it, 4.1 to 5.1 s with it).
 */
const BY_BATCH = "current_setting('tracker.lookup_lists', true) = 'by batch'";

/** The triggers keeping `entry`'s list as any statement writes its table. */
function triggersSql(entry: OnePerRowList): string[] {
  const { table, list } = entry;
  const { added, removed } = listTriggers(entry);
  return [
    `CREATE FUNCTION ${added}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF ${BY_BATCH} THEN RETURN NULL; END IF;
  ${appendSql(entry, 'rows_added')};
  RETURN NULL;
END $$`,
    `CREATE TRIGGER ${added} AFTER INSERT ON ${list.from} REFERENCING NEW TABLE AS rows_added
  FOR EACH STATEMENT EXECUTE FUNCTION ${added}()`,
    `CREATE FUNCTION ${removed}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ${table} WHERE value IN (SELECT ${list.column} FROM rows_removed);
  RETURN NULL;
END $$`,
    `CREATE TRIGGER ${removed} AFTER DELETE ON ${list.from} REFERENCING OLD TABLE AS rows_removed
  FOR EACH STATEMENT EXECUTE FUNCTION ${removed}()`,
  ];
}

/**
 * Schema version 4 (pg-schema.ts): the lists' state, each list built from the rows already loaded and kept
 * by its triggers, and the trigram indexes of the row columns the lists were searched in before dropped.
 */
export function listsMigrationSql(): string {
  return [
    'CREATE TABLE lookup_lists (list text COLLATE "C" PRIMARY KEY, ordered_through integer NOT NULL)',
    BUILD_MEMORY_SQL,
    ...ONE_PER_ROW.flatMap((entry) => [
      ...buildListSql(entry, entry.table),
      `INSERT INTO lookup_lists (list, ordered_through) VALUES ('${entry.name}', 0)`,
      orderedThroughSql(entry),
      ...triggersSql(entry),
    ]),
    'DROP INDEX IF EXISTS generators_handler_id_folded',
    'DROP INDEX IF EXISTS manifests_tracking_number_folded',
  ]
    .map((statement) => `${statement};`)
    .join('\n');
}

/**
 * Writes `entry`'s list again in lookup order, in one transaction: built beside the served table, then put
 * in its place, so a reader sees the old list or the new one whole and waits only for the swap.
 */
export async function writeLookupList(sql: Sql, entry: OnePerRowList): Promise<void> {
  const next = `${entry.table}_next`;
  await sql.begin(async (tx) => {
    await tx.unsafe(BUILD_MEMORY_SQL);
    await tx.unsafe(`DROP TABLE IF EXISTS ${next}`);
    for (const statement of buildListSql(entry, next)) await tx.unsafe(statement);
    await tx.unsafe(`DROP TABLE ${entry.table}`);
    await tx.unsafe(`ALTER TABLE ${next} RENAME TO ${entry.table}`);
    await tx.unsafe(`ALTER INDEX ${next}_pkey RENAME TO ${entry.table}_pkey`);
    await tx.unsafe(`ALTER INDEX ${next}_folded RENAME TO ${entry.table}_folded`);
    await tx.unsafe(`ALTER INDEX ${next}_runs RENAME TO ${entry.table}_runs`);
    await tx.unsafe(orderedThroughSql(entry));
  });
}

/** For the rest of the transaction, its inserted rows are listed by `appendLookupEntries`, not the triggers. */
export async function listByBatch(tx: TransactionSql): Promise<void> {
  await tx.unsafe("SELECT set_config('tracker.lookup_lists', 'by batch', true)");
}

/**
 * Adds the entries of the rows `ids`, just created in this transaction (after `listByBatch`), after the
 * list's others.
 */
export async function appendLookupEntries(
  tx: TransactionSql,
  entry: OnePerRowList,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  const { list } = entry;
  await tx.unsafe(
    appendSql(entry, `(SELECT ${list.column} FROM ${list.from} WHERE id = ANY($1::int[])) AS created`),
    [ids as number[]],
  );
}

/** Writes every list again in order (after a bulk load). */
export async function writeLookupLists(sql: Sql): Promise<void> {
  for (const entry of ONE_PER_ROW) await writeLookupList(sql, entry);
}

/**
 * Writes again in order the lists rows were added to since they were last written; `onList` is told each
 * before it is written.
 */
export async function rewriteUnorderedLists(sql: Sql, onList?: (name: string) => void): Promise<void> {
  for (const entry of ONE_PER_ROW) {
    const [row] = await sql.unsafe<{ unordered: boolean }[]>(
      `SELECT (SELECT coalesce(max(pos), 0) FROM ${entry.table}) > l.ordered_through AS unordered
       FROM lookup_lists l WHERE l.list = $1`,
      [entry.name],
    );
    if (!row?.unordered) continue;
    onList?.(entry.name);
    await writeLookupList(sql, entry);
  }
}
