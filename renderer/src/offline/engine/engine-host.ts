/**
 * The worker's side of the engine: the packs opened in this worker and the reply to each message. Kept
 * apart from engine.worker.ts (which only wires it to the worker's message port and its storage) so that
 * tests run it over a MessageChannel in plain Node.
 */
import type { PackRows } from './contract.ts';
import type { EngineMessage, EngineReply } from './engine-messages.ts';
import { openPack, warmUpSteps, type OpenedPack } from './open-pack.ts';

/** Reads a stored pack's rows (renderer/src/offline/stored-pack.ts in the worker). */
export type StoredPackReader = (database: string, packId: string) => Promise<PackRows>;

export function engineHost(readStored: StoredPackReader): (message: EngineMessage) => Promise<EngineReply> {
  const packs = new Map<string, OpenedPack>();
  /** The latest open of each pack while its rows are read: a close or a newer open during the read wins. */
  const reading = new Map<string, number>();
  /**
   * Opens the pack, then builds its remaining indexes one per task (warmUpSteps), so a request that arrives
   * meanwhile waits for one index at most; a pack closed or opened again stops its warm-up.
   */
  const opened = (packId: string, rows: PackRows) => {
    const pack = openPack(rows);
    packs.set(packId, pack);
    const steps = warmUpSteps(pack);
    const next = () => {
      const step = steps.shift();
      if (!step || packs.get(packId) !== pack) return;
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
          const rows = await readStored(message.database, message.packId);
          if (reading.get(message.packId) !== id) {
            return {
              id,
              ok: false,
              error: { kind: 'offline', message: `The offline pack "${message.packId}" was closed.` },
            };
          }
          reading.delete(message.packId);
          opened(message.packId, rows);
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
      // Rows a pack cannot be opened over (a field missing), or a pack that cannot be read: the message says.
      return { id, ok: false, error: { kind: 'invalid-response', message: (error as Error).message } };
    }
  };
}
