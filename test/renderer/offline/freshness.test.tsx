/**
 * Freshness labels and the Offline banner agree: the banner tells the age of the oldest saved data on
 * screen (a view kept mounted but not shown does not count), and every label moves on one clock, so the
 * banner never says "2 minutes" while the view under it says "1 minute". A server's answer left on screen
 * when the app goes offline is saved data from then on: no "Up to date" under the Offline banner.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useConnectivity } from '../../../renderer/src/data/connectivity.ts';
import { Freshness, ViewShown } from '../../../renderer/src/offline/freshness.tsx';
import { OfflineBanner } from '../../../renderer/src/offline/offline-banner.tsx';

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
  vi.setSystemTime(NOW);
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'offline' });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  useConnectivity.setState({ reach: 'online' });
});

const saved = (secondsAgo: number) => ({ source: 'cache' as const, fetchedAt: NOW - secondsAgo * 1000 });

describe('freshness labels and the Offline banner', () => {
  it('tell the same age of the same data, and move on together', () => {
    render(
      <>
        <OfflineBanner />
        <Freshness provenance={saved(80)} what="generators list" />
        <Freshness provenance={{ source: 'network', fetchedAt: NOW }} what="summary" />
        <ViewShown.Provider value={false}>
          <Freshness provenance={saved(20 * 60)} what="manifests list" />
        </ViewShown.Provider>
      </>,
    );
    const banner = () => screen.getByRole('status', { name: 'Offline' }).querySelector('strong')?.textContent;
    const list = () => screen.getByRole('note', { name: 'Freshness of the generators list' }).textContent;
    expect(banner()).toBe('Offline — showing data saved 1 minute ago');
    expect(list()).toBe('Saved 1 minute ago');
    act(() => {
      vi.advanceTimersByTime(30_000);
    });
    expect(banner()).toBe('Offline — showing data saved 2 minutes ago');
    expect(list()).toBe('Saved 2 minutes ago');
  });

  it('says only that it shows saved data when no saved data is on screen', () => {
    render(<OfflineBanner />);
    expect(screen.getByRole('status', { name: 'Offline' }).textContent).toContain(
      'Offline — showing saved data only',
    );
  });

  it('call a server answer still on screen saved once the app is offline, and up to date once back', () => {
    useConnectivity.setState({ reach: 'online' });
    render(
      <>
        <OfflineBanner />
        <Freshness provenance={{ source: 'network', fetchedAt: NOW }} what="manifests list" />
      </>,
    );
    const label = () => screen.getByRole('note', { name: 'Freshness of the manifests list' }).textContent;
    expect(label()).toBe('Up to date');
    act(() => {
      vi.advanceTimersByTime(5 * 60_000);
      useConnectivity.setState({ reach: 'offline' });
    });
    expect(label()).toBe('Saved 5 minutes ago');
    expect(screen.getByRole('status', { name: 'Offline' }).querySelector('strong')?.textContent).toBe(
      'Offline — showing data saved 5 minutes ago',
    );
    act(() => {
      useConnectivity.setState({ reach: 'online', workOffline: true });
    });
    expect(label()).toBe('Saved 5 minutes ago');
    act(() => {
      useConnectivity.setState({ workOffline: false });
    });
    expect(label()).toBe('Up to date');
    expect(screen.queryByRole('status', { name: 'Offline' })).toBeNull();
  });
});
