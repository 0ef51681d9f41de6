/**
 * The messages between the engine client (the page) and the engine's Web Worker. Plain data only, so the
 * browser's structured clone carries them without copying through JSON and a caller may transfer buffers
 * inside them; every request carries an id its reply repeats, so replies may come in any order.
 */
import type { IpcError } from '../../../../shared/ipc/contract.ts';
import type { EngineRequestName, EngineRequests } from './contract.ts';

export type EngineMessage =
  /** Open a pack the worker reads itself from the named database. */
  | { type: 'open-stored'; id: number; packId: string; database: string }
  /** Build every index of a pack whose parts are all stored, store them beside it, and keep it open. */
  | { type: 'index-stored'; id: number; packId: string; database: string }
  | {
      type: 'answer';
      id: number;
      packId: string;
      name: EngineRequestName;
      input: EngineRequests[EngineRequestName];
    }
  | { type: 'close'; id: number; packId: string };

export type EngineReply =
  { id: number; ok: true; data: unknown } | { id: number; ok: false; error: IpcError };
