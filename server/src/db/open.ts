/** Opens a tracker database with the settings the server reads it with. */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { foldCase } from '../../../shared/query/search.ts';
import { SCHEMA_VERSION } from './schema.ts';

export class DatabaseError extends Error {}

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

/** True when the file is a tracker database this code can serve (not one from an older version). */
export function hasCurrentSchema(path: string): boolean {
  if (!existsSync(path)) return false;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return schemaVersion(db) === String(SCHEMA_VERSION);
  } finally {
    db.close();
  }
}

/**
 * `readonly`: a reading connection beside the server's own (the read pool's workers); it leaves the journal
 * mode to the server's connection, which sets WAL so that both read at once.
 */
export function openDatabase(path: string, options: { readonly?: boolean } = {}): Database.Database {
  if (!existsSync(path)) throw new DatabaseError(`no database at ${path}`);
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
  const version = schemaVersion(db);
  if (version !== String(SCHEMA_VERSION)) {
    db.close();
    throw new DatabaseError(
      `${path} is not a tracker database of schema version ${SCHEMA_VERSION} (found ${version ?? 'none'})`,
    );
  }
  return db;
}
