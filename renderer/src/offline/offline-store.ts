/**
 * The signed-in user's saved data: opens the database of this server and user when a user signs in, puts
 * the page cache and the offline packs behind the data pipeline's cache hook, and closes them when the user
 * signs out or another user signs in. Answers offline come from the newer of a pack that covers the request
 * (through the offline engine) and the page cache; a filter box no pack covers lists the values of a pack of
 * its list, marked so; else an error names what is missing, and the packs' slices a request goes beyond.
 */
import Dexie, { liveQuery, type Subscription } from 'dexie';
import { create } from 'zustand';
import type { TrackerRequestName, TrackerRequests } from '../../../shared/query/canonical.ts';
import { NOTHING_SAVED, noCache, type CacheHook, type SavedAnswer } from '../data/cache-hook.ts';
import { setCacheHook } from '../data/pipeline.ts';
import { databaseName, openOfflineDatabase, type OfflineDatabase, type PackRecord } from './database.ts';
import type { EngineOutputs, EngineRequestName } from './engine/contract.ts';
import { offlineEngine, type EngineRequest } from './engine-seam.ts';
import { PageCache, type PageCacheOptions } from './page-cache.ts';

/** A pack the engine is opening, said once its opening has taken OPENING_SAID_AFTER_MS. */
export interface OpeningPack {
  id: string;
  title: string;
  list: PackRecord['list'];
  rows: number;
}

/**
 * How long a pack may take to open before the app says it is opening: a pack of 100,000 manifests opens in
 * about a second, one of a million in about a minute (docs/offline.md), while the answers wait for it.
 */
export const OPENING_SAID_AFTER_MS = 1_000;

type OfflineStoreState = {
  /** The open database's name; null while nobody is signed in. */
  name: string | null;
  /** Packs the engine has been opening for longer than OPENING_SAID_AFTER_MS. */
  opening: readonly OpeningPack[];
  /** A write was refused because the disk or the browser's quota is full. */
  storageFull: boolean;
  /** Bumped whenever packs change, so screens read them again. */
  packsVersion: number;
};

export const useOfflineStore = create<OfflineStoreState>()(() => ({
  name: null,
  opening: [],
  storageFull: false,
  packsVersion: 0,
}));

let current: {
  db: OfflineDatabase;
  cache: PageCache;
  /** The packs as stored, kept current by Dexie's live query: an offline answer reads no pack records. */
  packs: () => PackRecord[] | undefined;
  stop: () => void;
} | null = null;
/** Packs whose rows the engine holds, by id. */
const opened = new Map<string, Promise<void>>();

export function activeDatabase(): OfflineDatabase | null {
  return current?.db ?? null;
}

export function activePageCache(): PageCache | null {
  return current?.cache ?? null;
}

/** Whether a user's database holds anything to work offline with: a pack or a saved page. */
async function holdsAnything(db: OfflineDatabase): Promise<boolean> {
  const [packs, pages] = await Promise.all([db.packs.count(), db.answers.count()]);
  return packs + pages > 0;
}

/** Whether the signed-in (or expired) user's database holds anything to work offline with. */
export function holdsSavedData(): Promise<boolean> {
  return current ? holdsAnything(current.db) : Promise.resolve(false);
}

/**
 * Whether this computer holds saved data of `username` on `baseUrl`, a pack or a saved page: asked before
 * anyone has signed in. Their database is opened only to count, and closed; one with nothing in it (they
 * signed in once and saved nothing) holds nothing to work offline with.
 */
export async function holdsSavedDataOf(baseUrl: string, username: string): Promise<boolean> {
  const name = databaseName(baseUrl, username);
  if (!(await Dexie.exists(name))) return false;
  const db = openOfflineDatabase(name);
  try {
    return await holdsAnything(db);
  } finally {
    db.close();
  }
}

export function packsChanged(): void {
  useOfflineStore.setState((state) => ({ packsVersion: state.packsVersion + 1 }));
}

export function reportStorageFull(full = true): void {
  useOfflineStore.setState({ storageFull: full });
}

function listOf(name: TrackerRequestName): 'generators' | 'manifests' {
  return name.startsWith('generators.') ? 'generators' : 'manifests';
}

/**
 * The engine's answer to a request over a complete pack, opening the pack in the engine first unless it
 * holds it already; rejects with the engine's error. Exports read a pack's pages through this too.
 */
export async function answerFromPack<Name extends EngineRequestName>(
  db: OfflineDatabase,
  pack: PackRecord,
  request: EngineRequest<Name>,
): Promise<EngineOutputs[Name]> {
  const engine = offlineEngine();
  if (!engine) throw new Error('The offline engine is not running.');
  await openInEngine(db, pack);
  return engine.answer(pack.id, request);
}

/** The pack opened in the engine (once: later callers wait for the same open). */
function openInEngine(db: OfflineDatabase, pack: PackRecord): Promise<void> {
  const engine = offlineEngine();
  if (!engine) return Promise.reject(new Error('The offline engine is not running.'));
  let opening = opened.get(pack.id);
  if (!opening) {
    opening = engine.openStored(pack.id, db.name);
    opened.set(pack.id, opening);
    opening.catch(() => opened.delete(pack.id));
    sayWhileOpening(pack, opening);
  }
  return opening;
}

/** Lists the pack among those opening once its opening takes longer than OPENING_SAID_AFTER_MS, until it ends. */
function sayWhileOpening(pack: PackRecord, opening: Promise<void>): void {
  const said = setTimeout(() => {
    const entry = { id: pack.id, title: pack.title, list: pack.list, rows: pack.total };
    useOfflineStore.setState((state) => ({ opening: [...state.opening, entry] }));
  }, OPENING_SAID_AFTER_MS);
  const done = () => {
    clearTimeout(said);
    useOfflineStore.setState((state) => ({ opening: state.opening.filter((one) => one.id !== pack.id) }));
  };
  opening.then(done, done);
}

/** When a pack's rows were saved: its last complete download. */
export function packSavedAt(pack: PackRecord): number {
  return pack.refreshedAt ?? pack.createdAt;
}

/**
 * The answer of the newest complete pack that covers the request and was saved after `newerThan`, the packs
 * that would cover it once complete, and the complete packs of its list that do not cover it (to name them).
 */
async function fromPacks(
  db: OfflineDatabase,
  request: EngineRequest,
  newerThan: number,
): Promise<{ answer?: SavedAnswer; pending: PackRecord[]; beside: PackRecord[] }> {
  const engine = offlineEngine();
  if (!engine) return { pending: [], beside: [] };
  const packs =
    current?.db === db ? (current.packs() ?? (await db.packs.toArray())) : await db.packs.toArray();
  const pending: PackRecord[] = [];
  const beside: PackRecord[] = [];
  const covering: PackRecord[] = [];
  for (const pack of packs) {
    if (!engine.covers(pack.query, request)) {
      if (pack.status === 'complete' && pack.list === listOf(request.name)) beside.push(pack);
    } else if (pack.status !== 'complete') pending.push(pack);
    else if (packSavedAt(pack) > newerThan) covering.push(pack);
  }
  for (const pack of covering.sort((a, b) => packSavedAt(b) - packSavedAt(a))) {
    try {
      const data = await answerFromPack(db, pack, request);
      return { answer: { ok: true, data, fetchedAt: packSavedAt(pack) }, pending, beside };
    } catch {
      // A pack that cannot answer (a detail it does not hold) leaves the request to the next, or the cache.
    }
  }
  return { pending, beside };
}

/** The engine holds this pack already (it indexed it at the end of its download). */
export function heldByEngine(packId: string): void {
  opened.set(packId, Promise.resolve());
}

/** Forgets the engine's copy of a pack (deleted or replaced). */
export function closePack(packId: string): void {
  if (opened.delete(packId)) offlineEngine()?.close(packId);
}

/** The packs' slices in words, for a message: “A”, “B” and 2 more. */
function named(packs: PackRecord[]): string {
  const titles = packs.slice(0, 2).map((pack) => `“${pack.title}”`);
  const more = packs.length - titles.length;
  return more > 0 ? `${titles.join(', ')} and ${more} more` : titles.join(' and ');
}

function missingMessage(request: EngineRequest, pending: PackRecord[], beside: PackRecord[]): string {
  const pack = pending[0];
  if (pack) {
    return `The offline pack “${pack.title}” would answer this once its download completes; resume it in Offline data when connected.`;
  }
  if (beside.length > 0 && !request.name.endsWith('.detail')) {
    const slices = named(beside);
    return `This goes beyond what your offline ${beside.length === 1 ? 'pack holds' : 'packs hold'}: ${slices}. Offline, keep within ${beside.length === 1 ? 'its' : 'one pack’s'} filters and search (adding to them is fine), or connect to load the rest.`;
  }
  return NOTHING_SAVED.replace('its workspace', `the ${listOf(request.name)} workspace`);
}

/**
 * A filter box's lookup that no pack covers (packs made with filters or a search cannot list a whole box),
 * answered from the values of the newest complete pack of its list, and marked as holding only those.
 */
async function fromPackValues(
  db: OfflineDatabase,
  request: EngineRequest,
  packs: PackRecord[],
): Promise<SavedAnswer | undefined> {
  if (!request.name.endsWith('.lookup')) return undefined;
  for (const pack of [...packs].sort((a, b) => packSavedAt(b) - packSavedAt(a))) {
    try {
      const data = await answerFromPack(db, pack, request);
      return { ok: true, data, fetchedAt: packSavedAt(pack), within: pack.title };
    } catch {
      // A pack that cannot list this box (a generator fact without the details) leaves it to the next.
    }
  }
  return undefined;
}

function hookOver(db: OfflineDatabase, cache: PageCache): CacheHook {
  return {
    read: (key) => cache.read(key),
    write: (key, answer) => cache.write(key, answer),
    // A request a complete pack covers opens that pack in the engine while the network answers: opening a
    // pack of 100,000 manifests takes about a second, which a network that hangs should not add to the
    // short wait before the pack answers. Only packs the user is working inside are opened.
    prepare: (name, input) => {
      const engine = offlineEngine();
      if (!engine) return;
      const request = { name, input } as EngineRequest;
      const live = current?.db === db ? current.packs() : undefined;
      void (live ? Promise.resolve(live) : db.packs.toArray())
        .then((packs) => {
          const pack = packs
            .filter((one) => one.status === 'complete' && engine.covers(one.query, request))
            .sort((a, b) => packSavedAt(b) - packSavedAt(a))[0];
          if (pack && !opened.has(pack.id)) return openInEngine(db, pack);
          return undefined;
        })
        .catch(() => undefined);
    },
    // The newest saved answer: a page seen since a pack was saved wins over the pack, and a pack saved since
    // over the page.
    offline: async <Name extends TrackerRequestName>(
      name: Name,
      input: TrackerRequests[Name],
      key: string,
    ): Promise<SavedAnswer> => {
      const request = { name, input } as EngineRequest;
      const kept = await cache.read(key);
      const { answer, pending, beside } = await fromPacks(db, request, kept?.fetchedAt ?? -Infinity);
      if (answer) return answer;
      if (kept) return { ok: true, ...kept };
      const values = await fromPackValues(db, request, beside);
      if (values) return values;
      return { ok: false, missing: missingMessage(request, pending, beside) };
    },
  };
}

export interface OfflineStoreOptions extends PageCacheOptions {
  /**
   * The previous user's downloads stopping: their database closes once they have, so each can still record
   * that it was set aside (and resumes when its user is back). Nothing else reads it meanwhile.
   */
  closeAfter?: Promise<unknown>;
}

/**
 * Opens the saved data of this server and user (or of nobody: `null`), and asks the browser to keep it
 * (persistent storage: it is not cleared under storage pressure without asking the user).
 */
export function activateOfflineStore(
  who: { baseUrl: string; username: string } | null,
  { closeAfter, ...options }: OfflineStoreOptions = {},
): void {
  const name = who ? databaseName(who.baseUrl, who.username) : null;
  if (name === useOfflineStore.getState().name) return;
  for (const packId of [...opened.keys()]) closePack(packId);
  current?.stop();
  const previous = current?.db;
  if (previous && closeAfter) {
    const close = () => previous.close();
    void closeAfter.then(close, close);
  } else previous?.close();
  current = null;
  setCacheHook(noCache);
  useOfflineStore.setState({ name, storageFull: false, opening: [] });
  packsChanged();
  if (!name) return;
  const db = openOfflineDatabase(name);
  const cache = new PageCache(db, { onStorageFull: () => reportStorageFull(), ...options });
  let packs: PackRecord[] | undefined;
  const watch: Subscription = liveQuery(() => db.packs.toArray()).subscribe({
    next: (stored) => {
      packs = stored;
    },
    // Without the live copy, each offline answer reads the packs itself.
    error: () => {
      packs = undefined;
    },
  });
  current = { db, cache, packs: () => packs, stop: () => watch.unsubscribe() };
  setCacheHook(hookOver(db, cache));
  // Electron grants its app origin durable storage; a browser may refuse, which only means it may evict.
  void navigator.storage?.persist?.().catch(() => false);
}
