/**
 * The worker's side of the engine: the packs opened in this worker and the reply to each message. Kept
 * apart from engine.worker.ts (which only wires it to the worker's message port) so that tests run it over
 * a MessageChannel in plain Node.
 */
import type { EngineMessage, EngineReply } from './engine-messages.ts';
import { openPack, type OpenedPack } from './open-pack.ts';

export function engineHost(): (message: EngineMessage) => EngineReply {
  const packs = new Map<string, OpenedPack>();
  return (message) => {
    const { id } = message;
    try {
      switch (message.type) {
        case 'open':
          packs.set(message.packId, openPack(message.rows));
          return { id, ok: true, data: null };
        case 'close':
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
      // Rows a pack cannot be opened over (a field missing): the message says which.
      return { id, ok: false, error: { kind: 'invalid-response', message: (error as Error).message } };
    }
  };
}
