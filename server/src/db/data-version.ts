/**
 * Whether another connection has committed to the database since this one last looked: SQLite's
 * `PRAGMA data_version`, which changes on this connection when any other connection commits (an import
 * into the file the server serves). A microsecond to ask, so it is asked before every request.
 */
import type { Database, Statement } from 'better-sqlite3';

export class DataVersion {
  private readonly statement: Statement;
  private last: unknown;

  constructor(db: Database) {
    this.statement = db.prepare('PRAGMA data_version').pluck();
    this.last = this.statement.get();
  }

  /** True once per change: when another connection has committed since the last call. */
  changed(): boolean {
    const now = this.statement.get();
    if (now === this.last) return false;
    this.last = now;
    return true;
  }
}
