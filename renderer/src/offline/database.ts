/**
 * The renderer's IndexedDB database (Dexie), one per server and user: its name is derived from both, so
 * one user's saved answers and packs are never read while another user of the same profile is signed in.
 *
 * Tables hold only the indexes something reads: answers by key and by last use (least-recently-used
 * eviction); packs by id and by status (the downloads to resume by themselves); pack rows in chunks of a
 * page each under [packId+part+page] (one record per row writes ~6k rows/s, ../shared/BASELINES.md; a page
 * of hundreds of rows per record is far past that), so a pack's rows are read by key range and a page
 * stored twice is the same record; download progress by pack; the query engine's indexes of a pack by pack
 * (one record each, read whole when the pack opens).
 *
 * Schema versions are never edited once released: a change adds `.version(n + 1).stores(...)` with an
 * `.upgrade()` that carries the old records over.
 */
import { Dexie, type EntityTable, type Table } from 'dexie';
import type { GeneratorOwnTotals, PackList, PackQuery } from './engine-seam.ts';
import type { IndexPart } from './index-parts.ts';

/** A network answer kept under its canonical request key. */
export interface AnswerRecord {
  key: string;
  data: unknown;
  fetchedAt: number;
  /** When a view last read it; the oldest go first when the cache is over its cap. */
  lastUsed: number;
  /** Approximate bytes (JSON length), summed for the cap. */
  size: number;
}

/**
 * `downloading`: a download runs, or ran when the app closed. `interrupted`: it stopped for a reason that
 * passes by itself (the connection was lost, the user signed out); both resume by themselves. `paused`: the
 * user paused it, or it stopped for a reason only the user can fix (storage full, the server refused); it
 * waits for Resume.
 */
export type PackStatus = 'downloading' | 'interrupted' | 'paused' | 'complete';

/** What a pack's refresh brought against the copy it replaced (pack-changes.ts counts it). */
export interface PackChanges {
  /** When the copy the refresh replaced had been synced. */
  since: number;
  added: number;
  changed: number;
  /** Keys of the new and the changed rows the grid has not shown yet. */
  unseenAdded: string[];
  unseenChanged: string[];
}

export interface PackRecord {
  id: string;
  list: PackList;
  query: PackQuery;
  /** The query in words, for the Offline data screen. */
  title: string;
  status: PackStatus;
  /** Why a download stopped, in words: "The connection was lost", "Storage is full". */
  stopped?: string;
  createdAt: number;
  /** When the last complete copy finished downloading. */
  refreshedAt?: number;
  /** Rows of the pack's list (manifests or generators) the server said match. */
  total: number;
  /** Rows of the list stored so far. */
  rowsDone: number;
  generatorCount: number;
  /** Approximate bytes of every stored chunk, and of its stored indexes. */
  size: number;
  /** Approximate bytes of its stored indexes (counted in `size`); absent while it has none. */
  indexSize?: number;
  /** A refresh: the complete pack this download replaces when it completes. */
  replaces?: string;
  /** What its last refresh brought against the copy it replaced (pack-changes.ts); absent before one. */
  changes?: PackChanges;
}

/** The parts of a pack, downloaded in this order. */
export type PackPart = 'rows' | 'generators' | 'details';

export interface ChunkRecord {
  packId: string;
  part: PackPart;
  /** Page number in the part's fixed order: storing a page again replaces it. */
  page: number;
  rows: unknown[];
  /** A generators pack's details chunk: the own totals of the generators it holds (the generator boxes). */
  totals?: GeneratorOwnTotals[];
  size: number;
}

export interface PartProgress {
  /** Pages the part has, once its first page has told; undefined before. */
  pages?: number;
  /** Rows the part holds when complete, as its first page told. */
  total?: number;
  /** Page numbers stored so far. */
  stored: number[];
  /** Rows in the stored pages. */
  rows: number;
}

export interface ProgressRecord {
  packId: string;
  parts: Partial<Record<PackPart, PartProgress>>;
}

/**
 * The query engine's indexes of one complete pack (engine/pack-indexes.ts), built once in the engine's worker
 * when its download completes, or when a pack stored without them first opens. Their positions refer to the
 * pack's rows in the order stored-pack.ts reads them; the engine checks they still do before answering.
 */
export interface PackIndexRecord {
  packId: string;
  /**
   * The indexes (PackIndexes) whole, as version 3 stored them and small packs' still are, or their shell with
   * their long strings and typed arrays in `packIndexParts` (index-parts.ts): read them with stored-pack.ts.
   */
  indexes: unknown;
  /** How many parts in `packIndexParts` hold the rest; absent when none do. */
  parts?: number;
}

/** One slice of a pack's long index values (index-parts.ts), under the pack's id and its place. */
export interface PackIndexPartRecord {
  packId: string;
  part: number;
  value: IndexPart;
}

export interface MetaRecord {
  name: 'answersSize';
  value: number;
}

export type OfflineDatabase = Dexie & {
  answers: EntityTable<AnswerRecord, 'key'>;
  packs: EntityTable<PackRecord, 'id'>;
  chunks: Table<ChunkRecord, [string, PackPart, number]>;
  progress: EntityTable<ProgressRecord, 'packId'>;
  packIndexes: EntityTable<PackIndexRecord, 'packId'>;
  packIndexParts: Table<PackIndexPartRecord, [string, number]>;
  meta: EntityTable<MetaRecord, 'name'>;
};

/** Database names start so; the rest names the server and user. */
export const DATABASE_PREFIX = 'waste-tracker';

/** The database name for this server and user; the server's address is normalised to its URL form. */
export function databaseName(baseUrl: string, username: string): string {
  let server = baseUrl.trim();
  try {
    server = new URL(server).href;
  } catch {
    // An address that does not parse still names one server; keep it as typed.
  }
  return `${DATABASE_PREFIX} ${encodeURIComponent(server)} ${encodeURIComponent(username)}`;
}

/** What a download stopped by a lost connection said in version 1, when it waited for Resume. */
export const V1_CONNECTION_LOST = 'The connection was lost; resume when the server answers again.';
/** What it says since version 2, where such a download resumes by itself. */
export const CONNECTION_LOST = 'The connection was lost; the download resumes when the server answers again.';

/** The statuses of the downloads that resume by themselves, read through the packs' status index. */
export const RESUMING_STATUSES: readonly PackStatus[] = ['downloading', 'interrupted'];

export function openOfflineDatabase(name: string): OfflineDatabase {
  // Relaxed durability: a pack's pages are written idempotently and resumed after a crash, so the fsync
  // a strict commit waits for buys nothing here.
  const db = new Dexie(name, { chromeTransactionDurability: 'relaxed' }) as OfflineDatabase;
  db.version(1).stores({
    answers: 'key, lastUsed',
    packs: 'id',
    chunks: '[packId+part+page]',
    progress: 'packId',
    meta: 'name',
  });
  // Version 2: downloads resume by themselves, found by status; generator details come 200 to a chunk
  // (one IPC reply each) where version 1 stored 50.
  db.version(2)
    .stores({ packs: 'id, status' })
    .upgrade(async (tx) => {
      const packs = tx.table<PackRecord, string>('packs');
      const chunks = tx.table<ChunkRecord, [string, PackPart, number]>('chunks');
      const progress = tx.table<ProgressRecord, string>('progress');
      // A download the lost connection stopped waited for Resume; now it resumes when the server answers.
      await packs
        .filter((pack) => pack.status === 'paused' && pack.stopped === V1_CONNECTION_LOST)
        .modify({ status: 'interrupted', stopped: CONNECTION_LOST });
      // An unfinished pack's detail pages were numbered in batches of 50: page n of 200 would be taken
      // for stored when it is not. They are dropped and downloaded again; its rows stay.
      for (const pack of await packs.filter((record) => record.status !== 'complete').toArray()) {
        const details = chunks
          .where('[packId+part+page]')
          .between([pack.id, 'details'], [pack.id, 'details', []]);
        let dropped = 0;
        await details.each((chunk) => {
          dropped += chunk.size;
        });
        await details.delete();
        await packs.update(pack.id, { size: pack.size - dropped });
        const kept = await progress.get(pack.id);
        if (kept?.parts.details) {
          delete kept.parts.details;
          await progress.put(kept);
        }
      }
    });
  // Version 3: the engine's indexes of each pack, stored beside its rows (PackIndexRecord). A table is
  // added and no record changes: a pack stored before has no indexes, and the first time it opens the engine
  // builds them as it always did, then stores them (engine-host.ts).
  db.version(3).stores({ packIndexes: 'packId' });
  // Version 4: the long strings and typed arrays of a pack's indexes in records of their own
  // (PackIndexPartRecord): Chromium stores no value over 127 MiB, and a pack of a million manifests has
  // 223 MiB of indexes. No record changes: indexes stored whole still read as they are.
  db.version(4).stores({ packIndexParts: '[packId+part]' });
  return db;
}

/** Every stored part of one pack's indexes, in order. */
export function packIndexParts(db: OfflineDatabase, packId: string) {
  return db.packIndexParts
    .where('[packId+part]')
    .between([packId, -Infinity], [packId, Infinity], true, true);
}

/**
 * Every chunk of one pack (one part of it when given), by key range. A shorter array sorts before every
 * longer one it begins, and an array after every string and number, so [id] … [id, []] spans exactly the
 * pack's keys.
 */
export function packChunks(db: OfflineDatabase, packId: string, part?: PackPart) {
  const low = part ? [packId, part] : [packId];
  const high = part ? [packId, part, []] : [packId, []];
  return db.chunks.where('[packId+part+page]').between(low, high, true, true);
}

/**
 * True for a write refused because the origin's storage is full. Dexie reports it as its own
 * QuotaExceededError, or as an AbortError whose `inner` is the browser's QuotaExceededError.
 */
export function isQuotaError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    if (typeof current !== 'object') return false;
    const { name, inner } = current as { name?: unknown; inner?: unknown };
    if (name === 'QuotaExceededError') return true;
    current = inner;
  }
  return false;
}
