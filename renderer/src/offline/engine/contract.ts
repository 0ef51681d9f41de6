/**
 * The seam between the offline packs (downloaded and stored in renderer/src/offline/) and the offline query
 * engine (this folder). The engine takes a pack's rows once, when the pack opens (in the app it reads them
 * from storage itself, in its worker: `openStored`); it answers the data requests of the IPC contract
 * (shared/ipc/contract.ts) over them with the outputs the server's answers parse to (shared/api), and
 * `covers` says which requests a pack can answer exactly: a request it does not cover must go to the page
 * cache, never to a guess (docs/offline.md lists what is refused).
 */
import type {
  GeneratorDetail,
  GeneratorFilterFields,
  GeneratorList,
  GeneratorRecord,
  GeneratorTotals,
  LookupResult,
  ManifestFilterFields,
  ManifestList,
  ManifestRecord,
  ManifestTotals,
} from '../../../../shared/api/index.ts';
import type { IpcError, Result } from '../../../../shared/ipc/contract.ts';
import type { TrackerRequestName, TrackerRequests } from '../../../../shared/query/canonical.ts';
import type { StoredLookup } from './pack-lookups.ts';
import type { TableIndexes } from './pack-table.ts';

export type PackList = 'generators' | 'manifests';

/**
 * The engine's indexes of one pack as the pack stores them beside its rows (pack-indexes.ts): its list's table
 * indexes (pack-table.ts) and its lookups' lists (pack-lookups.ts).
 */
export interface PackIndexes {
  /** pack-indexes.ts `INDEX_FORMAT` when they were made. */
  format: number;
  list: PackList;
  table: TableIndexes;
  lookups: Record<string, StoredLookup>;
}

/** What a stored pack holds, as the engine receives it when the pack opens. */
export interface PackRows {
  list: PackList;
  /** Every field; for a manifests pack, the generators its manifests reference. */
  generators: GeneratorRecord[];
  /** The detail of every generator in `generators`. */
  details: GeneratorDetail[];
  /** Every field including waste_lines; empty for a generators pack. */
  manifests: ManifestRecord[];
  /**
   * A generators pack's own totals of each generator (its aggregated_data with ids=[it]), which the generator
   * boxes sum; absent from a pack made before they were kept, which then leaves those boxes to the cache.
   */
  totals?: GeneratorOwnTotals[];
}

/** A stored pack as the engine's worker reads it: its rows, and the indexes stored beside them if any. */
export interface StoredPack {
  rows: PackRows;
  indexes?: PackIndexes;
}

/** One generator's own totals, as the server answers them for ids=[epa_handler_id]. */
export type GeneratorOwnTotals = GeneratorTotals & { epa_handler_id: string };

/** The query a pack was made from: one workspace's filters and search. */
export type PackQuery =
  | { list: 'generators'; filterFields: GeneratorFilterFields; searchKey: string }
  | { list: 'manifests'; filterFields: ManifestFilterFields; searchKey: string };

/** The requests the engine answers, by the IPC contract's `group.method` name, with the contract's inputs. */
export type EngineRequestName = TrackerRequestName;
export type EngineRequests = TrackerRequests;

/** What each request answers: the data of the IPC method's `{ok: true, data}` result. */
export interface EngineOutputs {
  'generators.aggregate': GeneratorTotals;
  'generators.list': GeneratorList;
  'generators.lookup': LookupResult;
  'generators.detail': GeneratorDetail;
  'manifests.aggregate': ManifestTotals;
  'manifests.list': ManifestList;
  'manifests.lookup': LookupResult;
}

/**
 * An answer as the IPC methods give one: a bad request is `bad-request` with the server's message, a detail
 * the pack does not hold is `not-found`, a request the pack cannot answer exactly is `offline`.
 */
export type EngineAnswer<Name extends EngineRequestName> = Result<EngineOutputs[Name]>;
export type EngineError = IpcError;

/** One data request as the pipeline holds it. */
export interface EngineRequest<Name extends EngineRequestName = EngineRequestName> {
  name: Name;
  input: EngineRequests[Name];
}

/** The engine as the offline store uses it (../engine-client.ts runs it in a Web Worker). */
export interface OfflineEngine {
  /** True when the pack made from `packQuery` answers this request exactly (see covers.ts). */
  covers(packQuery: PackQuery, request: EngineRequest): boolean;
  /**
   * Builds the engine's in-memory indexes over a complete pack stored in the named database, which the engine
   * reads itself (in its worker, the rows never pass through the page's thread); `packId` names it in later
   * answers.
   */
  openStored(packId: string, database: string): Promise<void>;
  /**
   * Builds every index of a pack whose parts are all stored (a download about to complete) and stores them
   * beside its rows in the named database, so that opening it builds nothing; in the engine's worker. The
   * pack stays open: the user who made it works inside it next, and a network that hangs then finds it ready
   * instead of reading it back from storage.
   */
  indexStored(packId: string, database: string): Promise<void>;
  /** The answer the server would give to this request, over the opened pack's rows; rejects on an error. */
  answer<Name extends EngineRequestName>(
    packId: string,
    request: EngineRequest<Name>,
  ): Promise<EngineOutputs[Name]>;
  /** Forgets an opened pack and frees its memory. */
  close(packId: string): void;
}
