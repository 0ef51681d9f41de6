/**
 * The worker's side of the engine: the packs opened in this worker and the reply to each message. Kept
 * apart from ../engine.worker.ts (which only wires it to the worker's message port and its storage) so that
 * tests run it over a MessageChannel in plain Node.
 */
import type { PackIndexes, StoredPack } from './contract.ts';
import type { EngineMessage, EngineReply } from './engine-messages.ts';
import { openPack, warmUpSteps, type OpenedPack } from './open-pack.ts';

/** Where the worker reads packs and keeps their indexes (renderer/src/offline/stored-pack.ts in the app). */
export interface PackStore {
  /** A stored pack; `unfinished` also reads one whose parts are all stored but not yet marked complete. */
  read(database: string, packId: string, options?: { unfinished?: boolean }): Promise<StoredPack>;
  /** Stores a pack's indexes in place of any it had. */
  saveIndexes(database: string, packId: string, indexes: PackIndexes): Promise<void>;
}

export function engineHost(store: PackStore): (message: EngineMessage) => Promise<EngineReply> {
  const packs = new Map<string, OpenedPack>();
  /** The latest open of each pack while its rows are read: a close or a newer open during the read wins. */
  const reading = new Map<string, number>();
  /**
   * A pack stored without indexes (or with indexes not of its rows) builds its remaining indexes one per
   * task (warmUpSteps), so a request that arrives meanwhile waits for one index at most, then stores them
   * all, so the next open builds nothing; a pack closed or opened again stops its warm-up.
   */
  const warmUp = (database: string, packId: string, pack: OpenedPack) => {
    const steps = warmUpSteps(pack);
    const next = () => {
      if (packs.get(packId) !== pack) return;
      const step = steps.shift();
      if (!step) {
        // Not storing them costs only time: the next open builds them again, and tries to store them again.
        store.saveIndexes(database, packId, pack.indexes()).catch(() => undefined);
        return;
      }
      try {
        step();
      } catch {
        // Only an index left unbuilt: the request that needs it builds it, and reports what fails there.
      }
      setTimeout(next, 0);
    };
    setTimeout(next, 0);
  };
  return async (message) => {
    const { id } = message;
    try {
      switch (message.type) {
        case 'open-stored': {
          reading.set(message.packId, id);
          const stored = await store.read(message.database, message.packId);
          if (reading.get(message.packId) !== id) {
            return {
              id,
              ok: false,
              error: { kind: 'offline', message: `The offline pack "${message.packId}" was closed.` },
            };
          }
          reading.delete(message.packId);
          const pack = openPack(stored.rows, stored.indexes);
          packs.set(message.packId, pack);
          if (!pack.fromStored) warmUp(message.database, message.packId, pack);
          return { id, ok: true, data: null };
        }
        case 'index-stored': {
          const stored = await store.read(message.database, message.packId, { unfinished: true });
          const pack = openPack(stored.rows);
          await store.saveIndexes(message.database, message.packId, pack.indexes());
          packs.set(message.packId, pack);
          return { id, ok: true, data: null };
        }
        case 'close':
          reading.delete(message.packId);
          packs.delete(message.packId);
          return { id, ok: true, data: null };
        case 'answer': {
          const pack = packs.get(message.packId);
          if (!pack) {
            return {
              id,
              ok: false,
              error: { kind: 'offline', message: `The offline pack "${message.packId}" is not open.` },
            };
          }
          const answer = pack.answer(message.name, message.input);
          return answer.ok ? { id, ok: true, data: answer.data } : { id, ok: false, error: answer.error };
        }
      }
    } catch (error) {
      // Rows a pack cannot be opened over (a field missing), a pack that cannot be read, indexes that cannot
      // be stored (storage full: the error's name says so): the message says.
      return {
        id,
        ok: false,
        error: { kind: 'invalid-response', message: (error as Error).message },
      };
    }
  };
}
