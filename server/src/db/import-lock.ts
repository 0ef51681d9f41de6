/**
 * One import at a time into a SQLite database, and no demo build over it meanwhile. Two imports of the same
 * files at once would both take up the same unfinished run and write and count its rows twice over; one into
 * a new database holds the file's write lock for a whole batch, where a second one met "database is locked"
 * and a stack trace. `data:demo --force` would put a new file in the database's place, and an import would
 * go on writing into the old one. A second writer is refused at once instead, saying why, before it reads or
 * writes the database.
 *
 * The lock is SQLite's own: an exclusive transaction, holding no data, on an empty file beside the database
 * (`<db>.import-lock`), for the writer's life. The operating system drops it when the process ends however
 * it ends, so a killed or crashed import leaves nothing to clear before the next one. An import's file stays
 * (taken away, a process that had just opened it could lock a file no other import sees); it holds nothing.
 * PostgreSQL's writers hold an advisory lock to the same end (postgres/pg-writer-lock.ts).
 */
import Database from 'better-sqlite3';
import { existsSync, rmSync } from 'node:fs';

export const importLockPath = (db: string): string => `${db}.import-lock`;

/**
 * What an import, a load or a demo build into a database another of them is writing into is told, on either
 * backend (this lock, or PostgreSQL's: postgres/pg-writer-lock.ts).
 */
export const anotherWriterRuns = (database: string): string =>
  `another import or load is writing into ${database}: wait until it ends`;

export interface ImportLock {
  /** Lets the next import in. */
  release(): void;
  /**
   * Lets the next import in, and removes the lock's file where this lock made it: an import that did not start,
   * or a demo build, which leaves a new file behind and nothing of an import's.
   */
  abandon(): void;
}

/** Takes the import lock of the database at `db`; undefined while another import holds it. */
export function takeImportLock(db: string): ImportLock | undefined {
  const path = importLockPath(db);
  const made = !existsSync(path);
  // No wait: an import holds it for minutes or hours, and the user is better told at once.
  const lock = new Database(path, { timeout: 0 });
  try {
    // The transaction writes nothing: no journal file beside it either.
    lock.pragma('journal_mode = MEMORY');
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    if (error instanceof Database.SqliteError && error.code === 'SQLITE_BUSY') return undefined;
    throw error;
  }
  const release = () => {
    if (lock.open) lock.close();
  };
  return {
    release,
    abandon() {
      release();
      if (made) rmSync(path, { force: true });
    },
  };
}
