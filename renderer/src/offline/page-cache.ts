/**
 * The page cache: every answer the network gave (list pages, totals, lookup pages, generator details) under
 * its canonical request key, with when it was fetched and last read. It is held to a size cap by removing
 * the least recently used answers; offline packs live in their own tables and are never removed here.
 */
import type { CachedAnswer } from '../data/cache-hook.ts';
import { isQuotaError, type AnswerRecord, type OfflineDatabase } from './database.ts';

/** Default cap of the page cache, in approximate bytes (JSON length). */
export const DEFAULT_CACHE_CAP = 100 * 1024 * 1024;

/**
 * How long reads' marks of use gather before they are written, in one transaction: a write per read would
 * hold the answers' store for a moment after each answer, when the next read (the same view's totals, the
 * next page) wants it.
 */
const USES_WRITTEN_AFTER_MS = 200;

export interface PageCacheOptions {
  cap?: number;
  /** Called when a write was refused because storage is full; what was stored stays. */
  onStorageFull?: () => void;
  now?: () => number;
}

export class PageCache {
  readonly db: OfflineDatabase;
  readonly cap: number;
  private readonly onStorageFull: () => void;
  private readonly now: () => number;
  /** Answers read since the marks were last written, with when. */
  private readonly uses = new Map<string, number>();
  private usesTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(db: OfflineDatabase, options: PageCacheOptions = {}) {
    this.db = db;
    this.cap = options.cap ?? DEFAULT_CACHE_CAP;
    this.onStorageFull = options.onStorageFull ?? (() => undefined);
    this.now = options.now ?? Date.now;
  }

  /** The answer under this key, marked as just used. */
  async read(key: string): Promise<CachedAnswer | undefined> {
    const record = await this.db.answers.get(key);
    if (!record) return undefined;
    this.uses.set(key, this.now());
    this.usesTimer ??= setTimeout(() => void this.writeUses(), USES_WRITTEN_AFTER_MS);
    return { data: record.data, fetchedAt: record.fetchedAt };
  }

  /** Writes the marks of use gathered so far. Not worth failing anything for: a full disk only loses them. */
  async writeUses(): Promise<void> {
    clearTimeout(this.usesTimer);
    this.usesTimer = undefined;
    if (this.uses.size === 0) return;
    const changes = [...this.uses].map(([key, lastUsed]) => ({ key, changes: { lastUsed } }));
    this.uses.clear();
    await this.db.answers.bulkUpdate(changes).catch(() => undefined);
  }

  /** Keeps a network answer, then removes the least recently used answers until the cache fits its cap. */
  async write(key: string, answer: CachedAnswer): Promise<void> {
    const size = JSON.stringify(answer.data).length;
    const record: AnswerRecord = { key, ...answer, lastUsed: this.now(), size };
    // The least recently used go first: the uses not yet written count.
    await this.writeUses();
    try {
      await this.db.transaction('rw', this.db.answers, this.db.meta, async () => {
        const before = await this.db.answers.get(key);
        await this.db.answers.put(record);
        let total = (await this.totalSize()) - (before?.size ?? 0) + size;
        // Oldest first, a few at a time: reading the whole table to trim a little would cost more than the trim.
        while (total > this.cap) {
          const oldest = (await this.db.answers.orderBy('lastUsed').limit(32).toArray()).filter(
            (old) => old.key !== key,
          );
          if (oldest.length === 0) break;
          for (const old of oldest) {
            if (total <= this.cap) break;
            await this.db.answers.delete(old.key);
            total -= old.size;
          }
        }
        await this.db.meta.put({ name: 'answersSize', value: total });
      });
    } catch (error) {
      if (!isQuotaError(error)) throw error;
      // The transaction rolled back whole: the cache is as it was, only this answer is not kept.
      this.onStorageFull();
    }
  }

  /** Approximate bytes the cache holds. */
  async totalSize(): Promise<number> {
    return (await this.db.meta.get('answersSize'))?.value ?? 0;
  }

  async count(): Promise<number> {
    return this.db.answers.count();
  }

  /** Removes every saved answer; packs stay. */
  async clear(): Promise<void> {
    await this.db.transaction('rw', this.db.answers, this.db.meta, async () => {
      await this.db.answers.clear();
      await this.db.meta.put({ name: 'answersSize', value: 0 });
    });
  }
}
