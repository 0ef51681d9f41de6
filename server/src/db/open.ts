/** Opens a tracker database with the settings the server reads it with. */
import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { foldCase } from '../../../shared/query/search.ts';
import { DatabaseError } from './database-error.ts';
import { SCHEMA_VERSION, createTables } from './schema.ts';

/** The SQL function every connection opened here has: foldCase over text. */
export const SEARCH_FOLD_FUNCTION = 'search_fold';

function schemaVersion(db: Database.Database): string | undefined {
  try {
    return db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get() as
      string | undefined;
  } catch {
    return undefined;
  }
}

const tableNames = (db: Database.Database) =>
  new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);

let schemaTables: ReadonlySet<string> | undefined;

/** The tables this code's schema creates, read off a database it builds in memory: one list, the schema's. */
function tablesOfSchema(): ReadonlySet<string> {
  if (!schemaTables) {
    const scratch = new Database(':memory:');
    createTables(scratch);
    schemaTables = tableNames(scratch);
    scratch.close();
  }
  return schemaTables;
}

/**
 * Why this code cannot serve the database, or undefined when it can: another schema version, or the right
 * version without a table the schema has (a file written while the schema changed under one version number)
 * — caught here once rather than as a failed query on the first request that reads that table.
 */
function schemaProblem(db: Database.Database, path: string): string | undefined {
  const version = schemaVersion(db);
  if (version !== String(SCHEMA_VERSION)) {
    return `${path} is not a tracker database of schema version ${SCHEMA_VERSION} (found ${version ?? 'none'})`;
  }
  const present = tableNames(db);
  const missing = [...tablesOfSchema()].filter((table) => !present.has(table));
  if (missing.length > 0) {
    return `${path} says schema version ${SCHEMA_VERSION} but lacks the tables ${missing.join(', ')}: build it anew`;
  }
  return undefined;
}

/** True when the file is a tracker database this code can serve (not one from an older version). */
export function hasCurrentSchema(path: string): boolean {
  if (!existsSync(path)) return false;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return schemaProblem(db, path) === undefined;
  } finally {
    db.close();
  }
}

/**
 * Whether a connection other than this call's has the database at `path` open, such as a server serving it:
 * the server reads in WAL mode (openDatabase), whose connections hold a shared lock on the file for as long
 * as they are open, so an exclusive one cannot be had. A file SQLite cannot open or read as a database is
 * open nowhere as one.
 */
export function openElsewhere(path: string): boolean {
  let probe: Database.Database | undefined;
  try {
    probe = new Database(path, { fileMustExist: true, timeout: 0 });
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('COMMIT');
    return false;
  } catch (error) {
    if (error instanceof Database.SqliteError) return error.code === 'SQLITE_BUSY';
    throw error;
  } finally {
    probe?.close();
  }
}

/** What replacing a database file that is open elsewhere (openElsewhere) is told. */
export const servedElsewhere = (path: string): string =>
  `${path} is open in another program (a server serving it?): stop that program before replacing the ` +
  'file; to add data to a served database, use npm run data:import';

/**
 * `readonly`: a reading connection beside the server's own (the read pool's workers); it leaves the journal
 * mode to the server's connection, which sets WAL so that both read at once.
 */
export function openDatabase(path: string, options: { readonly?: boolean } = {}): Database.Database {
  if (!existsSync(path)) throw new DatabaseError(`no database at ${path}`);
  if (statSync(path).isDirectory()) throw new DatabaseError(`${path} is a folder, not a database file`);
  const readonly = options.readonly ?? false;
  const db = new Database(path, { fileMustExist: true, readonly });
  if (!readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  // The whole dataset is read by every list query: map it and keep a large page cache (256 MiB).
  db.pragma('mmap_size = 4294967296');
  db.pragma('cache_size = -262144');
  db.pragma('temp_store = MEMORY');
  // The search rule's case folding (shared/query/search.ts), for the searches SQLite's lower() cannot fold.
  db.function(SEARCH_FOLD_FUNCTION, { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? foldCase(text) : text,
  );
  const problem = schemaProblem(db, path);
  if (problem) {
    db.close();
    throw new DatabaseError(problem);
  }
  return db;
}
