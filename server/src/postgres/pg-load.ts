/**
 * Loads a tracker database file into PostgreSQL: every table the server reads, streamed with COPY (text
 * format) a chunk at a time, then the indexes (pg-finalize.ts) after the rows are in. The demo generator
 * writes SQLite (its rows and derived sets, db/derive.ts); `data:demo --out postgres://…` builds a file and
 * loads it with this, so both backends serve the same rows; `data:load` loads a file an import built.
 */
import Database from 'better-sqlite3';
import { once } from 'node:events';
import type { Sql } from 'postgres';
import { finalizePostgres } from './pg-finalize.ts';
import { ONE_PER_ROW, listTriggers } from './pg-lookup-lists.ts';

/**
 * The tables copied, parents first. Tokens are never copied: a new database starts with no sign-ins. The
 * importer's ledger is (its runs, each file's counts, the rejected rows and the rows still pending): an import
 * into PostgreSQL after the load applies the rows waiting for a manifest or handler it brings, as one into
 * the file would.
 */
export const COPIED_TABLES = [
  'meta',
  'waste_codes',
  'management_methods',
  'naics_codes',
  'container_types',
  'generators',
  'generator_naics',
  'generator_sic',
  'generator_shipped_years',
  'generator_waste_codes',
  'generator_statuses',
  'generator_handling_codes',
  'generator_method_lines',
  'manifests',
  'manifest_transporters',
  'waste_lines',
  'manifest_line_sets',
  'manifest_line_set_totals',
  'manifest_waste_lines_json',
  'data_tallies',
  'users',
  'import_runs',
  'import_files',
  'import_rejections',
  'import_pending',
  'import_stale',
] as const;

/** The copied tables whose ids the database numbers: copied with them, new rows are numbered after. */
const NUMBERED_TABLES = ['users', 'import_runs', 'import_rejections', 'import_pending'] as const;

/** Meta keys that describe the file, not the data: PostgreSQL keeps its own schema version. */
const FILE_ONLY_META = new Set(['schema_version']);

/** Bytes written to COPY at a time. */
const CHUNK_BYTES = 1 << 20;

/** One value in COPY's text format: \N for null, and backslash, tab, newline and return escaped. */
function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'string') {
    return /[\\\t\n\r]/.test(value)
      ? value.replace(/[\\\t\n\r]/g, (character) =>
          character === '\\' ? '\\\\' : character === '\t' ? '\\t' : character === '\n' ? '\\n' : '\\r',
        )
      : value;
  }
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Buffer.isBuffer(value)) return `\\\\x${value.toString('hex')}`;
  throw new TypeError(`a SQLite value of type ${typeof value} has no COPY text`);
}

async function insertableColumns(sql: Sql, table: string): Promise<string[]> {
  const columns = await sql<{ name: string }[]>`
    SELECT column_name AS name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table} AND is_generated = 'NEVER'
    ORDER BY ordinal_position`;
  return columns.map((column) => column.name);
}

/** The triggers adding `table`'s inserted rows to a lookup list (pg-lookup-lists.ts). */
function listingTriggers(table: string): string[] {
  return ONE_PER_ROW.filter((entry) => entry.list.from === table).map((entry) => listTriggers(entry).added);
}

export interface LoadProgress {
  table: string;
  rows: number;
  seconds: number;
}

/** True when the served tables hold no rows (a database just migrated, or emptied). */
export async function isEmpty(sql: Sql): Promise<boolean> {
  const [row] = await sql<{ any: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM generators) OR EXISTS (SELECT 1 FROM manifests)
        OR EXISTS (SELECT 1 FROM users) AS any`;
  return !row?.any;
}

/** Empties every table a load writes (and the tokens, and the lookup lists built from them), in one statement. */
export async function emptyTables(sql: Sql): Promise<void> {
  const lists = ONE_PER_ROW.map((list) => list.table);
  await sql.unsafe(`TRUNCATE ${[...COPIED_TABLES, 'tokens', 'sign_in_failures', ...lists].join(', ')}`);
}

export async function loadSqliteFile(
  path: string,
  sql: Sql,
  onTable?: (progress: LoadProgress) => void,
): Promise<void> {
  const source = new Database(path, { readonly: true, fileMustExist: true });
  try {
    for (const table of COPIED_TABLES) {
      const started = performance.now();
      const present = new Set(
        (source.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[]).map(String),
      );
      const columns = (await insertableColumns(sql, table)).filter((column) => present.has(column));
      const where =
        table === 'meta' ? ` WHERE key NOT IN (${[...FILE_ONLY_META].map(() => '?').join(', ')})` : '';
      const read = source
        .prepare(`SELECT ${columns.join(', ')} FROM ${table}${where}`)
        .raw()
        .iterate(...(table === 'meta' ? [...FILE_ONLY_META] : []));
      const rows = await sql.begin(async (tx) => {
        // Emptied in the same transaction, a table takes its rows frozen and its pages marked all-visible
        // as they are written (COPY FREEZE): neither the VACUUM after the load nor autovacuum meanwhile has
        // to read and write every page of it again. `users` is referenced by the tokens, which TRUNCATE
        // refuses; it holds a few rows.
        const freeze = table !== 'users';
        if (freeze) await tx.unsafe(`TRUNCATE ${table}`);
        // A lookup list's trigger would add the copied rows' entries one COPY at a time, only for the list
        // to be written whole, in order, after the load (pg-finalize.ts).
        const listing = listingTriggers(table);
        for (const trigger of listing) await tx.unsafe(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
        const stream = await tx
          .unsafe(`COPY ${table} (${columns.join(', ')}) FROM STDIN${freeze ? ' (FREEZE)' : ''}`)
          .writable();
        const finished = once(stream, 'finish');
        let chunk = '';
        let count = 0;
        for (const row of read as IterableIterator<unknown[]>) {
          chunk += `${row.map(copyValue).join('\t')}\n`;
          count += 1;
          if (chunk.length >= CHUNK_BYTES) {
            if (!stream.write(chunk)) await once(stream, 'drain');
            chunk = '';
          }
        }
        stream.end(chunk);
        await finished;
        for (const trigger of listing) await tx.unsafe(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
        return count;
      });
      onTable?.({ table, rows, seconds: (performance.now() - started) / 1000 });
    }
    for (const table of NUMBERED_TABLES) {
      await sql.unsafe(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), coalesce((SELECT max(id) FROM ${table}), 0) + 1, false)`,
      );
    }
  } finally {
    source.close();
  }
}

/** A step of a load as the commands that load print it (`data:demo --out postgres://…`, `data:load`). */
export function loadStepLine(step: string, seconds: number): string {
  return `  ${step.replace(/\s+/g, ' ').slice(0, 90).padEnd(90)} ${seconds.toFixed(1).padStart(7)} s`;
}

/** A file's rows into an empty database, then its indexes. */
export async function loadIntoPostgres(
  path: string,
  sql: Sql,
  onStep?: (step: string, seconds: number) => void,
): Promise<void> {
  await loadSqliteFile(path, sql, ({ table, rows, seconds }) =>
    onStep?.(`${table} (${rows.toLocaleString('en-US')} rows)`, seconds),
  );
  let last = performance.now();
  await finalizePostgres(sql, (step) => {
    const now = performance.now();
    onStep?.(step, (now - last) / 1000);
    last = now;
  });
}
