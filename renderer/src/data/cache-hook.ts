/**
 * Where the data pipeline asks saved data, keyed by the canonical request key (shared/query/canonical.ts)
 * so every copy of a request finds the same entry. The offline store (renderer/src/offline/) fills this in
 * once a user is signed in; before that nothing is stored and nothing is found.
 */
import type { TrackerRequestName, TrackerRequests } from '../../../shared/query/canonical.ts';

/** An answer kept from the network, with when it was fetched. */
export interface CachedAnswer {
  data: unknown;
  fetchedAt: number;
}

/**
 * What saved data says to a request the network cannot answer: an answer, or what is missing in words. An
 * answer `within` a slice holds only that slice's part of what the server would list (a filter box's values
 * from an offline pack of some rows, named by the pack's title).
 */
export type SavedAnswer = ({ ok: true; within?: string } & CachedAnswer) | { ok: false; missing: string };

export interface CacheHook {
  /** The answer stored under this key, if any. */
  read(key: string): Promise<CachedAnswer | undefined>;
  /** Keeps a network answer under its key. */
  write(key: string, answer: CachedAnswer): Promise<void>;
  /** A request goes to the network: make ready what would answer it offline, should the network hang. */
  prepare(name: TrackerRequestName, input: TrackerRequests[TrackerRequestName]): void;
  /** Answers offline: from an offline pack that covers the request, else from the saved answer under `key`. */
  offline<Name extends TrackerRequestName>(
    name: Name,
    input: TrackerRequests[Name],
    key: string,
  ): Promise<SavedAnswer>;
}

export const NOTHING_SAVED =
  'Nothing saved on this machine answers this request. Connect to the network to load it, or, while ' +
  'connected, use “Make available offline” in its workspace to take these rows along.';

export const noCache: CacheHook = {
  read: () => Promise.resolve(undefined),
  write: () => Promise.resolve(),
  prepare: () => undefined,
  offline: () => Promise.resolve({ ok: false, missing: NOTHING_SAVED }),
};
