import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GeneratorList } from '../../../shared/api/index.ts';
import type { Result, SessionStatus } from '../../../shared/ipc/contract.ts';
import { requestKey } from '../../../shared/query/canonical.ts';
import { FRESH_MS, refreshSaved, request } from '../../../renderer/src/data/pipeline.ts';
import { sessionChanged, useSession } from '../../../renderer/src/data/session.ts';
import { followServerReach, useConnectivity } from '../../../renderer/src/data/connectivity.ts';
import { databaseName, isQuotaError, openOfflineDatabase } from '../../../renderer/src/offline/database.ts';
import { activateOfflineStore, activePageCache } from '../../../renderer/src/offline/offline-store.ts';
import { createPack } from '../../../renderer/src/offline/pack-download.ts';
import { PageCache } from '../../../renderer/src/offline/page-cache.ts';

const SERVER = 'http://127.0.0.1:4010';
const LIST = { pageInfo: { page: 0, pageSize: 50 }, filterFields: {}, searchKey: '' };
const page = (name: string): GeneratorList => ({ totalElements: 1, content: [{ generator_name: name }] });

/** A window.tracker whose generators.list answers with `answer()` and counts its calls. */
function install(answer: () => Result<GeneratorList>) {
  const tracker = {
    generators: { list: vi.fn(() => Promise.resolve(answer())) },
    requests: { cancel: vi.fn(() => Promise.resolve({ ok: true, data: null })) },
  };
  vi.stubGlobal('tracker', tracker);
  return tracker;
}

let unique = 0;
/** A user of its own per test, so databases of earlier tests are never read. */
function signIn(username = `inspector-${(unique += 1)}`): { baseUrl: string; username: string } {
  const status: SessionStatus = { signedIn: true, username, baseUrl: SERVER };
  sessionChanged(status, 'signed-in');
  activateOfflineStore({ baseUrl: SERVER, username });
  return { baseUrl: SERVER, username };
}

beforeEach(() => {
  useSession.setState({ status: null, expired: false });
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'online' });
});
afterEach(() => {
  activateOfflineStore(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the page cache', () => {
  it('keeps an answer under its key with its fetch time, and marks it used when read', async () => {
    const db = openOfflineDatabase(`cache-read-${(unique += 1)}`);
    let now = 1000;
    const cache = new PageCache(db, { now: () => now });
    await cache.write('k', { data: page('A'), fetchedAt: 500 });
    now = 2000;
    expect(await cache.read('k')).toEqual({ data: page('A'), fetchedAt: 500 });
    await vi.waitFor(async () => expect((await db.answers.get('k'))?.lastUsed).toBe(2000));
    expect(await cache.read('missing')).toBeUndefined();
    db.close();
  });

  it('removes the least recently used answers past its cap, never the one just written', async () => {
    const db = openOfflineDatabase(`cache-evict-${(unique += 1)}`);
    let now = 0;
    const one = JSON.stringify(page('A')).length;
    const cache = new PageCache(db, { cap: one * 3, now: () => (now += 1) });
    await cache.write('a', { data: page('A'), fetchedAt: 1 });
    await cache.write('b', { data: page('B'), fetchedAt: 1 });
    await cache.write('c', { data: page('C'), fetchedAt: 1 });
    await cache.read('a'); // a is now more recent than b
    await vi.waitFor(async () => expect((await db.answers.get('a'))?.lastUsed).toBeGreaterThan(3));
    await cache.write('d', { data: page('D'), fetchedAt: 1 });
    expect((await db.answers.toCollection().primaryKeys()).sort()).toEqual(['a', 'c', 'd']);
    expect(await cache.totalSize()).toBe(one * 3);

    const huge = { totalElements: 1, content: [{ generator_name: 'x'.repeat(one * 5) }] };
    await cache.write('huge', { data: huge, fetchedAt: 1 });
    expect(await db.answers.toCollection().primaryKeys()).toEqual(['huge']);
    db.close();
  });

  it('keeps what it holds when storage is full, and says so', async () => {
    const db = openOfflineDatabase(`cache-full-${(unique += 1)}`);
    const onStorageFull = vi.fn();
    const cache = new PageCache(db, { onStorageFull });
    await cache.write('a', { data: page('A'), fetchedAt: 1 });
    const quota = Object.assign(new Error('full'), {
      name: 'AbortError',
      inner: { name: 'QuotaExceededError' },
    });
    vi.spyOn(db.answers, 'put').mockRejectedValueOnce(quota);
    await cache.write('b', { data: page('B'), fetchedAt: 1 });
    expect(onStorageFull).toHaveBeenCalledOnce();
    expect(await db.answers.toCollection().primaryKeys()).toEqual(['a']);
    expect(await cache.totalSize()).toBe(JSON.stringify(page('A')).length);
    db.close();
  });

  it('"Clear cache" removes every saved answer and leaves the offline packs alone', async () => {
    const db = openOfflineDatabase(`cache-clear-${(unique += 1)}`);
    const cache = new PageCache(db);
    await cache.write('a', { data: page('A'), fetchedAt: 1 });
    const pack = await createPack(
      db,
      { list: 'generators', filterFields: {}, searchKey: '' },
      'All generators',
    );
    await cache.clear();
    expect(await cache.count()).toBe(0);
    expect(await cache.totalSize()).toBe(0);
    expect(await db.packs.get(pack.id)).toMatchObject({ title: 'All generators' });
    db.close();
  });

  it('tells a full quota by name, also inside an AbortError', () => {
    expect(isQuotaError({ name: 'QuotaExceededError' })).toBe(true);
    expect(isQuotaError({ name: 'AbortError', inner: { name: 'QuotaExceededError' } })).toBe(true);
    expect(isQuotaError({ name: 'AbortError', inner: { name: 'ConstraintError' } })).toBe(false);
    expect(isQuotaError(new Error('x'))).toBe(false);
    expect(isQuotaError(undefined)).toBe(false);
  });

  it('names one database per server and user', () => {
    expect(databaseName(SERVER, 'a')).not.toBe(databaseName(SERVER, 'b'));
    expect(databaseName(SERVER, 'a')).not.toBe(databaseName('http://127.0.0.1:4011', 'a'));
    expect(databaseName('http://127.0.0.1:4010', 'a')).toBe(databaseName('http://127.0.0.1:4010/', 'a'));
  });
});

describe('the pipeline with saved data', () => {
  it('shows a saved answer at once and brings the server’s when it has changed', async () => {
    signIn();
    let name = 'Old';
    const tracker = install(() => ({ ok: true, data: page(name) }));
    await request('generators.list', LIST);
    await vi.waitFor(async () =>
      expect(await activePageCache()?.read(requestKey('generators.list', LIST))).toBeDefined(),
    );

    const onUpdate = vi.fn();
    const fresh = await request('generators.list', LIST, { onUpdate });
    // Young enough not to ask again, and the server's answer of a moment ago: shown as current.
    expect(fresh).toMatchObject({ ok: true, source: 'network', data: page('Old') });
    expect(tracker.generators.list).toHaveBeenCalledTimes(1);

    name = 'New';
    const later = Date.now() + FRESH_MS + 1;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    const stale = await request('generators.list', LIST, { onUpdate });
    expect(stale).toMatchObject({ ok: true, source: 'cache', data: page('Old') });
    await vi.waitFor(() => expect(onUpdate).toHaveBeenCalledOnce());
    expect(onUpdate).toHaveBeenCalledWith(
      { ok: true, source: 'network', fetchedAt: later, data: page('New') },
      true,
    );
    expect(await activePageCache()?.read(requestKey('generators.list', LIST))).toMatchObject({
      data: page('New'),
    });
    // The grid asks again for a page found changed: the new rows, labelled current rather than "Saved".
    const again = await request('generators.list', LIST, { onUpdate });
    expect(again).toMatchObject({ ok: true, source: 'network', data: page('New') });
    expect(tracker.generators.list).toHaveBeenCalledTimes(2);
  });

  it('after Refresh, asks the server again even for an answer saved a moment ago', async () => {
    signIn();
    const tracker = install(() => ({ ok: true, data: page('Old') }));
    await request('generators.list', LIST);
    await vi.waitFor(async () =>
      expect(await activePageCache()?.read(requestKey('generators.list', LIST))).toBeDefined(),
    );
    refreshSaved();
    const onUpdate = vi.fn();
    expect(await request('generators.list', LIST, { onUpdate })).toMatchObject({ source: 'cache' });
    await vi.waitFor(() => expect(tracker.generators.list).toHaveBeenCalledTimes(2));
  });

  it('offline, answers from saved data without asking the network, and says what is missing', async () => {
    signIn();
    const tracker = install(() => ({ ok: true, data: page('Saved') }));
    await request('generators.list', LIST);
    await vi.waitFor(async () => expect(await activePageCache()?.count()).toBe(1));
    useConnectivity.setState({ workOffline: true });

    const saved = await request('generators.list', LIST);
    expect(saved).toMatchObject({ ok: true, source: 'cache', data: page('Saved') });

    const other = await request('generators.list', { ...LIST, searchKey: 'nothing like it' });
    expect(other).toMatchObject({ ok: false, error: { kind: 'offline' } });
    if (!other.ok) expect(other.error.message).toMatch(/Make available offline/);
    expect(tracker.generators.list).toHaveBeenCalledTimes(1);
  });

  it('a server out of reach falls back to the saved answer and marks the app offline until a probe answers', async () => {
    signIn();
    let up = true;
    const tracker = install(() =>
      up ? { ok: true, data: page('Saved') } : { ok: false, error: { kind: 'offline', message: 'down' } },
    );
    await request('generators.list', LIST);
    await vi.waitFor(async () => expect(await activePageCache()?.count()).toBe(1));
    up = false;
    expect(await request('generators.list', LIST)).toMatchObject({ ok: true, source: 'cache' });
    expect(useConnectivity.getState().reach).toBe('offline');
    // Offline, the network is not asked: saved data answers at once, and the probe asks after the server.
    const probe = vi.fn(() => Promise.resolve(up));
    const stopProbing = followServerReach(probe);
    await vi.waitFor(() => expect(probe).toHaveBeenCalled());
    expect(await request('generators.list', LIST)).toMatchObject({ ok: true, source: 'cache' });
    expect(tracker.generators.list).toHaveBeenCalledTimes(2);
    const { backOnline } = useConnectivity.getState();
    up = true;
    await vi.waitFor(() => expect(useConnectivity.getState().reach).toBe('online'), { timeout: 3_000 });
    expect(useConnectivity.getState().backOnline).toBe(backOnline + 1);
    expect(await request('generators.list', LIST)).toMatchObject({ ok: true, source: 'network' });
    stopProbing();
  });

  it('offline, an expired session does not wait for sign-in before answering from saved data', async () => {
    signIn();
    let expired = false;
    const tracker = install(() =>
      expired
        ? { ok: false, error: { kind: 'unauthorized', message: 'expired' } }
        : { ok: true, data: page('A') },
    );
    await request('generators.list', LIST);
    await vi.waitFor(async () => expect(await activePageCache()?.count()).toBe(1));
    expired = true;
    useConnectivity.setState({ workOffline: true });
    expect(await request('generators.list', LIST)).toMatchObject({ ok: true, source: 'cache' });
    expect(useSession.getState().expired).toBe(false);
    expect(tracker.generators.list).toHaveBeenCalledTimes(1);
  });

  it('a server that answers again, if only with a 401, ends offline so sign-in can be asked', async () => {
    signIn();
    // The server's 401, with its status: main's own refusal (no token to send) has none and reaches nobody.
    install(() => ({ ok: false, error: { kind: 'unauthorized', message: 'expired', status: 401 } }));
    useConnectivity.setState({ reach: 'doubtful' });
    const wanted = new AbortController();
    const pending = request('generators.list', LIST, { signal: wanted.signal });
    await vi.waitFor(() => expect(useSession.getState().expired).toBe(true));
    expect(useConnectivity.getState().reach).toBe('online');
    wanted.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('never shows one user the answers saved for another on the same profile', async () => {
    const first = signIn();
    install(() => ({ ok: true, data: page('First user’s') }));
    await request('generators.list', LIST);
    await vi.waitFor(async () => expect(await activePageCache()?.count()).toBe(1));

    signIn();
    useConnectivity.setState({ workOffline: true });
    expect(await request('generators.list', LIST)).toMatchObject({ ok: false, error: { kind: 'offline' } });

    sessionChanged({ signedIn: true, ...first }, 'signed-in');
    activateOfflineStore(first);
    expect(await request('generators.list', LIST)).toMatchObject({
      ok: true,
      data: page('First user’s'),
    });
  });
});
