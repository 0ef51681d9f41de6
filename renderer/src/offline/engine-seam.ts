/**
 * The seam between the offline packs (stored and downloaded here) and the offline query engine that answers
 * requests over a pack's rows (renderer/src/offline/engine/, built on shared/query). The engine's own
 * contract file takes this interface's place when it lands; until then the packs are stored, listed and
 * refreshed, and a request offline is answered from the page cache alone.
 */
import type { GeneratorDetail, GeneratorFilterFields, GeneratorRecord } from '../../../shared/api/index.ts';
import type { ManifestFilterFields, ManifestRecord } from '../../../shared/api/manifests.ts';
import type { TrackerRequestName, TrackerRequests } from '../../../shared/query/canonical.ts';

export type PackList = 'generators' | 'manifests';

/** What a stored pack holds, as the engine receives it when the pack opens. */
export interface PackRows {
  list: PackList;
  /** Every field; for a manifests pack, the generators its manifests reference. */
  generators: GeneratorRecord[];
  /** The detail of every generator in `generators`. */
  details: GeneratorDetail[];
  /** Every field including waste_lines; empty for a generators pack. */
  manifests: ManifestRecord[];
}

/** The query a pack was made from: one workspace's filters and search. */
export type PackQuery =
  | { list: 'generators'; filterFields: GeneratorFilterFields; searchKey: string }
  | { list: 'manifests'; filterFields: ManifestFilterFields; searchKey: string };

/** One data request as the pipeline holds it. */
export interface EngineRequest<Name extends TrackerRequestName = TrackerRequestName> {
  name: Name;
  input: TrackerRequests[Name];
}

export interface OfflineEngine {
  /** True when every row the request can touch is inside the pack's query. */
  covers(packQuery: PackQuery, request: EngineRequest): boolean;
  /** Builds the engine's in-memory indexes over a pack's rows; `packId` names it in later answers. */
  open(packId: string, rows: PackRows): Promise<void>;
  /** The answer the server would give to this request, over the opened pack's rows. */
  answer(packId: string, request: EngineRequest): Promise<unknown>;
  close(packId: string): void;
}

let installed: OfflineEngine | undefined;

/** Installs the engine that answers requests over packs; none until it is built. */
export function setOfflineEngine(engine: OfflineEngine | undefined): void {
  installed = engine;
}

export function offlineEngine(): OfflineEngine | undefined {
  return installed;
}
