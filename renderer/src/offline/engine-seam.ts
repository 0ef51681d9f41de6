/**
 * Where the offline store finds the query engine that answers requests over a pack's rows. The engine and
 * its contract live in ./engine/ (built on shared/query, run in a Web Worker); the app installs it at start,
 * and tests install their own or none (then a request offline is answered from the page cache alone).
 */
import type { OfflineEngine } from './engine/contract.ts';

export type {
  EngineRequest,
  GeneratorOwnTotals,
  OfflineEngine,
  PackIndexes,
  PackList,
  PackQuery,
  PackRows,
  StoredPack,
} from './engine/contract.ts';

let installed: OfflineEngine | undefined;

/** Installs the engine that answers requests over packs. */
export function setOfflineEngine(engine: OfflineEngine | undefined): void {
  installed = engine;
}

export function offlineEngine(): OfflineEngine | undefined {
  return installed;
}
