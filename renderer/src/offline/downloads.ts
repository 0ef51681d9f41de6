/**
 * The pack downloads under way in this window: start ("Make available offline"), pause, resume, cancel,
 * refresh and delete, with each download's live progress (part, rows done of total, rate, time left) for
 * the progress bars. The stored state (./database.ts) is the truth; this only follows the running ones.
 *
 * A download the app did not finish resumes by itself: when the app starts signed in to the same server and
 * user (it was `downloading` when the app closed, or `interrupted`), when the network comes back, and, while
 * the server does not answer, by trying again now and then. A pack the user paused stays paused.
 */
import { create } from 'zustand';
import { doneOf, notePace, perSecond, startPace, type Pace, type Progress } from '../../../shared/pace.ts';
import { networkSkipped, serverOutOfReach, useConnectivity } from '../data/connectivity.ts';
import { RESUMING_STATUSES, isQuotaError, type OfflineDatabase, type PackRecord } from './database.ts';
import { covers } from './engine/covers.ts';
import type { PackQuery } from './engine-seam.ts';
import { DownloadStop, STOPPED } from './pack-pages.ts';
import {
  SET_ASIDE,
  createPack,
  resumePoint,
  runDownload,
  type DownloadEnd,
  type DownloadStage,
  type PartState,
} from './pack-download.ts';
import { deletePack, describeQuery, listPacks, refreshOf } from './packs.ts';
import {
  activeDatabase,
  activePageCache,
  closePack,
  packsChanged,
  reportStorageFull,
} from './offline-store.ts';

export interface LiveDownload {
  part: DownloadStage;
  done: number;
  total: number | undefined;
  /**
   * Rows per second of the current part over the last half minute of this run (shared/pace.ts); undefined
   * until there is something to divide.
   */
  rate: number | undefined;
  running: boolean;
  /** Why the last run stopped short, in words. */
  stopped?: string;
}

export const useDownloads = create<{ live: Record<string, LiveDownload> }>()(() => ({ live: {} }));

const running = new Map<string, { controller: AbortController; done: Promise<DownloadEnd> }>();

/**
 * While the server does not answer, a stopped download tries again after 2 s, then twice as long each time
 * up to 30 s: soon enough that a server back from a restart is noticed at once, rarely enough to cost
 * nothing while the network is gone for the day.
 */
const RETRY_FIRST_MS = 2_000;
const RETRY_MAX_MS = 30_000;
const retries = new Map<string, { timer: ReturnType<typeof setTimeout>; delay: number }>();

function cancelRetry(packId: string): void {
  const retry = retries.get(packId);
  if (retry) clearTimeout(retry.timer);
  retries.delete(packId);
}

/** Tries the download again later, each time a little later while it keeps failing. */
function retryLater(packId: string, previousDelay: number | undefined): void {
  cancelRetry(packId);
  const delay = previousDelay === undefined ? RETRY_FIRST_MS : Math.min(previousDelay * 2, RETRY_MAX_MS);
  const timer = setTimeout(() => {
    // Offline: the connectivity's return resumes it (resumeInterrupted).
    if (networkSkipped() || serverOutOfReach()) return;
    retries.set(packId, { timer, delay });
    void startDownload(packId, { retrying: true });
  }, delay);
  retries.set(packId, { timer, delay });
}

function setLive(packId: string, live: LiveDownload | undefined): void {
  useDownloads.setState((state) => {
    const next = { ...state.live };
    if (live) next[packId] = live;
    else delete next[packId];
    return { live: next };
  });
}

function database() {
  const db = activeDatabase();
  if (!db) throw new Error('Sign in first: offline data belongs to a signed-in user.');
  return db;
}

/** Seconds until the part completes at its current rate. */
export function secondsLeft(live: LiveDownload): number | undefined {
  if (!live.rate || live.total === undefined) return undefined;
  return Math.max(0, (live.total - live.done) / live.rate);
}

/** Where a pack just created starts: nothing is stored, and its first page tells how many rows there are. */
const FIRST_PAGE: PartState = { part: 'rows', done: 0, total: undefined };

/**
 * Downloads what the pack still lacks; a second call while it runs changes nothing. `retrying`: an attempt
 * of its own after a lost connection, which keeps the reason on screen until it gets somewhere. `created`:
 * the pack was just created, so its progress is known without reading it.
 */
export function startDownload(
  packId: string,
  { retrying = false, created = false } = {},
): Promise<DownloadEnd> {
  const already = running.get(packId);
  if (already) return already.done;
  const db = database();
  const previousDelay = retrying ? retries.get(packId)?.delay : undefined;
  cancelRetry(packId);
  const controller = new AbortController();
  let part: { part: DownloadStage; startDone: number; pace: Pace<Progress> } | undefined;
  let progressed = false;
  const onProgress = (state: PartState) => {
    const sample = { seconds: performance.now() / 1000, done: state.done };
    if (part?.part !== state.part)
      part = { part: state.part, startDone: state.done, pace: startPace(sample) };
    else part.pace = notePace(part.pace, sample);
    if (state.done > part.startDone) progressed = true;
    const rate = state.done > part.startDone ? perSecond(part.pace, doneOf) : undefined;
    setLive(packId, { part: state.part, done: state.done, total: state.total, rate, running: true });
  };
  const last = useDownloads.getState().live[packId];
  const stopped = retrying ? last?.stopped : undefined;
  const starting = { rate: undefined, running: true, ...(stopped ? { stopped } : {}) };
  // Its last progress is where it carries on (it knows a part's total before the part stores a page);
  // without one (the app started since), the line shows the stored count until the stored progress says
  // which part it resumes.
  const from = created ? FIRST_PAGE : last;
  if (from) setLive(packId, { part: from.part, done: from.done, total: from.total, ...starting });
  packsChanged();
  let replaces: string | undefined;
  const run = Promise.all([db.packs.get(packId), from ? undefined : resumePoint(db, packId)]).then(
    ([pack, point]) => {
      replaces = pack?.replaces;
      if (point && !controller.signal.aborted) setLive(packId, { ...point, ...starting });
      return runDownload(db, packId, controller.signal, onProgress);
    },
  );
  const done = run.then((end) => {
    running.delete(packId);
    const last = useDownloads.getState().live[packId];
    if (end.outcome === 'complete') {
      setLive(packId, undefined);
      // A refresh has just replaced this pack: the engine's copy of the old one is gone with it.
      if (replaces) closePack(replaces);
    } else if (last) {
      setLive(packId, {
        ...last,
        running: false,
        ...(end.outcome === 'stopped' ? { stopped: end.reason } : {}),
      });
    }
    if (end.outcome === 'stopped' && end.storageFull) reportStorageFull();
    // Stopped by a lost connection: try again by itself, later each time it fails again.
    if (end.outcome === 'stopped' && end.passes && activeDatabase() === db) {
      retryLater(packId, progressed ? undefined : previousDelay);
    }
    packsChanged();
    return end;
  });
  running.set(packId, { controller, done });
  return done;
}

/** What "Make available offline" did: the pack that takes the rows along, and whether it was there already. */
export interface MadeAvailable {
  packId: string;
  /** A pack already held (or was downloading) every row of the query: no second copy was made. */
  covered?: PackRecord;
}

/** The pack that already holds every row of `query` (complete ones first), if one does. */
async function packCovering(db: OfflineDatabase, query: PackQuery): Promise<PackRecord | undefined> {
  const pageInfo = { page: 0, pageSize: 1 };
  const holds = (pack: PackRecord) =>
    query.list === 'generators'
      ? covers(pack.query, 'generators.list', { ...query, pageInfo })
      : covers(pack.query, 'manifests.list', { ...query, pageInfo });
  const covering = (await listPacks(db)).filter(holds);
  return covering.find((pack) => pack.status === 'complete') ?? covering[0];
}

/** The pack of the signed-in user that already holds every row of `query`, if one does. */
export function packHolding(query: PackQuery): Promise<PackRecord | undefined> {
  return packCovering(database(), query);
}

/**
 * Creates a pack of this query and starts downloading it; resolves with its id once it is recorded. A query
 * a pack already covers makes no second copy: that pack is named instead (and resumed, if it stopped).
 */
export async function makeAvailableOffline(query: PackQuery): Promise<MadeAvailable> {
  const db = database();
  const covered = await packCovering(db, query);
  if (covered) {
    if (covered.status !== 'complete' && covered.status !== 'paused') void startDownload(covered.id);
    return { packId: covered.id, covered };
  }
  let pack;
  try {
    pack = await createPack(db, query, describeQuery(query));
  } catch (error) {
    if (!isQuotaError(error)) throw error;
    reportStorageFull();
    throw new Error(STOPPED.storageFull, { cause: error });
  }
  void startDownload(pack.id, { created: true });
  return { packId: pack.id };
}

/** The user stops a download; what is stored stays, and Resume carries on from there. */
export async function pauseDownload(packId: string): Promise<void> {
  cancelRetry(packId);
  const run = running.get(packId);
  if (!run) {
    // A download waiting to try again is stopped too: it stays paused until the user resumes it.
    const db = activeDatabase();
    const pack = await db?.packs.get(packId);
    if (db && pack && RESUMING_STATUSES.includes(pack.status)) {
      await db.packs.update(packId, { status: 'paused' });
      const last = useDownloads.getState().live[packId];
      if (last) setLive(packId, { ...last, running: false });
      packsChanged();
    }
    return;
  }
  run.controller.abort();
  await run.done;
}

/**
 * Resumes every download of the signed-in user that stopped without the user asking: cut short by closing
 * the app, by signing out, or by a lost connection. Called when the user's saved data opens and when the
 * network comes back; a download already running, or one the user paused, is left as it is.
 */
export async function resumeInterrupted(): Promise<void> {
  const db = activeDatabase();
  if (!db || networkSkipped() || serverOutOfReach()) return;
  const packs = await db.packs
    .where('status')
    .anyOf(RESUMING_STATUSES)
    .toArray()
    .catch((error: unknown) => {
      // Signed out (or another user in) meanwhile: that database closed, and its downloads wait for it.
      if (activeDatabase() !== db) return [];
      throw error;
    });
  if (activeDatabase() !== db) return;
  for (const pack of packs) {
    if (!running.has(pack.id)) void startDownload(pack.id, { retrying: true });
  }
}

/** Stops a download and removes what it stored. */
export async function cancelDownload(packId: string): Promise<void> {
  await pauseDownload(packId);
  await deletePack(database(), packId);
  setLive(packId, undefined);
  packsChanged();
}

/** Why nothing can be downloaded now, if it cannot: the app is offline. */
export function cannotDownload(): string | undefined {
  if (useConnectivity.getState().workOffline)
    return 'You are working offline: switch “Work offline” off to download.';
  if (networkSkipped() || serverOutOfReach()) return 'The server does not answer: connect to download.';
  return undefined;
}

/**
 * Downloads a new copy of a complete pack; the old copy answers until the new one is complete. Offline it
 * refuses, saying why: a refresh is a whole download.
 */
export async function refreshPack(packId: string): Promise<void> {
  const refused = cannotDownload();
  if (refused) throw new Error(refused);
  const db = database();
  const pending = await refreshOf(db, packId);
  if (pending) {
    void startDownload(pending.id);
    return;
  }
  const pack = await db.packs.get(packId);
  if (!pack) return;
  const fresh = await createPack(db, pack.query, pack.title, pack.id);
  closePack(packId);
  void startDownload(fresh.id, { created: true });
}

/** Deletes a pack and any refresh of it under way. */
export async function removePack(packId: string): Promise<void> {
  const db = database();
  const pending = await refreshOf(db, packId);
  if (pending) await cancelDownload(pending.id);
  await pauseDownload(packId);
  await deletePack(db, packId);
  closePack(packId);
  setLive(packId, undefined);
  packsChanged();
}

/** Removes every saved answer of the page cache; packs stay. */
export async function clearPageCache(): Promise<void> {
  await activePageCache()?.clear();
  reportStorageFull(false);
  packsChanged();
}

/** Why the app went offline, as the downloads it stopped say it. */
const WENT_OFFLINE = {
  workOffline: 'Stopped while you work offline; the download resumes when you switch “Work offline” off.',
  browserOffline: 'This computer has no network; the download resumes when it has.',
  serverOutOfReach: STOPPED.connection,
} as const;

/**
 * Stops every running download because the app went offline, each saying why; each resumes by itself when
 * the app is back online.
 */
export async function interruptDownloads(cause: keyof typeof WENT_OFFLINE): Promise<void> {
  const reason = WENT_OFFLINE[cause];
  for (const packId of [...retries.keys()]) cancelRetry(packId);
  await Promise.all(
    [...running.values()].map((run) => {
      run.controller.abort(new DownloadStop(reason, { passes: true }));
      return run.done;
    }),
  );
}

/**
 * Stops every download in this window (signing out, another user): each is left to resume by itself when
 * its user signs in again.
 */
export async function stopAllDownloads(): Promise<void> {
  // Every download followed now is the leaving user's. Whoever signs in next may start their own before
  // these have stopped (a pack being indexed stops only after), so only these entries go.
  const leaving = new Set([
    ...Object.keys(useDownloads.getState().live),
    ...running.keys(),
    ...retries.keys(),
  ]);
  for (const packId of [...retries.keys()]) cancelRetry(packId);
  await Promise.all(
    [...running.values()].map((run) => {
      run.controller.abort(SET_ASIDE);
      return run.done;
    }),
  );
  useDownloads.setState((state) => ({
    live: Object.fromEntries(Object.entries(state.live).filter(([packId]) => !leaving.has(packId))),
  }));
}
