/**
 * Downloads an offline pack through the data pipeline, page by page, in three parts: the rows of the pack's
 * list, the generators they reference (a manifests pack), and those generators' details (the generator
 * filters by shipped year, waste code, handling code and status need them), with, for a generators pack,
 * each generator's own totals (the generator boxes sum them offline). Details come in batches of 200 per
 * IPC reply, which main fetches a few at a time (main/src/ipc/generator-details.ts).
 *
 * Resumable with nothing missing and nothing twice: each part is a fixed sequence of pages (list pages
 * sorted by the public unique key, so paging is stable; generator and detail batches of sorted ids), and
 * a page is stored with its progress entry in one transaction under its page number, so a page stored
 * again replaces itself and an interrupted write leaves no trace. A full disk stops the download with what
 * is stored kept and the pack resumable. What each page asks the pipeline for is in pack-pages.ts.
 */
import { LIMITS, type GeneratorRecord } from '../../../shared/api/index.ts';
import type { ManifestRecord } from '../../../shared/api/manifests.ts';
import { GENERATOR_DETAILS_MAX } from '../../../shared/ipc/contract.ts';
import {
  isQuotaError,
  packChunks,
  type OfflineDatabase,
  type PackPart,
  type PackRecord,
  type PartProgress,
} from './database.ts';
import { offlineEngine, type PackQuery } from './engine-seam.ts';
import { heldByEngine } from './offline-store.ts';
import { packChanges } from './pack-changes.ts';
import {
  DownloadStop,
  STOPPED,
  batches,
  detailBatch,
  generatorBatch,
  listPage,
  type Page,
} from './pack-pages.ts';
import { deletePack } from './packs.ts';

/** EPA ids per generators request (the ids filter takes up to 1,000 values). */
export const GENERATOR_BATCH = 200;
/** Generator details per stored chunk and per IPC reply. */
export const DETAIL_BATCH = GENERATOR_DETAILS_MAX;
/** Pages in flight at once: enough to hide a round trip, few enough to leave the server to others. */
const PARALLEL = 3;

/** What a download is doing: storing one of the pack's parts, or, last, indexing the stored pack. */
export type DownloadStage = PackPart | 'indexes';

export interface PartState {
  part: DownloadStage;
  /** Rows (or generators) stored in this part so far. */
  done: number;
  /** What the part will hold when complete; undefined until its first page has told. */
  total: number | undefined;
}

/**
 * Why a download ended short of complete: `paused` when its caller stopped it; `stopped` with `passes` when
 * the reason passes by itself (a lost connection) and the download resumes when it has.
 */
export type DownloadEnd =
  | { outcome: 'complete' }
  | { outcome: 'paused' }
  | { outcome: 'stopped'; reason: string; storageFull: boolean; passes: boolean };

/**
 * The abort reason of a caller that stops a download for a while without the user asking (signing out,
 * another user signing in): the pack is left `interrupted` and resumes by itself, not `paused`.
 */
export const SET_ASIDE = 'set-aside';

/** Creates the record of a new pack (or of the refresh of `replaces`); nothing is downloaded yet. */
export async function createPack(
  db: OfflineDatabase,
  query: PackQuery,
  title: string,
  replaces?: string,
): Promise<PackRecord> {
  const pack: PackRecord = {
    id: crypto.randomUUID(),
    list: query.list,
    query,
    title,
    status: 'downloading',
    createdAt: Date.now(),
    total: 0,
    rowsDone: 0,
    generatorCount: 0,
    size: 0,
    ...(replaces ? { replaces } : {}),
  };
  await db.transaction('rw', db.packs, db.progress, async () => {
    await db.packs.add(pack);
    await db.progress.add({ packId: pack.id, parts: {} });
  });
  return pack;
}

interface PartPlan {
  part: PackPart;
  pages: number | undefined;
  /** Pages per batch of rows the part counts in (for progress). */
  rowsPerPage: number;
  total: number | undefined;
  fetch: (page: number, signal: AbortSignal) => Promise<Page>;
}

/** Unique ids, sorted, read from one part's stored rows. */
async function storedIds(
  db: OfflineDatabase,
  packId: string,
  part: PackPart,
  idOf: (row: unknown) => string | undefined,
): Promise<string[]> {
  const ids = new Set<string>();
  await packChunks(db, packId, part).each((chunk) => {
    for (const row of chunk.rows) {
      const id = idOf(row);
      if (id) ids.add(id);
    }
  });
  return [...ids].sort();
}

/** Stores one page with its progress entry and the pack's counters, all or nothing. */
async function storePage(
  db: OfflineDatabase,
  packId: string,
  part: PackPart,
  page: number,
  fetched: Page,
  plan: { pages: number; total: number },
): Promise<void> {
  const { rows, totals } = fetched;
  const size = JSON.stringify(rows).length + (totals ? JSON.stringify(totals).length : 0);
  await db.transaction('rw', db.chunks, db.progress, db.packs, async () => {
    const pack = await db.packs.get(packId);
    if (!pack) throw new DownloadStop('The pack was deleted while it downloaded.');
    const key: [string, PackPart, number] = [packId, part, page];
    const before = await db.chunks.get(key);
    await db.chunks.put({ packId, part, page, rows, size, ...(totals ? { totals } : {}) });
    const added = rows.length - (before?.rows.length ?? 0);
    const progress = (await db.progress.get(packId)) ?? { packId, parts: {} };
    const entry: PartProgress = progress.parts[part] ?? { stored: [], rows: 0 };
    if (!entry.stored.includes(page)) entry.stored.push(page);
    entry.rows += added;
    entry.pages = plan.pages;
    entry.total = plan.total;
    progress.parts[part] = entry;
    await db.progress.put(progress);
    await db.packs.update(packId, {
      size: pack.size + size - (before?.size ?? 0),
      ...(part === 'rows' ? { rowsDone: pack.rowsDone + added, total: plan.total } : {}),
      ...(part === 'generators' || (part === 'rows' && pack.list === 'generators')
        ? { generatorCount: pack.generatorCount + added }
        : {}),
    });
  });
}

/** Downloads the pages of one part that are not stored yet, a few at a time. */
async function downloadPart(
  db: OfflineDatabase,
  packId: string,
  plan: PartPlan,
  signal: AbortSignal,
  onProgress: (state: PartState) => void,
): Promise<void> {
  const entry = (await db.progress.get(packId))?.parts[plan.part] ?? { stored: [], rows: 0 };
  const stored = new Set(entry.stored);
  let pages = plan.pages ?? entry.pages;
  let total = plan.total ?? entry.total;
  let done = entry.rows;
  const report = () => onProgress({ part: plan.part, done, total });
  const store = async (page: number, fetched: Page) => {
    try {
      await storePage(db, packId, plan.part, page, fetched, { pages: pages ?? 0, total: total ?? 0 });
    } catch (error) {
      if (isQuotaError(error)) throw new DownloadStop(STOPPED.storageFull, { storageFull: true });
      throw error;
    }
    stored.add(page);
    done += fetched.rows.length;
    report();
  };
  if (pages === undefined || total === undefined) {
    // The first page tells how many there are.
    const first = await plan.fetch(0, signal);
    total = first.total;
    pages = Math.ceil(first.total / plan.rowsPerPage);
    if (pages > 0) await store(0, first);
  }
  const missing = Array.from({ length: pages }, (_, page) => page).filter((page) => !stored.has(page));
  // A part stored whole says nothing: its count would flash by before the part the download is in.
  if (missing.length === 0) return;
  report();
  let next = 0;
  const worker = async () => {
    while (next < missing.length) {
      signal.throwIfAborted();
      const page = missing[next]!;
      next += 1;
      await store(page, await plan.fetch(page, signal));
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, missing.length) }, worker));
}

/**
 * Where a download of the pack stands, read from its stored progress alone (one record, no rows): the first
 * part not stored whole and its count so far, or the indexing once every part is. Its progress line starts
 * there, not at the rows' first page.
 */
export async function resumePoint(db: OfflineDatabase, packId: string): Promise<PartState> {
  const [pack, progress] = await Promise.all([db.packs.get(packId), db.progress.get(packId)]);
  const parts: PackPart[] =
    pack?.list === 'manifests' ? ['rows', 'generators', 'details'] : ['rows', 'details'];
  let before: PartProgress | undefined;
  for (const part of parts) {
    const entry = progress?.parts[part];
    if (entry?.pages === undefined || entry.stored.length < entry.pages) {
      // The profiles are those of the generators stored whole before them, each once (pages of distinct
      // keys); the generators a manifests pack names are known only by reading its rows.
      const total = entry?.total ?? (part === 'details' ? before?.rows : undefined);
      return { part, done: entry?.rows ?? 0, total };
    }
    before = entry;
  }
  return { part: 'indexes', done: 0, total: undefined };
}

/**
 * Downloads what the pack still lacks and marks it complete (a refresh then replaces the pack it renews).
 * Ends early when `signal` aborts (paused), when the network is lost, or when storage is full.
 */
export async function runDownload(
  db: OfflineDatabase,
  packId: string,
  signal: AbortSignal,
  onProgress: (state: PartState) => void = () => undefined,
): Promise<DownloadEnd> {
  const pack = await db.packs.get(packId);
  if (!pack)
    return {
      outcome: 'stopped',
      reason: 'This pack no longer exists.',
      storageFull: false,
      passes: false,
    };
  if (pack.status === 'complete') return { outcome: 'complete' };
  await db.packs.update(packId, { status: 'downloading', stopped: undefined });
  try {
    await downloadPart(
      db,
      packId,
      {
        part: 'rows',
        pages: undefined,
        rowsPerPage: LIMITS.pageSizeMax,
        total: undefined,
        fetch: (page, pageSignal) => listPage(pack.query, page, pageSignal),
      },
      signal,
      onProgress,
    );
    const generatorPart: PackPart = pack.list === 'manifests' ? 'generators' : 'rows';
    if (pack.list === 'manifests') {
      const ids = await storedIds(db, packId, 'rows', (row) => (row as ManifestRecord).generator_epa_id);
      const groups = batches(ids, GENERATOR_BATCH);
      await downloadPart(
        db,
        packId,
        {
          part: 'generators',
          pages: groups.length,
          rowsPerPage: GENERATOR_BATCH,
          total: ids.length,
          fetch: (page, pageSignal) => generatorBatch(groups[page]!, pageSignal),
        },
        signal,
        onProgress,
      );
    }
    const generatorIds = await storedIds(
      db,
      packId,
      generatorPart,
      (row) => (row as GeneratorRecord).epa_handler_id,
    );
    const detailGroups = batches(generatorIds, DETAIL_BATCH);
    await downloadPart(
      db,
      packId,
      {
        part: 'details',
        pages: detailGroups.length,
        rowsPerPage: DETAIL_BATCH,
        total: generatorIds.length,
        fetch: (page, pageSignal) => detailBatch(detailGroups[page]!, pack.list === 'generators', pageSignal),
      },
      signal,
      onProgress,
    );
    // The engine's indexes, built in its worker and stored beside the rows, so that opening the pack builds
    // nothing. A pack without them still answers exactly (its first open builds and stores them), so their
    // failing (storage full) does not keep a pack whose every row is stored from completing.
    onProgress({ part: 'indexes', done: 0, total: undefined });
    // Indexing and completing need no server, so a lost connection does not stop them; its caller does
    // (paused, or its user signed out or another signed in): the worker then lets go of the pack rather
    // than hold one user's rows for whoever is signed in now, and nothing completes. Resuming finds every
    // part stored and indexes it again.
    const stoppedByCaller = () => signal.aborted && !(signal.reason instanceof DownloadStop);
    const engine = offlineEngine();
    await engine
      ?.indexStored(packId, db.name)
      .then(() => {
        if (stoppedByCaller()) engine.close(packId);
        else heldByEngine(packId);
      })
      .catch((error: unknown) => {
        console.warn(
          `The offline pack “${pack.title}” was stored without its indexes; its first open builds them.`,
          error,
        );
      });
    if (stoppedByCaller()) signal.throwIfAborted();
    await completePack(db, packId);
    return { outcome: 'complete' };
  } catch (error) {
    if (signal.aborted && !(signal.reason instanceof DownloadStop)) {
      const status = signal.reason === SET_ASIDE ? 'interrupted' : 'paused';
      await db.packs.update(packId, { status }).catch(() => undefined);
      return { outcome: 'paused' };
    }
    const stop =
      signal.reason instanceof DownloadStop
        ? signal.reason
        : error instanceof DownloadStop
          ? error
          : isQuotaError(error)
            ? new DownloadStop(STOPPED.storageFull, { storageFull: true })
            : new DownloadStop(STOPPED.failed(error instanceof Error ? error.message : String(error)));
    const status = stop.passes ? 'interrupted' : 'paused';
    // Writing the reason may itself be refused on a full disk; the pack then shows as interrupted.
    await db.packs.update(packId, { status, stopped: stop.reason }).catch(() => undefined);
    return { outcome: 'stopped', reason: stop.reason, storageFull: stop.storageFull, passes: stop.passes };
  }
}

/**
 * Marks a pack complete; a refresh takes the place of the pack it renews in the same transaction, noting
 * what it brought against it (pack-changes.ts), read before the old copy goes. It keeps the old copy's
 * creation time, which orders the Offline data screen's list: a refreshed pack stays where the user left it.
 */
async function completePack(db: OfflineDatabase, packId: string): Promise<void> {
  const pack = await db.packs.get(packId);
  const previous = pack?.replaces ? await db.packs.get(pack.replaces) : undefined;
  const changes = pack && previous ? await packChanges(db, previous, pack) : undefined;
  await db.transaction(
    'rw',
    [db.packs, db.chunks, db.progress, db.packIndexes, db.packIndexParts],
    async () => {
      const replaced = (await db.packs.get(packId))?.replaces;
      if (replaced) await deletePack(db, replaced);
      await db.packs.update(packId, {
        status: 'complete',
        refreshedAt: Date.now(),
        replaces: undefined,
        ...(previous ? { createdAt: previous.createdAt } : {}),
        ...(changes ? { changes } : {}),
      });
    },
  );
}
