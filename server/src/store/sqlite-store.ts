/**
 * The tracker store over one SQLite file (store.ts): the repositories answer on the main thread whatever an
 * index answers, and a call that scans a whole table goes to the read pool, when there is one, so that it
 * does not hold the event loop, and is dropped there if its client leaves first (workers/read-pool.ts).
 * Tokens and accounts live in the file; the sign-in throttle is kept in this process's memory (one process
 * serves a SQLite file).
 */
import type { Database } from 'better-sqlite3';
import { LoginThrottle } from '../auth/throttle.ts';
import { TokenStore } from '../auth/tokens.ts';
import { findUser, replacePasswordHash } from '../auth/users.ts';
import { DataWatch } from '../repositories/data-watch.ts';
import { DetailRepository } from '../repositories/detail-repository.ts';
import { GeneratorsRepository } from '../repositories/generators-repository.ts';
import { ManifestsRepository } from '../repositories/manifests-repository.ts';
import { ReadPool, type ReadPoolOptions } from '../workers/read-pool.ts';
import type { TrackerStore } from './store.ts';

export interface SqliteStoreOptions {
  /**
   * The worker threads that run the requests no index answers; false runs them on the main thread. Always
   * off for a database that is not a file (workers open the file by its path).
   */
  readPool?: ReadPoolOptions | false;
  /** Told when reading the generator matches again after a change fails (the log). */
  onError?: (error: unknown) => void;
}

export function sqliteStore(db: Database, options: SqliteStoreOptions = {}): TrackerStore {
  const generators = new GeneratorsRepository(db);
  const manifests = new ManifestsRepository(db);
  const details = new DetailRepository(db);
  const onFile = !db.memory && db.name !== '';
  const pool = options.readPool === false || !onFile ? undefined : new ReadPool(db.name, options.readPool);
  // New data while serving: an import may commit to this file at any time (repositories/data-watch.ts).
  const watch = new DataWatch({
    db,
    generators,
    manifests,
    rebuild: pool ? () => pool.run('generatorMatches') : () => Promise.resolve(generators.matchesSnapshot()),
    onError: options.onError ?? (() => undefined),
  });

  return {
    backend: 'sqlite',
    generators: {
      page: async (query, signal) =>
        pool && generators.scans(query.searchKey)
          ? pool.runUntil(signal, 'generatorsPage', query)
          : generators.page(query),
      totals: async (filters, searchKey, signal) =>
        pool && generators.scans(searchKey)
          ? pool.runUntil(signal, 'generatorsTotals', filters, searchKey)
          : generators.totals(filters, searchKey),
      lookup: async (field, search, page, signal) => {
        if (!pool) return generators.lookup(field, search, page);
        return (
          generators.lookupWithoutScan(field, search, page) ??
          pool.runUntil(signal, 'generatorsLookup', field, search, page)
        );
      },
    },
    manifests: {
      pageBytes: async (query, signal) => {
        if (!pool || !manifests.scans(query.searchKey)) return manifests.pageBytes(query);
        const copied = await pool.runUntil(signal, 'manifestsPageBytes', query);
        return Buffer.from(copied.buffer, copied.byteOffset, copied.byteLength);
      },
      totals: async (filters, searchKey, signal) =>
        pool && manifests.scans(searchKey)
          ? pool.runUntil(signal, 'manifestsTotals', filters, searchKey)
          : manifests.totals(filters, searchKey),
      lookup: async (field, search, page, signal) => {
        if (!pool) return manifests.lookup(field, search, page);
        return (
          manifests.lookupWithoutScan(field, search, page) ??
          pool.runUntil(signal, 'manifestsLookup', field, search, page)
        );
      },
    },
    details: { find: (handlerId) => Promise.resolve(details.find(handlerId)) },
    accounts: {
      findUser: (username) => Promise.resolve(findUser(db, username)),
      replacePasswordHash: (userId, oldHash, newHash) =>
        Promise.resolve(replacePasswordHash(db, userId, oldHash, newHash)),
      tokens: (tokenOptions) => new TokenStore(db, tokenOptions),
      throttle: (throttleOptions) => new LoginThrottle(throttleOptions),
    },
    warm: () => {
      generators.warm();
      return Promise.resolve();
    },
    checkData: () => watch.check(),
    close: async () => {
      watch.close();
      await pool?.close();
    },
  };
}
