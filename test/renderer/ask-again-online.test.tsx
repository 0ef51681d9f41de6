/**
 * Back online, a view asks the server again for what it shows that the offline time made saved data: saved
 * answers and failures, and a server's answer fetched before the app went offline; not the answer fetched
 * since, which is the server's of now.
 */
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAskAgainWhenOnline, useConnectivity } from '../../renderer/src/data/connectivity.ts';

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'online' });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  useConnectivity.setState({ workOffline: false, reach: 'online' });
});

/** A view showing an answer fetched at `fetchedAt`; how many times it asked again. */
function view(stale: boolean, fetchedAt: number | undefined) {
  const askAgain = vi.fn();
  renderHook(() => useAskAgainWhenOnline(stale, askAgain, fetchedAt));
  return askAgain;
}

function offlineFor(ms: number): void {
  act(() => useConnectivity.getState().setWorkOffline(true));
  vi.advanceTimersByTime(ms);
  act(() => useConnectivity.getState().setWorkOffline(false));
}

describe('asking again once back online', () => {
  it('asks for a server answer fetched before the app went offline', () => {
    const before = view(false, NOW - 60_000);
    offlineFor(5 * 60_000);
    expect(before).toHaveBeenCalledTimes(1);
  });

  it('asks for saved data and failures, whenever they were fetched', () => {
    const saved = view(true, NOW - 60_000);
    const failed = view(true, undefined);
    offlineFor(1_000);
    expect(saved).toHaveBeenCalledTimes(1);
    expect(failed).toHaveBeenCalledTimes(1);
  });

  it('leaves an answer the server gave since it went offline', () => {
    act(() => useConnectivity.getState().setWorkOffline(true));
    vi.advanceTimersByTime(10_000);
    const since = view(false, Date.now());
    act(() => useConnectivity.getState().setWorkOffline(false));
    expect(since).not.toHaveBeenCalled();
  });

  it('asks nothing of a view showing nothing', () => {
    const empty = view(false, undefined);
    offlineFor(1_000);
    expect(empty).not.toHaveBeenCalled();
  });
});
