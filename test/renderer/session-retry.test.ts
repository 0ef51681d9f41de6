import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GeneratorTotals } from '../../shared/api/index.ts';
import type { Result, SessionStatus } from '../../shared/ipc/contract.ts';
import { sessionChanged, useSession } from '../../renderer/src/data/session.ts';
import { generatorTotals, signOut } from '../../renderer/src/data/tracker-data.ts';

const SIGNED_IN: SessionStatus = { signedIn: true, username: 'inspector', baseUrl: 'http://127.0.0.1:1' };
const SIGNED_OUT: SessionStatus = { signedIn: false, baseUrl: 'http://127.0.0.1:1' };
const TOTALS: GeneratorTotals = { epa_total: 1, shipped_count: 2, container_count: 3, mmc_count: 4 };
const EXPIRED: Result<GeneratorTotals> = {
  ok: false,
  error: { kind: 'unauthorized', message: 'Your session has expired; sign in again.' },
};

function install(aggregate: () => Promise<Result<GeneratorTotals>>) {
  const tracker = {
    generators: { aggregate: vi.fn(aggregate) },
    requests: { cancel: vi.fn(() => Promise.resolve({ ok: true, data: null })) },
    session: { signOut: vi.fn(() => Promise.resolve({ ok: true, data: SIGNED_OUT })) },
  };
  // Only the methods these tests reach; the data layer resolves window.tracker at call time.
  vi.stubGlobal('tracker', tracker);
  return tracker;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  useSession.setState({ status: null, expired: false });
  sessionChanged(SIGNED_IN, 'signed-in');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a call that meets an expired session', () => {
  it('waits for the user to sign in again, then is retried and answers', async () => {
    const answers = [EXPIRED, { ok: true, data: TOTALS } as const];
    const tracker = install(() => Promise.resolve(answers.shift() ?? EXPIRED));
    const pending = generatorTotals({ filterFields: {}, searchKey: '' });
    await settle();
    expect(useSession.getState().expired).toBe(true);
    expect(useSession.getState().status?.username).toBe('inspector');
    sessionChanged(SIGNED_OUT, 'expired');
    expect(useSession.getState().status?.signedIn).toBe(true);
    sessionChanged(SIGNED_IN, 'signed-in');
    expect(await pending).toMatchObject({ ok: true, data: TOTALS, source: 'network' });
    expect(tracker.generators.aggregate).toHaveBeenCalledTimes(2);
    expect(useSession.getState().expired).toBe(false);
  });

  it('gives up with the failure when the user signs out instead', async () => {
    install(() => Promise.resolve(EXPIRED));
    const pending = generatorTotals({ filterFields: {}, searchKey: '' });
    await settle();
    await signOut();
    expect(await pending).toEqual(EXPIRED);
    expect(useSession.getState()).toMatchObject({ expired: false, status: SIGNED_OUT });
  });

  it('lets go at once when its caller aborts while it waits, and asks main for nothing more', async () => {
    const tracker = install(() => Promise.resolve(EXPIRED));
    const wanted = new AbortController();
    const pending = generatorTotals({ filterFields: {}, searchKey: '' }, wanted.signal);
    await settle();
    expect(useSession.getState().expired).toBe(true);
    wanted.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    sessionChanged(SIGNED_IN, 'signed-in');
    await settle();
    expect(tracker.generators.aggregate).toHaveBeenCalledTimes(1);
  });

  it('answers at once when nobody was signed in', async () => {
    sessionChanged(SIGNED_OUT, 'signed-out');
    install(() => Promise.resolve(EXPIRED));
    expect(await generatorTotals({ filterFields: {}, searchKey: '' })).toEqual(EXPIRED);
    expect(useSession.getState().expired).toBe(false);
  });
});
