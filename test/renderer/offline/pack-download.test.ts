import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../../shared/api/index.ts';
import { sessionChanged, useSession } from '../../../renderer/src/data/session.ts';
import { useConnectivity } from '../../../renderer/src/data/connectivity.ts';
import {
  openOfflineDatabase,
  packChunks,
  type OfflineDatabase,
} from '../../../renderer/src/offline/database.ts';
import { openPack } from '../../../renderer/src/offline/engine/open-pack.ts';
import { offlineEngine, type PackQuery } from '../../../renderer/src/offline/engine-seam.ts';
import { SET_ASIDE, createPack, runDownload } from '../../../renderer/src/offline/pack-download.ts';
import { DownloadStop, STOPPED } from '../../../renderer/src/offline/pack-pages.ts';
import { deletePack, describeQuery, listPacks, loadPackRows } from '../../../renderer/src/offline/packs.ts';
import { readStoredPack } from '../../../renderer/src/offline/stored-pack.ts';
import { installEngine } from './engine.ts';
import { dataset, installTracker } from './fake-tracker.ts';

const MANIFESTS: PackQuery = { list: 'manifests', filterFields: {}, searchKey: '' };
const DATA = dataset(LIMITS.pageSizeMax * 4 + 37, 120);

let db: OfflineDatabase;
let unique = 0;

beforeEach(() => {
  db = openOfflineDatabase(`packs-${(unique += 1)}`);
  useSession.setState({ status: null, expired: false });
  sessionChanged({ signedIn: true, username: 'inspector', baseUrl: 'http://127.0.0.1:1' }, 'signed-in');
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'online' });
});
afterEach(() => {
  db.close();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const keys = (rows: { manifest_tracking_number?: string }[]) =>
  rows.map((row) => row.manifest_tracking_number).sort();

describe('an offline pack download', () => {
  it('stores every matching manifest, the generators they reference and their details', async () => {
    installTracker(DATA);
    const pack = await createPack(db, MANIFESTS, describeQuery(MANIFESTS));
    const progress = vi.fn();
    expect(await runDownload(db, pack.id, new AbortController().signal, progress)).toEqual({
      outcome: 'complete',
    });
    const rows = await loadPackRows(db, (await db.packs.get(pack.id))!);
    expect(keys(rows.manifests)).toEqual(keys(DATA.manifests));
    expect(rows.generators.map((row) => row.epa_handler_id).sort()).toEqual(
      DATA.generators.map((row) => row.epa_handler_id).sort(),
    );
    expect(rows.details).toHaveLength(DATA.generators.length);
    expect(await db.packs.get(pack.id)).toMatchObject({
      status: 'complete',
      total: DATA.manifests.length,
      rowsDone: DATA.manifests.length,
      generatorCount: DATA.generators.length,
    });
    // The last step before completing indexes the stored pack, and says so.
    expect(progress).toHaveBeenNthCalledWith(progress.mock.calls.length - 1, {
      part: 'details',
      done: 120,
      total: 120,
    });
    expect(progress).toHaveBeenLastCalledWith({ part: 'indexes', done: 0, total: undefined });
    // Pages are records of hundreds of rows, not a record per row.
    expect(await packChunks(db, pack.id, 'rows').count()).toBe(5);
  });

  it('resumes after a lost network with nothing missing, nothing twice, and no page asked again', async () => {
    const { tracker, state } = installTracker(DATA);
    const pack = await createPack(db, MANIFESTS, describeQuery(MANIFESTS));
    state.failAfter = 3;
    const end = await runDownload(db, pack.id, new AbortController().signal);
    expect(end).toEqual({
      outcome: 'stopped',
      reason: STOPPED.connection,
      storageFull: false,
      passes: true,
    });
    // Interrupted, not paused: it resumes by itself when the server answers again.
    expect(await db.packs.get(pack.id)).toMatchObject({ status: 'interrupted', stopped: STOPPED.connection });
    const storedBefore = (await db.progress.get(pack.id))!.parts.rows!.stored;
    expect(storedBefore.length).toBeGreaterThan(0);
    expect(storedBefore.length).toBeLessThan(5);

    state.failAfter = Infinity;
    tracker.manifests.list.mockClear();
    expect(await runDownload(db, pack.id, new AbortController().signal)).toEqual({ outcome: 'complete' });
    const askedAgain = tracker.manifests.list.mock.calls.map(([input]) => input.pageInfo.page);
    expect(askedAgain.filter((page) => storedBefore.includes(page))).toEqual([]);
    const rows = await loadPackRows(db, (await db.packs.get(pack.id))!);
    expect(keys(rows.manifests)).toEqual(keys(DATA.manifests));
    expect((await db.packs.get(pack.id))!.rowsDone).toBe(DATA.manifests.length);
  });

  it('pauses when its caller aborts, and carries on from there', async () => {
    installTracker(DATA);
    const pack = await createPack(db, MANIFESTS, describeQuery(MANIFESTS));
    const pause = new AbortController();
    const end = runDownload(db, pack.id, pause.signal, (state) => {
      if (state.part === 'rows' && state.done >= LIMITS.pageSizeMax) pause.abort();
    });
    expect(await end).toEqual({ outcome: 'paused' });
    expect((await db.packs.get(pack.id))!.status).toBe('paused');
    expect(await runDownload(db, pack.id, new AbortController().signal)).toEqual({ outcome: 'complete' });
    expect((await db.packs.get(pack.id))!.rowsDone).toBe(DATA.manifests.length);
  });

  it('set aside by signing out, it is left to resume by itself, not paused', async () => {
    installTracker(DATA);
    const pack = await createPack(db, MANIFESTS, describeQuery(MANIFESTS));
    const aside = new AbortController();
    const end = runDownload(db, pack.id, aside.signal, (state) => {
      if (state.part === 'rows' && state.done >= LIMITS.pageSizeMax) aside.abort(SET_ASIDE);
    });
    expect(await end).toEqual({ outcome: 'paused' });
    expect((await db.packs.get(pack.id))!.status).toBe('interrupted');
  });

  it('set aside while the engine indexes it, it does not complete and the engine lets go of its rows', async () => {
    installTracker(DATA);
    const uninstall = installEngine();
    try {
      const engine = offlineEngine()!;
      const close = vi.spyOn(engine, 'close');
      const pack = await createPack(db, MANIFESTS, describeQuery(MANIFESTS));
      const aside = new AbortController();
      const end = runDownload(db, pack.id, aside.signal, (state) => {
        if (state.part === 'indexes') aside.abort(SET_ASIDE);
      });
      expect(await end).toEqual({ outcome: 'paused' });
      expect((await db.packs.get(pack.id))!.status).toBe('interrupted');
      expect(close).toHaveBeenCalledWith(pack.id);
      // Its user back, it resumes with every part stored and completes.
      expect(await runDownload(db, pack.id, new AbortController().signal)).toEqual({ outcome: 'complete' });
    } finally {
      uninstall();
    }
  });

  it('completes when the connection is lost while the engine indexes it: that needs no server', async () => {
    installTracker(DATA);
    const uninstall = installEngine();
    try {
      const pack = await createPack(db, MANIFESTS, describeQuery(MANIFESTS));
      const offline = new AbortController();
      const end = runDownload(db, pack.id, offline.signal, (state) => {
        if (state.part === 'indexes') offline.abort(new DownloadStop(STOPPED.connection, { passes: true }));
      });
      expect(await end).toEqual({ outcome: 'complete' });
      expect((await db.packs.get(pack.id))!.status).toBe('complete');
    } finally {
      uninstall();
    }
  });

  it('fetches details 200 to an IPC reply, and a generators pack keeps each generator’s own totals', async () => {
    const { tracker } = installTracker(DATA);
    const query: PackQuery = { list: 'generators', filterFields: {}, searchKey: '' };
    const pack = await createPack(db, query, describeQuery(query));
    expect(await runDownload(db, pack.id, new AbortController().signal)).toEqual({ outcome: 'complete' });
    expect(tracker.generators.detail).not.toHaveBeenCalled();
    expect(tracker.generators.details.mock.calls.map(([input]) => input)).toEqual([
      { ids: DATA.generators.map((row) => row.epa_handler_id), totals: true },
    ]);
    const rows = await loadPackRows(db, (await db.packs.get(pack.id))!);
    expect(rows.details).toHaveLength(DATA.generators.length);
    const perGenerator = DATA.manifests.length / DATA.generators.length;
    expect(rows.totals).toHaveLength(DATA.generators.length);
    expect(rows.totals![0]).toEqual({
      epa_handler_id: DATA.generators[0]!.epa_handler_id,
      epa_total: Math.ceil(perGenerator),
      shipped_count: Math.ceil(perGenerator),
      container_count: 2 * Math.ceil(perGenerator),
      mmc_count: 1,
    });
  });

  it('on a full disk keeps what is stored, leaves the pack resumable, and says storage is full', async () => {
    installTracker(DATA);
    const pack = await createPack(db, MANIFESTS, describeQuery(MANIFESTS));
    const quota = Object.assign(new Error('full'), {
      name: 'AbortError',
      inner: { name: 'QuotaExceededError' },
    });
    const put = db.chunks.put.bind(db.chunks);
    let writes = 0;
    const refused = vi.spyOn(db.chunks, 'put').mockImplementation((...args) => {
      writes += 1;
      // Dexie's own promise type; a plain rejected promise stands in for the refused write.
      return writes === 3 ? (Promise.reject(quota) as ReturnType<typeof put>) : put(...args);
    });
    const end = await runDownload(db, pack.id, new AbortController().signal);
    expect(end).toEqual({
      outcome: 'stopped',
      reason: STOPPED.storageFull,
      storageFull: true,
      passes: false,
    });
    // Only the user can make room: it waits for Resume.
    expect((await db.packs.get(pack.id))!.status).toBe('paused');
    const progress = (await db.progress.get(pack.id))!.parts.rows!;
    // Every page the progress names is stored, and no more: the refused page left nothing behind.
    const chunks = await packChunks(db, pack.id, 'rows').toArray();
    expect([...progress.stored].sort()).toEqual(chunks.map((chunk) => chunk.page).sort());
    expect(progress.rows).toBe(chunks.reduce((sum, chunk) => sum + chunk.rows.length, 0));
    expect(chunks.length).toBeLessThan(5);

    refused.mockRestore();
    expect(await runDownload(db, pack.id, new AbortController().signal)).toEqual({ outcome: 'complete' });
    expect(keys((await loadPackRows(db, (await db.packs.get(pack.id))!)).manifests)).toEqual(
      keys(DATA.manifests),
    );
  });

  it('a refresh replaces the old copy only when it is complete', async () => {
    const { state } = installTracker(DATA);
    const old = await createPack(db, MANIFESTS, describeQuery(MANIFESTS));
    await runDownload(db, old.id, new AbortController().signal);
    const fresh = await createPack(db, MANIFESTS, old.title, old.id);
    state.failAfter = state.calls + 2;
    await runDownload(db, fresh.id, new AbortController().signal);
    expect((await listPacks(db)).map((pack) => pack.id)).toEqual([old.id]);
    expect((await db.packs.get(old.id))!.status).toBe('complete');

    state.failAfter = Infinity;
    expect(await runDownload(db, fresh.id, new AbortController().signal)).toEqual({ outcome: 'complete' });
    expect(await db.packs.get(old.id)).toBeUndefined();
    expect(await packChunks(db, old.id).count()).toBe(0);
    expect((await listPacks(db)).map((pack) => pack.id)).toEqual([fresh.id]);
  });

  it('a refreshed pack keeps its place among the others', async () => {
    installTracker(DATA);
    const first = await createPack(db, MANIFESTS, describeQuery(MANIFESTS));
    await runDownload(db, first.id, new AbortController().signal);
    const query: PackQuery = { ...MANIFESTS, searchKey: 'acme' };
    const second = await createPack(db, query, describeQuery(query));
    await runDownload(db, second.id, new AbortController().signal);
    const fresh = await createPack(db, MANIFESTS, first.title, first.id);
    expect(await runDownload(db, fresh.id, new AbortController().signal)).toEqual({ outcome: 'complete' });
    expect((await listPacks(db)).map((pack) => pack.id)).toEqual([fresh.id, second.id]);
  });

  it('a deleted pack leaves no rows and no progress behind', async () => {
    installTracker(DATA);
    const pack = await createPack(db, MANIFESTS, describeQuery(MANIFESTS));
    await runDownload(db, pack.id, new AbortController().signal);
    await deletePack(db, pack.id);
    expect(await db.packs.count()).toBe(0);
    expect(await db.chunks.count()).toBe(0);
    expect(await db.progress.count()).toBe(0);
  });

  it('completes with the engine’s indexes stored beside its rows; a refresh and a deletion take them away', async () => {
    const { state } = installTracker(DATA);
    const uninstall = installEngine();
    try {
      const old = await createPack(db, MANIFESTS, describeQuery(MANIFESTS));
      await runDownload(db, old.id, new AbortController().signal);
      const complete = (await db.packs.get(old.id))!;
      const chunks = await packChunks(db, old.id).toArray();
      expect(complete.indexSize).toBeGreaterThan(0);
      expect(complete.size).toBe(chunks.reduce((sum, chunk) => sum + chunk.size, 0) + complete.indexSize!);
      const stored = await readStoredPack(db.name, old.id);
      expect(openPack(stored.rows, stored.indexes).fromStored).toBe(true);

      // A refresh stores its own; the old copy's go with it once the new one is complete.
      const fresh = await createPack(db, MANIFESTS, old.title, old.id);
      state.failAfter = state.calls + 2;
      await runDownload(db, fresh.id, new AbortController().signal);
      expect(await db.packIndexes.get(fresh.id)).toBeUndefined();
      state.failAfter = Infinity;
      await runDownload(db, fresh.id, new AbortController().signal);
      expect((await db.packIndexes.toArray()).map((record) => record.packId)).toEqual([fresh.id]);

      await deletePack(db, fresh.id);
      expect(await db.packIndexes.count()).toBe(0);
    } finally {
      uninstall();
    }
  });

  it('says its query in words', () => {
    expect(describeQuery(MANIFESTS)).toBe('All manifests');
    expect(
      describeQuery({
        list: 'generators',
        filterFields: { states: ['TX', 'LA'], shippedYears: ['2024'] },
        searchKey: 'oil',
      }),
    ).toBe('Generators in state TX or LA, shipped in 2024, matching “oil”');
    expect(
      describeQuery({
        list: 'manifests',
        filterFields: { shipped_date_start: '2024-01-01', shipped_date_end: '2024-12-31' },
        searchKey: '',
      }),
    ).toBe('Manifests shipped 2024-01-01 to 2024-12-31');
  });
});
