/**
 * The page cache: every answer the network gave (list pages, totals, lookup pages, generator details) under
 * its canonical request key, with when it was fetched and last read. It is held to a size cap by removing
 * the least recently used answers; offline packs live in their own tables and are never removed here.
 */
import type { CachedAnswer } from '../data/cache-hook.ts';
import { isQuotaError, type AnswerRecord, type OfflineDatabase } from './database.ts';

/** Default cap of the page cache, in approximate bytes (JSON length). */
export const DEFAULT_CACHE_CAP = 100 * 1024 * 1024;

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
    // Marking the use is not worth failing a read for (a full disk refuses it too).
    void this.db.answers.update(key, { lastUsed: this.now() }).catch(() => undefined);
    return { data: record.data, fetchedAt: record.fetchedAt };
  }

  /** Keeps a network answer, then removes the least recently used answers until the cache fits its cap. */
  async write(key: string, answer: CachedAnswer): Promise<void> {
    const size = JSON.stringify(answer.data).length;
    const record: AnswerRecord = { key, ...answer, lastUsed: this.now(), size };
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
