/**
 * The pack downloads under way in this window: start ("Make available offline"), pause, resume, cancel,
 * refresh and delete, with each download's live progress (part, rows done of total, rate, time left) for
 * the progress bars. The stored state (./database.ts) is the truth; this only follows the running ones.
 */
import { create } from 'zustand';
import { isQuotaError, type PackPart } from './database.ts';
import type { PackQuery } from './engine-seam.ts';
import { STOPPED, createPack, runDownload, type DownloadEnd, type PartState } from './pack-download.ts';
import { deletePack, describeQuery, refreshOf } from './packs.ts';
import {
  activeDatabase,
  activePageCache,
  closePack,
  packsChanged,
  reportStorageFull,
} from './offline-store.ts';

export interface LiveDownload {
  part: PackPart;
  done: number;
  total: number | undefined;
  /** Rows per second over this run of the current part; undefined until there is something to divide. */
  rate: number | undefined;
  running: boolean;
  /** Why the last run stopped short, in words. */
  stopped?: string;
}

export const useDownloads = create<{ live: Record<string, LiveDownload> }>()(() => ({ live: {} }));

const running = new Map<string, { controller: AbortController; done: Promise<DownloadEnd> }>();

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

/** Downloads what the pack still lacks; a second call while it runs changes nothing. */
export function startDownload(packId: string): Promise<DownloadEnd> {
  const already = running.get(packId);
  if (already) return already.done;
  const db = database();
  const controller = new AbortController();
  let part: { part: PackPart; startedAt: number; startDone: number } | undefined;
  const onProgress = (state: PartState) => {
    const now = performance.now();
    if (part?.part !== state.part) part = { part: state.part, startedAt: now, startDone: state.done };
    const seconds = (now - part.startedAt) / 1000;
    const rate =
      seconds > 0.5 && state.done > part.startDone ? (state.done - part.startDone) / seconds : undefined;
    setLive(packId, { part: state.part, done: state.done, total: state.total, rate, running: true });
  };
  setLive(packId, { part: 'rows', done: 0, total: undefined, rate: undefined, running: true });
  packsChanged();
  let replaces: string | undefined;
  const run = db.packs.get(packId).then((pack) => {
    replaces = pack?.replaces;
    return runDownload(db, packId, controller.signal, onProgress);
  });
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
    packsChanged();
    return end;
  });
  running.set(packId, { controller, done });
  return done;
}

/** Creates a pack of this query and starts downloading it; resolves with its id once it is recorded. */
export async function makeAvailableOffline(query: PackQuery): Promise<string> {
  let pack;
  try {
    pack = await createPack(database(), query, describeQuery(query));
  } catch (error) {
    if (!isQuotaError(error)) throw error;
    reportStorageFull();
    throw new Error(STOPPED.storageFull, { cause: error });
  }
  void startDownload(pack.id);
  return pack.id;
}

/** Stops a download; what is stored stays, and resume carries on from there. */
export async function pauseDownload(packId: string): Promise<void> {
  const run = running.get(packId);
  if (!run) return;
  run.controller.abort();
  await run.done;
}

/** Stops a download and removes what it stored. */
export async function cancelDownload(packId: string): Promise<void> {
  await pauseDownload(packId);
  await deletePack(database(), packId);
  setLive(packId, undefined);
  packsChanged();
}

/** Downloads a new copy of a complete pack; the old copy answers until the new one is complete. */
export async function refreshPack(packId: string): Promise<void> {
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
  void startDownload(fresh.id);
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

/** Stops every download in this window (signing out, another user). */
export async function stopAllDownloads(): Promise<void> {
  await Promise.all([...running.keys()].map((packId) => pauseDownload(packId)));
  useDownloads.setState({ live: {} });
}
