/**
 * What saved data answers offline, over a real (fake-indexeddb) database and the engine as the app runs it:
 * a filtered pack lists a filter box from its own values, marked as only those; a request beyond every pack
 * names the packs' slices; the newer of a saved page and a covering pack answers; "Make available offline"
 * on a slice a pack already holds makes no second copy; working offline, Refresh downloads nothing; a
 * request a pack covers opens that pack while the network answers, ready should the network hang; and a
 * download under way when the app goes offline stops at once saying why, and resumes when it is back.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { request } from '../../../renderer/src/data/pipeline.ts';
import { sessionChanged, useSession } from '../../../renderer/src/data/session.ts';
import { useConnectivity } from '../../../renderer/src/data/connectivity.ts';
import {
  interruptDownloads,
  makeAvailableOffline,
  refreshPack,
  resumeInterrupted,
  stopAllDownloads,
  useDownloads,
} from '../../../renderer/src/offline/downloads.ts';
import { CONNECTION_LOST } from '../../../renderer/src/offline/database.ts';
import { offlineEngine, type PackQuery } from '../../../renderer/src/offline/engine-seam.ts';
import {
  activateOfflineStore,
  activeDatabase,
  activePageCache,
} from '../../../renderer/src/offline/offline-store.ts';
import { createPack, runDownload } from '../../../renderer/src/offline/pack-download.ts';
import { describeQuery } from '../../../renderer/src/offline/packs.ts';
import { requestKey } from '../../../shared/query/canonical.ts';
import { installEngine } from './engine.ts';
import { dataset, installTracker } from './fake-tracker.ts';

const DATA = dataset(300, 12);
const SERVER = 'http://127.0.0.1:4010';
const [FIRST, SECOND] = DATA.generators.map((row) => row.generator_name!);
/** Every manifest of two generators: a pack of a slice. */
const SLICE: PackQuery = {
  list: 'manifests',
  filterFields: { generator_names: [FIRST!, SECOND!] },
  searchKey: '',
};
const pageInfo = { page: 0, pageSize: 50 };

let unique = 0;
let uninstall: () => void;
let tracker: ReturnType<typeof installTracker>['tracker'];

/** Signs in a user of its own, stores a complete pack of SLICE, and works offline. */
async function offlineWithSlicePack(): Promise<string> {
  const username = `inspector-${(unique += 1)}`;
  sessionChanged({ signedIn: true, username, baseUrl: SERVER }, 'signed-in');
  activateOfflineStore({ baseUrl: SERVER, username });
  const db = activeDatabase()!;
  const pack = await createPack(db, SLICE, describeQuery(SLICE));
  expect(await runDownload(db, pack.id, new AbortController().signal)).toEqual({ outcome: 'complete' });
  useConnectivity.setState({ workOffline: true });
  return pack.title;
}

beforeEach(() => {
  useSession.setState({ status: null, expired: false });
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'online' });
  tracker = installTracker(DATA).tracker;
  uninstall = installEngine();
});
afterEach(async () => {
  // As signing out does: downloads a test started stop before its database closes.
  await stopAllDownloads();
  activateOfflineStore(null);
  uninstall();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('offline answers from saved data', () => {
  it('lists a filter box from a filtered pack’s own values, marked as only those', async () => {
    const title = await offlineWithSlicePack();
    const answer = await request('manifests.lookup', { field: 'generator_name', page: 1 });
    expect(answer).toMatchObject({ ok: true, source: 'cache', within: title });
    if (!answer.ok) return;
    expect(answer.data.results.map((option) => option.value)).toEqual([FIRST, SECOND].sort());
  });

  it('names the pack’s slice when a request goes beyond it, and answers inside it', async () => {
    const title = await offlineWithSlicePack();
    const inside = await request('manifests.list', {
      filterFields: { generator_names: [FIRST!] },
      searchKey: '',
      pageInfo,
    });
    expect(inside).toMatchObject({ ok: true, source: 'cache' });
    expect(inside.ok && 'within' in inside).toBe(false);

    const beyond = await request('manifests.list', { filterFields: {}, searchKey: '', pageInfo });
    expect(beyond).toMatchObject({ ok: false, error: { kind: 'offline' } });
    if (beyond.ok) return;
    expect(beyond.error.message).toContain(`“${title}”`);
    expect(beyond.error.message).toContain('goes beyond');
  });

  it('answers with the newer of a saved page and a covering pack', async () => {
    await offlineWithSlicePack();
    const input = { filterFields: { generator_names: [FIRST!] }, searchKey: '', pageInfo };
    const fromPack = await request('manifests.list', input);
    expect(fromPack.ok).toBe(true);
    if (!fromPack.ok) return;
    const newer = { totalElements: 1, content: [{ manifest_tracking_number: 'SEEN-SINCE' }] };
    await activePageCache()!.write(requestKey('manifests.list', input), {
      data: newer,
      fetchedAt: fromPack.fetchedAt + 1_000,
    });
    expect(await request('manifests.list', input)).toMatchObject({ ok: true, data: newer });
    await activePageCache()!.write(requestKey('manifests.list', input), {
      data: newer,
      fetchedAt: fromPack.fetchedAt - 1_000,
    });
    expect(await request('manifests.list', input)).toMatchObject({ ok: true, data: fromPack.data });
  });

  it('“Make available offline” on a slice a pack holds names that pack instead of copying it', async () => {
    const title = await offlineWithSlicePack();
    useConnectivity.setState({ workOffline: false });
    const db = activeDatabase()!;
    const narrower: PackQuery = { ...SLICE, filterFields: { generator_names: [SECOND!] }, searchKey: 'a' };
    const made = await makeAvailableOffline(narrower);
    expect(made.covered?.title).toBe(title);
    expect(await db.packs.count()).toBe(1);

    const wider: PackQuery = { list: 'manifests', filterFields: {}, searchKey: '' };
    const other = await makeAvailableOffline(wider);
    expect(other.covered).toBeUndefined();
    expect(await db.packs.count()).toBe(2);
  });

  it('working offline, Refresh downloads nothing and says why', async () => {
    await offlineWithSlicePack();
    const db = activeDatabase()!;
    const [pack] = await db.packs.toArray();
    const asked = tracker.manifests.list.mock.calls.length;
    await expect(refreshPack(pack!.id)).rejects.toThrow(/working offline/);
    expect(await db.packs.count()).toBe(1);
    expect(tracker.manifests.list).toHaveBeenCalledTimes(asked);
  });

  it('opens the covering pack while the network answers a request, so a network that hangs finds it open', async () => {
    await offlineWithSlicePack();
    // The app starts afresh: the pack is stored, not open.
    const username = useSession.getState().status?.username ?? '';
    activateOfflineStore(null);
    activateOfflineStore({ baseUrl: SERVER, username });
    useConnectivity.setState({ workOffline: false });
    const openStored = vi.spyOn(offlineEngine()!, 'openStored');
    await vi.waitFor(async () => expect(await activeDatabase()!.packs.count()).toBe(1));
    const input = { filterFields: { generator_names: [FIRST!] }, searchKey: '', pageInfo };
    expect(await request('manifests.list', input)).toMatchObject({ ok: true, source: 'network' });
    await vi.waitFor(() => expect(openStored).toHaveBeenCalledOnce());
    // Outside every pack nothing is opened.
    await request('manifests.list', { filterFields: {}, searchKey: 'x', pageInfo });
    expect(openStored).toHaveBeenCalledOnce();
    useConnectivity.setState({ workOffline: true });
    expect(await request('manifests.list', { ...input, searchKey: 'z' })).toMatchObject({ source: 'cache' });
    expect(openStored).toHaveBeenCalledOnce();
  });

  it('names a pack still downloading that would answer a request, rows stored but profiles to come', async () => {
    const username = `inspector-${(unique += 1)}`;
    sessionChanged({ signedIn: true, username, baseUrl: SERVER }, 'signed-in');
    activateOfflineStore({ baseUrl: SERVER, username });
    tracker.generators.details.mockImplementation(() => new Promise(() => undefined));
    const { packId } = await makeAvailableOffline(SLICE);
    await vi.waitFor(() => expect(tracker.generators.details).toHaveBeenCalled());
    await interruptDownloads('serverOutOfReach');
    const title = (await activeDatabase()!.packs.get(packId))!.title;
    useConnectivity.setState({ workOffline: true });

    const answer = await request('manifests.list', {
      filterFields: { generator_names: [FIRST!] },
      searchKey: 'a',
      pageInfo,
    });
    expect(answer).toMatchObject({ ok: false, error: { kind: 'offline' } });
    if (answer.ok) return;
    expect(answer.error.message).toContain(`“${title}” would answer this once its download completes`);
  });

  it('stops a download under way when the app goes offline, says why, and resumes it when back online', async () => {
    const username = `inspector-${(unique += 1)}`;
    sessionChanged({ signedIn: true, username, baseUrl: SERVER }, 'signed-in');
    activateOfflineStore({ baseUrl: SERVER, username });
    // The server hangs on the generator profiles, as a paused one does.
    const details = tracker.generators.details.getMockImplementation()!;
    tracker.generators.details.mockImplementation(() => new Promise(() => undefined));
    const { packId } = await makeAvailableOffline(SLICE);
    await vi.waitFor(() => expect(tracker.generators.details).toHaveBeenCalled());

    await interruptDownloads('serverOutOfReach');
    const db = activeDatabase()!;
    expect(await db.packs.get(packId)).toMatchObject({ status: 'interrupted' });
    expect(useDownloads.getState().live[packId]).toMatchObject({ running: false, stopped: CONNECTION_LOST });

    tracker.generators.details.mockImplementation(details);
    await resumeInterrupted();
    await vi.waitFor(async () => expect((await db.packs.get(packId))?.status).toBe('complete'));
  });
});
