/**
 * Where per-user UI state is kept: the browser's storage under the store's name and the signed-in server and
 * user, keyed as the user's saved data is (offline/database.ts `databaseName`), so whoever signs in next on
 * this computer starts from their own filters, search, sort, columns and place, never the last user's.
 *
 * While nobody is signed in nothing is read or written. When the user changes, every store made with
 * `perUser` goes back to its first state (with writing held off, so one user's defaults never overwrite
 * another's saved state) and then reads the new user's. State saved before it was kept per user (one
 * copy for the whole browser profile) is taken over, once, by the first user to sign in.
 */
import type { StateStorage } from 'zustand/middleware';
import { databaseName } from '../offline/database.ts';

/** A store made with zustand's persist, as this module handles it. */
interface PersistedStore {
  getInitialState(): unknown;
  setState(state: never, replace: true): void;
  persist: { rehydrate(): Promise<void> | void };
}

let owner: string | null = null;
let switching = false;
const stores = new Set<PersistedStore>();

/** Storage (localStorage or sessionStorage) seen per user: zustand persist's `getStorage`. */
export function userStorage(backing: () => Storage): () => StateStorage {
  return () => ({
    getItem: (name) => {
      if (owner === null) return null;
      const storage = backing();
      const own = storage.getItem(`${name} ${owner}`);
      if (own !== null) return own;
      const shared = storage.getItem(name);
      if (shared !== null) {
        storage.setItem(`${name} ${owner}`, shared);
        storage.removeItem(name);
      }
      return shared;
    },
    setItem: (name, value) => {
      if (owner !== null && !switching) backing().setItem(`${name} ${owner}`, value);
    },
    removeItem: (name) => {
      if (owner !== null) backing().removeItem(`${name} ${owner}`);
    },
  });
}

/** Registers a store kept per user; returns it. */
export function perUser<Store extends PersistedStore>(store: Store): Store {
  stores.add(store);
  return store;
}

/** The signed-in server and user (null: nobody): every per-user store takes that user's state. */
export function setStateOwner(who: { baseUrl: string; username: string } | null): void {
  const next = who ? databaseName(who.baseUrl, who.username) : null;
  if (next === owner) return;
  switching = true;
  try {
    for (const store of stores) store.setState(store.getInitialState() as never, true);
  } finally {
    switching = false;
  }
  owner = next;
  for (const store of stores) void store.persist.rehydrate();
}
