/**
 * What a server process keeps from the rows (unfiltered counts and totals, lookup lists, bookmarks), each
 * value tagged with the data version it was read at (`data_version`, raised by every commit that changes the
 * served rows, pg-schema.ts) and dropped when the version has moved: one primary-key read per use.
 */
import type { Sql } from 'postgres';

/** Values read from the rows, each kept until the data version moves. */
export class VersionedCache {
  private readonly sql: Sql;
  private seen: string | undefined;
  private readonly entries = new Map<string, Promise<unknown>>();

  constructor(sql: Sql) {
    this.sql = sql;
  }

  /** The data version now; what was kept from an earlier one is dropped. */
  async version(): Promise<string | undefined> {
    const [row] = await this.sql<{ version: string }[]>`SELECT version::text AS version FROM data_version`;
    if (row?.version !== this.seen) {
      this.entries.clear();
      this.seen = row?.version;
    }
    return this.seen;
  }

  async get<T>(name: string, load: () => Promise<T>): Promise<T> {
    await this.version();
    let entry = this.entries.get(name) as Promise<T> | undefined;
    if (!entry) {
      entry = load();
      this.entries.set(name, entry);
      entry.catch(() => this.entries.delete(name));
    }
    return entry;
  }
}
