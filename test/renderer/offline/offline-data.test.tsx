/**
 * The Offline data screen over a real (fake-indexeddb) database: sizes are shares of the storage the browser
 * reports, labelled as estimates, and add up to it; Delete asks first (and, offline, says the rows cannot
 * come back for now); Refresh says why it cannot download while the user works offline.
 */
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionChanged, useSession } from '../../../renderer/src/data/session.ts';
import { useConnectivity } from '../../../renderer/src/data/connectivity.ts';
import type { PackQuery } from '../../../renderer/src/offline/engine-seam.ts';
import { OfflineData } from '../../../renderer/src/offline/offline-data.tsx';
import {
  activateOfflineStore,
  activeDatabase,
  activePageCache,
} from '../../../renderer/src/offline/offline-store.ts';
import { createPack, runDownload } from '../../../renderer/src/offline/pack-download.ts';
import { describeQuery } from '../../../renderer/src/offline/packs.ts';
import { useDownloads } from '../../../renderer/src/offline/downloads.ts';
import { dataset, installTracker } from './fake-tracker.ts';

const SERVER = 'http://127.0.0.1:4010';
const ALL: PackQuery = { list: 'manifests', filterFields: {}, searchKey: '' };
/** What the browser says the app stores: far less than the JSON the pack recorded, as rows are compressed. */
const USAGE = 20_000;

let unique = 0;

beforeEach(async () => {
  // Each story starts on a computer with no user's data yet.
  await Promise.all(
    (await indexedDB.databases()).map(
      ({ name }) =>
        new Promise((done) => {
          const request = indexedDB.deleteDatabase(name ?? '');
          request.onsuccess = request.onerror = done;
        }),
    ),
  );
  useSession.setState({ status: null, expired: false });
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'online' });
  installTracker(dataset(120, 10));
  vi.stubGlobal('navigator', {
    ...navigator,
    storage: { estimate: () => Promise.resolve({ usage: USAGE, quota: 10 * USAGE }) },
  });
  const username = `inspector-${(unique += 1)}`;
  sessionChanged({ signedIn: true, username, baseUrl: SERVER }, 'signed-in');
  activateOfflineStore({ baseUrl: SERVER, username });
  const db = activeDatabase()!;
  const pack = await createPack(db, ALL, describeQuery(ALL));
  await runDownload(db, pack.id, new AbortController().signal);
  await activePageCache()!.write('some page', { data: { rows: 'x'.repeat(5_000) }, fetchedAt: 1 });
});
afterEach(() => {
  cleanup();
  activateOfflineStore(null);
  vi.unstubAllGlobals();
});

/** "about 18 KB" → bytes, to the precision shown (whole units from 10 on). */
function bytesOf(text: string): number {
  const [, number, unit] = /about ([\d.]+) (bytes|KB|MB)/.exec(text) ?? [];
  return Number(number) * ({ bytes: 1, KB: 1024, MB: 1024 * 1024 }[unit ?? 'bytes'] ?? NaN);
}

describe('the Offline data screen', () => {
  it('shows each size as an estimate, and the estimates add up to the storage used', async () => {
    render(<OfflineData />);
    const summary = await screen.findByText(/^Offline packs about/);
    const [packs, pages] = [...(summary.textContent ?? '').matchAll(/about [\d.]+ \w+/g)].map(([text]) =>
      bytesOf(text),
    );
    expect(summary.textContent).toContain('Storage used on this computer: 20 KB of 195 KB allowed');
    expect(Math.abs(packs! + pages! - USAGE) / USAGE).toBeLessThan(0.06);
    const row = screen.getByRole('row', { name: 'All manifests' });
    const recorded = (await activeDatabase()!.packs.toArray())[0]!.size;
    const shown = bytesOf(within(row).getByText(/^about/).textContent ?? '');
    expect(shown).toBeLessThan(recorded);
    expect(shown).toBe(packs);
  });

  it('says in words that nothing is kept, for a user with no pack and no saved page, sizing nothing', async () => {
    const other = `inspector-${(unique += 1)}`;
    sessionChanged({ signedIn: true, username: other, baseUrl: SERVER }, 'signed-in');
    activateOfflineStore({ baseUrl: SERVER, username: other });
    render(<OfflineData />);
    const summary = await screen.findByText(/^No saved pages/);
    expect(summary.textContent).toMatch(/^No saved pages\. Storage used on this computer/);
    expect(summary.textContent).not.toContain('about');
    expect(screen.getByText(/^No offline packs yet\./)).toBeTruthy();
  });

  it('counts another user’s data on this computer in no size of this user’s', async () => {
    const me = useSession.getState().status!;
    const other = `inspector-${(unique += 1)}`;
    sessionChanged({ signedIn: true, username: other, baseUrl: SERVER }, 'signed-in');
    activateOfflineStore({ baseUrl: SERVER, username: other });
    const theirs = await createPack(activeDatabase()!, ALL, describeQuery(ALL));
    await runDownload(activeDatabase()!, theirs.id, new AbortController().signal);
    sessionChanged(me, 'signed-in');
    activateOfflineStore({ baseUrl: SERVER, username: me.username! });

    render(<OfflineData />);
    const summary = await screen.findByText(/^Offline packs about/);
    const [packs, pages] = [...(summary.textContent ?? '').matchAll(/about [\d.]+ \w+/g)].map(([text]) =>
      bytesOf(text),
    );
    expect(summary.textContent).toContain(
      'Storage used on this computer, by every user of the app: 20 KB of 195 KB allowed',
    );
    // The same pack each, and this user's saved page besides: a little over half the storage, not all of it.
    const mine = (packs! + pages!) / USAGE;
    expect(mine).toBeGreaterThan(0.5);
    expect(mine).toBeLessThan(0.75);
  });

  it('reads the other users’ databases once while a download’s progress moves, not at every page', async () => {
    const estimate = vi.fn(() => Promise.resolve({ usage: USAGE, quota: 10 * USAGE }));
    vi.stubGlobal('navigator', { ...navigator, storage: { estimate } });
    const databases = vi.spyOn(indexedDB, 'databases');
    render(<OfflineData />);
    await screen.findByText(/^Offline packs about/);
    const packId = (await activeDatabase()!.packs.toArray())[0]!.id;
    for (const done of [500, 1_000, 1_500]) {
      const listings = estimate.mock.calls.length;
      const live = { part: 'rows', done, total: 2_000, rate: undefined, running: true } as const;
      act(() => useDownloads.setState({ live: { [packId]: live } }));
      // The listing is read again at each step of the progress…
      await waitFor(() => expect(estimate.mock.calls.length).toBeGreaterThan(listings));
    }
    // …the other users' databases, which cannot change while this user is signed in, only once.
    expect(databases).toHaveBeenCalledTimes(1);
    act(() => useDownloads.setState({ live: {} }));
  });

  it('keeps its counts moving while a download stores pages faster than the listing is read', async () => {
    // Each listing waits a while for the browser's estimate; a page is stored four times as often.
    const estimate = vi.fn(
      () =>
        new Promise<StorageEstimate>((resolve) => {
          setTimeout(() => resolve({ usage: USAGE, quota: 10 * USAGE }), 20);
        }),
    );
    vi.stubGlobal('navigator', { ...navigator, storage: { estimate } });
    render(<OfflineData />);
    const row = await screen.findByRole('row', { name: 'All manifests' });
    const db = activeDatabase()!;
    const pack = (await db.packs.toArray())[0]!;
    await db.packs.update(pack.id, { rowsDone: 77 });
    for (let done = 1; done <= 40; done += 1) {
      const live = { part: 'rows', done, total: 120, rate: undefined, running: true } as const;
      act(() => useDownloads.setState({ live: { [pack.id]: live } }));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // Read while the pages kept coming, not only once they stop.
    expect(within(row).getAllByRole('cell')[0]!.textContent).toBe('77');
    act(() => useDownloads.setState({ live: {} }));
  });

  it('says so when what this computer keeps cannot be read, instead of waiting for ever', async () => {
    vi.spyOn(activePageCache()!, 'count').mockRejectedValue(new Error('The disk is not readable.'));
    render(<OfflineData />);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'What this computer keeps could not be read: The disk is not readable.',
    );
  });

  it('deletes a pack only once the user confirms, and says offline that it cannot come back for now', async () => {
    useConnectivity.setState({ workOffline: true });
    render(<OfflineData />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete All manifests' }));
    const confirm = screen.getByRole('group', { name: 'Delete All manifests?' });
    expect(confirm.textContent).toContain('Delete its 120 rows from this computer?');
    expect(confirm.textContent).toContain('cannot be downloaded again until you are connected');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(await activeDatabase()!.packs.count()).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Delete All manifests' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete for good' }));
    await waitFor(async () => expect(await activeDatabase()!.packs.count()).toBe(0));
    await waitFor(() => expect(screen.queryByRole('row', { name: 'All manifests' })).toBeNull());
  });

  it('working offline, Refresh says why it cannot download', async () => {
    useConnectivity.setState({ workOffline: true });
    render(<OfflineData />);
    const refresh = await screen.findByRole('button', { name: 'Refresh' });
    expect(refresh.hasAttribute('disabled')).toBe(true);
    expect(refresh.getAttribute('title')).toMatch(/working offline/);
  });
});
