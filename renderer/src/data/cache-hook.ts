/**
 * Where the data pipeline asks a local cache, keyed by the canonical request key (shared/query/canonical.ts)
 * so every copy of a request finds the same entry. The offline cache fills this in; until then nothing is
 * stored and nothing is found.
 */

/** An answer kept from the network, with when it was fetched. */
export interface CachedAnswer {
  data: unknown;
  fetchedAt: number;
}

export interface CacheHook {
  /** The answer stored under this key, if any. */
  read(key: string): Promise<CachedAnswer | undefined>;
  /** Keeps a network answer under its key. */
  write(key: string, answer: CachedAnswer): Promise<void>;
}

export const noCache: CacheHook = {
  read: () => Promise.resolve(undefined),
  write: () => Promise.resolve(),
};
