/**
 * The connectivity state machine with the data pipeline, on a network that hangs: a request the server does
 * not answer within the short threshold is answered from saved data and the probe asks why; one timeout (of
 * a request or the probe) makes the app offline, answering from saved data at once without the network;
 * probes back off from 1 s, start afresh when the user asks for something, and bring the app back
 * online with the first answer; a late failure never undoes a newer answer; requests in flight are answered
 * when the state flips. The clock is Vitest's; saved data is an in-memory cache hook.
 * (Probes back off to 2 s while the window is shown, to 30 s while it is hidden.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GeneratorList } from '../../shared/api/index.ts';
import type { Result, SessionStatus } from '../../shared/ipc/contract.ts';
import type { CacheHook, CachedAnswer } from '../../renderer/src/data/cache-hook.ts';
import { noCache } from '../../renderer/src/data/cache-hook.ts';
import { request, setCacheHook } from '../../renderer/src/data/pipeline.ts';
import { sessionChanged, useSession } from '../../renderer/src/data/session.ts';
import {
  PROBE_FIRST_MS,
  PROBE_MAX_MS,
  PROBE_SHOWN_MAX_MS,
  SLOW_MS,
  followServerReach,
  serverReached,
  serverUnreachable,
  useConnectivity,
} from '../../renderer/src/data/connectivity.ts';
import { requestKey } from '../../shared/query/canonical.ts';

const SIGNED_IN: SessionStatus = { signedIn: true, username: 'inspector', baseUrl: 'http://127.0.0.1:1' };
const page = (name: string): GeneratorList => ({ totalElements: 1, content: [{ generator_name: name }] });
const LIST = { pageInfo: { page: 0, pageSize: 50 }, filterFields: {}, searchKey: '' };
const OTHER = { ...LIST, searchKey: 'never saved' };
const TIMED_OUT = { ok: false as const, error: { kind: 'timeout' as const, message: 'No answer in 20 s.' } };

/** A server answered by hand: each request waits until the test answers it. */
function handServer() {
  const waiting: ((answer: Result<GeneratorList>) => void)[] = [];
  const list = vi.fn(() => new Promise<Result<GeneratorList>>((resolve) => waiting.push(resolve)));
  vi.stubGlobal('tracker', {
    generators: { list },
    requests: { cancel: vi.fn(() => Promise.resolve({ ok: true, data: null })) },
  });
  return { list, waiting };
}

/**
 * Saved data in memory, answered as the offline store answers: LIST is held by a pack (answered offline
 * only, as a pack is) or by a saved page (also read at once by a view that takes later answers).
 */
function saved(where: 'pack' | 'page', fetchedAt: number): void {
  const pages = new Map<string, CachedAnswer>();
  const pack = new Map<string, CachedAnswer>();
  (where === 'page' ? pages : pack).set(requestKey('generators.list', LIST), {
    data: page('Saved'),
    fetchedAt,
  });
  const hook: CacheHook = {
    prepare: () => undefined,
    read: (key) => Promise.resolve(pages.get(key)),
    write: (key, answer) => {
      pages.set(key, answer);
      return Promise.resolve();
    },
    offline: (_name, _input, key) => {
      const kept = pages.get(key) ?? pack.get(key);
      return Promise.resolve(kept ? { ok: true, ...kept } : { ok: false, missing: 'Nothing saved.' });
    },
  };
  setCacheHook(hook);
}

/** The probe, answered by hand like the server. */
function handProbe() {
  const waiting: ((reached: boolean) => void)[] = [];
  const ask = vi.fn(() => new Promise<boolean>((resolve) => waiting.push(resolve)));
  const stop = followServerReach(ask);
  return { ask, waiting, stop };
}

let stopProbing: (() => void) | undefined;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
  useSession.setState({ status: null, expired: false });
  sessionChanged(SIGNED_IN, 'signed-in');
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'online' });
});
afterEach(() => {
  stopProbing?.();
  stopProbing = undefined;
  vi.useRealTimers();
  vi.unstubAllGlobals();
  setCacheHook(noCache);
});

describe('connectivity on a network that hangs', () => {
  it('answers from a pack after the short threshold, asks the probe, and brings the network’s answer after', async () => {
    const server = handServer();
    saved('pack', Date.now() - 60_000);
    const probe = handProbe();
    stopProbing = probe.stop;
    // The probe at start: the server answered it.
    probe.waiting.shift()?.(true);
    await vi.advanceTimersByTimeAsync(0);
    const onUpdate = vi.fn();
    const answer = request('generators.list', LIST, { onUpdate });
    await vi.advanceTimersByTimeAsync(SLOW_MS - 1);
    expect(server.list).toHaveBeenCalledOnce();
    expect(probe.ask).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await answer).toMatchObject({ ok: true, source: 'cache', data: page('Saved') });
    expect(useConnectivity.getState().reach).toBe('doubtful');
    expect(probe.ask).toHaveBeenCalledTimes(2);
    // The server was only slow: it answers the probe, then the request.
    probe.waiting.shift()?.(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(useConnectivity.getState().reach).toBe('online');
    server.waiting.shift()?.({ ok: true, data: page('Fresh') });
    await vi.advanceTimersByTimeAsync(0);
    expect(onUpdate).toHaveBeenCalledWith(
      expect.objectContaining({ source: 'network', data: page('Fresh') }),
      true,
    );
  });

  it('goes offline after the probe’s timeout: a request with nothing saved is answered then, the next at once', async () => {
    const server = handServer();
    saved('page', Date.now() - 60_000);
    const probe = handProbe();
    stopProbing = probe.stop;
    probe.waiting.shift()?.(true);
    await vi.advanceTimersByTimeAsync(0);
    let settled: unknown;
    void request('generators.list', OTHER).then((answer) => (settled = answer));
    await vi.advanceTimersByTimeAsync(SLOW_MS);
    // Nothing saved answers it: it waits for the network while the probe asks.
    expect(settled).toBeUndefined();
    probe.waiting.shift()?.(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(useConnectivity.getState().reach).toBe('offline');
    expect(settled).toMatchObject({ ok: false, error: { kind: 'offline', message: 'Nothing saved.' } });

    // Offline: answered from saved data without the network; the next probe is a second after the last.
    const calls = server.list.mock.calls.length;
    expect(await request('generators.list', LIST)).toMatchObject({ ok: true, source: 'cache' });
    expect(server.list).toHaveBeenCalledTimes(calls);
    await vi.advanceTimersByTimeAsync(PROBE_FIRST_MS);
    expect(probe.ask).toHaveBeenCalledTimes(3);

    // The request given up on goes on; its late answer is saved and brings the app back online.
    server.waiting.shift()?.({ ok: true, data: page('Late') });
    await vi.advanceTimersByTimeAsync(0);
    expect(useConnectivity.getState().reach).toBe('online');
    // Saved a moment ago from the server: given as current.
    expect(await request('generators.list', OTHER, { onUpdate: () => {} })).toMatchObject({
      source: 'network',
      data: page('Late'),
    });
  });

  it('probes after 1 s, then twice as long each time, up to 2 s while shown and 30 s while hidden, and afresh when the user asks', async () => {
    handServer();
    const shown = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    saved('page', Date.now());
    const probe = handProbe();
    stopProbing = probe.stop;
    probe.waiting.shift()?.(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(useConnectivity.getState().reach).toBe('offline');
    const waits: number[] = [];
    let last = Date.now();
    for (let round = 0; round < 7; round += 1) {
      const before = probe.ask.mock.calls.length;
      while (probe.ask.mock.calls.length === before) await vi.advanceTimersByTimeAsync(100);
      waits.push(Date.now() - last);
      last = Date.now();
      probe.waiting.shift()?.(false);
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 30, 30].map((seconds) => seconds * 1000));
    expect(PROBE_FIRST_MS).toBe(1000);
    expect(PROBE_MAX_MS).toBe(30_000);
    // Shown again: the next waits are 2 s at most.
    shown.mockReturnValue('visible');
    const shownWaits: number[] = [];
    last = Date.now();
    for (let round = 0; round < 3; round += 1) {
      const before = probe.ask.mock.calls.length;
      while (probe.ask.mock.calls.length === before) await vi.advanceTimersByTimeAsync(100);
      shownWaits.push(Date.now() - last);
      last = Date.now();
      probe.waiting.shift()?.(false);
      await vi.advanceTimersByTimeAsync(0);
    }
    // The wait planned while hidden runs out first.
    expect(shownWaits.slice(1)).toEqual([PROBE_SHOWN_MAX_MS, PROBE_SHOWN_MAX_MS]);
    shown.mockReturnValue('hidden');

    // A request while offline probes at once (a second after the last) and starts the waits afresh.
    await vi.advanceTimersByTimeAsync(1_500);
    const before = probe.ask.mock.calls.length;
    await request('generators.list', LIST);
    expect(probe.ask).toHaveBeenCalledTimes(before + 1);
    probe.waiting.shift()?.(false);
    await vi.advanceTimersByTimeAsync(PROBE_FIRST_MS);
    expect(probe.ask).toHaveBeenCalledTimes(before + 2);

    // The server answers: online again, and views that showed saved data are told to ask again.
    const { backOnline } = useConnectivity.getState();
    probe.waiting.shift()?.(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(useConnectivity.getState()).toMatchObject({ reach: 'online', backOnline: backOnline + 1 });
    await vi.advanceTimersByTimeAsync(PROBE_MAX_MS * 2);
    expect(probe.ask).toHaveBeenCalledTimes(before + 2);
    shown.mockRestore();
  });

  it('a failure asked before the server’s last answer does not make the app offline', () => {
    const askedAt = performance.now();
    vi.advanceTimersByTime(10);
    serverReached();
    serverUnreachable(askedAt);
    expect(useConnectivity.getState().reach).toBe('online');
    serverUnreachable();
    expect(useConnectivity.getState().reach).toBe('offline');
  });

  it('a request’s timeout makes the app offline when nothing answered since it was asked', async () => {
    const server = handServer();
    saved('page', Date.now() - 60_000);
    const probe = handProbe();
    stopProbing = probe.stop;
    probe.waiting.shift()?.(true);
    await vi.advanceTimersByTimeAsync(0);
    const answer = request('generators.list', OTHER);
    await vi.advanceTimersByTimeAsync(SLOW_MS);
    // The probe it asked is still out when the request times out.
    expect(probe.ask).toHaveBeenCalledTimes(2);
    server.waiting.shift()?.(TIMED_OUT);
    // Answered as the app now is: offline, with what saved data lacks.
    expect(await answer).toMatchObject({ ok: false, error: { kind: 'offline' } });
    expect(useConnectivity.getState().reach).toBe('offline');
    probe.waiting.shift()?.(false);
    await vi.advanceTimersByTimeAsync(PROBE_FIRST_MS);
    expect(probe.ask).toHaveBeenCalledTimes(3);
  });

  it('a slow query’s timeout leaves the app online when the server answered the probe meanwhile', async () => {
    const server = handServer();
    saved('page', Date.now() - 60_000);
    const probe = handProbe();
    stopProbing = probe.stop;
    probe.waiting.shift()?.(true);
    await vi.advanceTimersByTimeAsync(0);
    const answer = request('generators.list', OTHER);
    await vi.advanceTimersByTimeAsync(SLOW_MS);
    probe.waiting.shift()?.(true);
    await vi.advanceTimersByTimeAsync(0);
    server.waiting.shift()?.(TIMED_OUT);
    expect(await answer).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(useConnectivity.getState().reach).toBe('online');
  });

  it('no probe runs while the user works offline', async () => {
    handServer();
    useConnectivity.getState().setWorkOffline(true);
    const probe = handProbe();
    stopProbing = probe.stop;
    await vi.advanceTimersByTimeAsync(PROBE_MAX_MS * 3);
    expect(probe.ask).not.toHaveBeenCalled();
    useConnectivity.getState().setWorkOffline(false);
  });
});
