/**
 * What a server process keeps from the rows (unfiltered counts and totals, lookup lists, bookmarks, the
 * counts of the latest searches), each value tagged with the data version it was read at (`data_version`,
 * raised by every commit that changes the served rows, pg-schema.ts) and dropped when the version has moved:
 * one primary-key read per use.
 */
import type { Sql } from 'postgres';

/** Values read from the rows, each kept until the data version moves. */
export class VersionedCache {
  private readonly sql: Sql;
  private seen: string | undefined;
  private readonly entries = new Map<string, Promise<unknown>>();
  /** The latest of an open-ended set of values (`recent`), the least recently used first. */
  private readonly latest = new Map<string, Promise<unknown>>();

  constructor(sql: Sql) {
    this.sql = sql;
  }

  /** The data version now; what was kept from an earlier one is dropped. */
  async version(): Promise<string | undefined> {
    const [row] = await this.sql<{ version: string }[]>`SELECT version::text AS version FROM data_version`;
    if (row?.version !== this.seen) {
      this.entries.clear();
      this.latest.clear();
      this.seen = row?.version;
    }
    return this.seen;
  }

  async get<T>(name: string, load: () => Promise<T>): Promise<T> {
    await this.version();
    return kept(this.entries, name, load);
  }

  /**
   * As `get`, for values of which any number may be asked (one per search key): the RECENT_LIMIT used
   * last are kept, the least recently used dropped first.
   */
  async recent<T>(name: string, load: () => Promise<T>): Promise<T> {
    await this.version();
    const entry = kept(this.latest, name, load);
    this.latest.delete(name);
    this.latest.set(name, entry);
    for (const oldest of this.latest.keys()) {
      if (this.latest.size <= RECENT_LIMIT) break;
      this.latest.delete(oldest);
    }
    return entry;
  }
}

/** Values kept by `recent`: a few bytes each (a count and its key). */
export const RECENT_LIMIT = 256;

/** The entry `name` of `entries`, loaded now if it has none; a load that fails is not kept. */
function kept<T>(entries: Map<string, Promise<unknown>>, name: string, load: () => Promise<T>): Promise<T> {
  let entry = entries.get(name) as Promise<T> | undefined;
  if (!entry) {
    entry = load();
    entries.set(name, entry);
    entry.catch(() => {
      if (entries.get(name) === entry) entries.delete(name);
    });
  }
  return entry;
}
