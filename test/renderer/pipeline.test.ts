import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GeneratorList } from '../../shared/api/index.ts';
import type { RequestOptions, Result, SessionStatus } from '../../shared/ipc/contract.ts';
import { requestKey } from '../../shared/query/canonical.ts';
import { noCache } from '../../renderer/src/data/cache-hook.ts';
import { request, setCacheHook } from '../../renderer/src/data/pipeline.ts';
import { sessionChanged, useSession } from '../../renderer/src/data/session.ts';

const SIGNED_IN: SessionStatus = { signedIn: true, username: 'inspector', baseUrl: 'http://127.0.0.1:1' };
const PAGE: GeneratorList = { totalElements: 0, content: [] };

/** A window.tracker whose generators.list answers when the test says, recording what it was asked. */
function install(answer: () => Promise<Result<GeneratorList>>) {
  const tracker = {
    generators: { list: vi.fn((_input: unknown, _options: RequestOptions) => answer()) },
    requests: { cancel: vi.fn((_input: { id: string }) => Promise.resolve({ ok: true, data: null })) },
  };
  // Only the methods these tests reach; the pipeline resolves window.tracker at call time.
  vi.stubGlobal('tracker', tracker);
  return tracker;
}

const never = () => new Promise<Result<GeneratorList>>(() => undefined);
const LIST = { pageInfo: { page: 2, pageSize: 50 }, filterFields: {}, searchKey: '' };

beforeEach(() => {
  useSession.setState({ status: null, expired: false });
  sessionChanged(SIGNED_IN, 'signed-in');
});
afterEach(() => {
  vi.unstubAllGlobals();
  setCacheHook(noCache);
});

describe('the data pipeline', () => {
  it('sends the canonical request under a request id of its own, and answers with provenance', async () => {
    const tracker = install(() => Promise.resolve({ ok: true, data: PAGE }));
    const answer = await request('generators.list', {
      pageInfo: { page: 2, pageSize: 50, filters: 'all=', sort: 'generator_name asc' },
      filterFields: { states: ['TX', 'CA', 'TX'], cities: [] },
      searchKey: '',
    });
    expect(answer).toMatchObject({ ok: true, data: PAGE, source: 'network' });
    if (answer.ok) expect(answer.fetchedAt).toBeGreaterThan(0);
    const [input, options] = tracker.generators.list.mock.calls[0]!;
    expect(input).toEqual({
      pageInfo: { page: 2, pageSize: 50 },
      filterFields: { states: ['CA', 'TX'] },
      searchKey: '',
    });
    expect(options.requestId).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('gives every request its own id', async () => {
    const tracker = install(() => Promise.resolve({ ok: true, data: PAGE }));
    await Promise.all([request('generators.list', LIST), request('generators.list', LIST)]);
    const [first, second] = tracker.generators.list.mock.calls.map(([, options]) => options.requestId);
    expect(first).not.toBe(second);
  });

  it("an abort rejects with an AbortError and cancels that request's id in main", async () => {
    const tracker = install(never);
    const wanted = new AbortController();
    const pending = request('generators.list', LIST, { signal: wanted.signal });
    wanted.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    const { requestId } = tracker.generators.list.mock.calls[0]![1];
    expect(tracker.requests.cancel).toHaveBeenCalledExactlyOnceWith({ id: requestId });
  });

  it('an already aborted signal asks main for nothing', async () => {
    const tracker = install(never);
    const wanted = new AbortController();
    wanted.abort();
    await expect(request('generators.list', LIST, { signal: wanted.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(tracker.generators.list).not.toHaveBeenCalled();
  });

  it('never answers "cancelled": such an answer is an abort for the caller to ignore', async () => {
    install(() =>
      Promise.resolve({
        ok: false,
        error: { kind: 'cancelled', message: 'The app cancelled this request.' },
      }),
    );
    await expect(request('generators.list', LIST)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a call main cannot answer is a failure in words, not a throw', async () => {
    install(() => Promise.reject(new Error("Error invoking remote method 'tracker:generators.list'")));
    await expect(request('generators.list', LIST)).resolves.toMatchObject({
      ok: false,
      error: {
        kind: 'server',
        message: expect.stringContaining('could not reach its main process') as string,
      },
    });
  });

  it('asks saved data, by the canonical key, when the network is out of reach', async () => {
    install(() => Promise.resolve({ ok: false, error: { kind: 'offline', message: 'Nothing answers.' } }));
    const offline = vi.fn((_name: string, _input: unknown, key: string) =>
      Promise.resolve(
        key === requestKey('generators.list', LIST)
          ? { ok: true as const, data: PAGE, fetchedAt: 42 }
          : { ok: false as const, missing: 'nothing' },
      ),
    );
    setCacheHook({ ...noCache, offline });
    await expect(request('generators.list', { ...LIST, filterFields: { cities: [] } })).resolves.toEqual({
      ok: true,
      data: PAGE,
      source: 'cache',
      fetchedAt: 42,
    });
  });
});
