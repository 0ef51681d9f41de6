/**
 * "Make available offline" over a real (fake-indexeddb) database: a query of more rows than LARGE_PACK_ROWS
 * asks first, saying how many rows and about how much storage, and whether the browser allows that much more;
 * nothing is stored until the user says Download; Cancel, Escape or the button again leave nothing behind. A smaller query,
 * or one a pack already holds, does not ask.
 */
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useConnectivity } from '../../../renderer/src/data/connectivity.ts';
import { sessionChanged, useSession } from '../../../renderer/src/data/session.ts';
import { pauseDownload } from '../../../renderer/src/offline/downloads.ts';
import type { PackQuery } from '../../../renderer/src/offline/engine-seam.ts';
import {
  LARGE_PACK_ROWS,
  MakeAvailableOffline,
  STORED_BYTES_PER_ROW,
} from '../../../renderer/src/offline/make-available-offline.tsx';
import { activateOfflineStore, activeDatabase } from '../../../renderer/src/offline/offline-store.ts';
import { createPack, runDownload } from '../../../renderer/src/offline/pack-download.ts';
import { describeQuery } from '../../../renderer/src/offline/packs.ts';
import { GeneratorsWorkspace } from '../../../renderer/src/workspaces/generators.tsx';
import { freshGeneratorsWorkspace } from '../generators-support.ts';
import { dataset, installTracker } from './fake-tracker.ts';

const SERVER = 'http://127.0.0.1:4010';
const MANIFESTS: PackQuery = { list: 'manifests', filterFields: {}, searchKey: '' };
const GENERATORS: PackQuery = { list: 'generators', filterFields: {}, searchKey: '' };
const MB = 1024 * 1024;

let unique = 0;

/** What the browser says it allows the app, and how much of it is used. */
function storage(usage: number, quota: number) {
  vi.stubGlobal('navigator', {
    ...navigator,
    storage: { estimate: () => Promise.resolve({ usage, quota }) },
  });
}

beforeEach(() => {
  useSession.setState({ status: null, expired: false });
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'online' });
  installTracker(dataset(120, 10));
  storage(10 * MB, 2048 * MB);
  const username = `inspector-${(unique += 1)}`;
  sessionChanged(
    { signedIn: true, username, baseUrl: SERVER, scopes: ['generators', 'manifests'] },
    'signed-in',
  );
  activateOfflineStore({ baseUrl: SERVER, username });
});
afterEach(async () => {
  cleanup();
  // Downloads a story started stop before its database closes.
  for (const pack of (await activeDatabase()?.packs.toArray()) ?? []) await pauseDownload(pack.id);
  activateOfflineStore(null);
  vi.unstubAllGlobals();
});

const packs = () => activeDatabase()!.packs.toArray();
const button = () => screen.getByRole('button', { name: 'Make available offline' });
const question = () => screen.queryByRole('group', { name: 'Make available offline?' });

describe('Make available offline', () => {
  it.each([
    ['no count yet', null],
    ['a few rows', 120],
    ['exactly the limit', LARGE_PACK_ROWS],
  ])('downloads at once with %s', async (_, rows) => {
    render(<MakeAvailableOffline query={MANIFESTS} rows={rows} />);
    fireEvent.click(button());
    await waitFor(async () => expect(await packs()).toHaveLength(1));
    expect(question()).toBeNull();
  });

  it.each([
    [
      MANIFESTS,
      120_900,
      'Download 120,900 manifests with their generators to this computer? They take about 52 MB.',
    ],
    [GENERATORS, 20_000, 'Download 20,000 generators to this computer? They take about 18 MB.'],
  ])('asks first above the limit, naming the rows and their storage (%o)', async (query, rows, words) => {
    expect(rows * STORED_BYTES_PER_ROW[query.list]).toBeGreaterThan(0);
    render(<MakeAvailableOffline query={query} rows={rows} />);
    fireEvent.click(button());
    const asked = await screen.findByRole('group', { name: 'Make available offline?' });
    expect(asked.textContent).toContain(words);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Download' }));
    expect(await packs()).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(async () => expect(await packs()).toHaveLength(1));
    expect(question()).toBeNull();
    expect(await screen.findByRole('status')).toBeTruthy();
  });

  it('says when the rows need more than the browser allows still', async () => {
    storage(1990 * MB, 2000 * MB);
    render(<MakeAvailableOffline query={MANIFESTS} rows={120_900} />);
    fireEvent.click(button());
    const asked = await screen.findByRole('group', { name: 'Make available offline?' });
    await waitFor(() =>
      expect(asked.textContent).toContain(
        'The browser allows about 10 MB more: narrow the filters, or delete packs in Offline data.',
      ),
    );
  });

  it('says nothing of what the browser allows when there is room', async () => {
    render(<MakeAvailableOffline query={MANIFESTS} rows={120_900} />);
    fireEvent.click(button());
    const asked = await screen.findByRole('group', { name: 'Make available offline?' });
    await act(() => Promise.resolve());
    expect(asked.textContent).not.toContain('allows');
  });

  it.each([
    ['Cancel', () => fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))],
    ['Escape', () => fireEvent.keyDown(screen.getByRole('button', { name: 'Download' }), { key: 'Escape' })],
  ])('%s takes the question away, focus back on the button, and stores nothing', async (_, answer) => {
    render(<MakeAvailableOffline query={MANIFESTS} rows={120_900} />);
    fireEvent.click(button());
    await screen.findByRole('group', { name: 'Make available offline?' });
    answer();
    expect(question()).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(button()));
    expect(await packs()).toHaveLength(0);
  });

  it('takes the question away when the button is pressed again', async () => {
    render(<MakeAvailableOffline query={MANIFESTS} rows={120_900} />);
    fireEvent.click(button());
    await screen.findByRole('group', { name: 'Make available offline?' });
    expect(button().getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(button());
    expect(question()).toBeNull();
    expect(button().getAttribute('aria-expanded')).toBe('false');
    expect(await packs()).toHaveLength(0);
  });

  it('takes the question away when the query changes or the connection goes', async () => {
    const { rerender } = render(<MakeAvailableOffline query={MANIFESTS} rows={120_900} />);
    fireEvent.click(button());
    await screen.findByRole('group', { name: 'Make available offline?' });
    rerender(<MakeAvailableOffline query={{ ...MANIFESTS, searchKey: 'acme' }} rows={120_900} />);
    expect(question()).toBeNull();

    fireEvent.click(button());
    await screen.findByRole('group', { name: 'Make available offline?' });
    act(() => {
      useConnectivity.setState({ workOffline: true });
    });
    expect(question()).toBeNull();
    expect(button()).toHaveProperty('disabled', true);
    expect(await packs()).toHaveLength(0);
  });

  it('takes the question away when the user signs out', async () => {
    render(<MakeAvailableOffline query={MANIFESTS} rows={120_900} />);
    fireEvent.click(button());
    await screen.findByRole('group', { name: 'Make available offline?' });
    act(() => activateOfflineStore(null));
    expect(question()).toBeNull();
    expect(button()).toHaveProperty('disabled', true);
  });

  it('does not ask for rows a pack already holds, and names that pack', async () => {
    const db = activeDatabase()!;
    const held = await createPack(db, MANIFESTS, describeQuery(MANIFESTS));
    await runDownload(db, held.id, new AbortController().signal);
    render(<MakeAvailableOffline query={MANIFESTS} rows={120_900} />);
    fireEvent.click(button());
    expect(await screen.findByRole('status')).toHaveProperty(
      'textContent',
      'Already available offline in “All manifests”.',
    );
    expect(question()).toBeNull();
    expect(await packs()).toHaveLength(1);
  });
});

describe('in a workspace', () => {
  it('asks with the count the grid above it shows', async () => {
    freshGeneratorsWorkspace();
    const answer = <T,>(data: T) => vi.fn(() => Promise.resolve({ ok: true, data }));
    const rows = [{ epa_handler_id: 'TXD000000001', generator_name: 'Reporting Co' }];
    vi.stubGlobal('tracker', {
      generators: {
        lookup: answer({ results: [], pagination: { more: false } }),
        aggregate: answer({ epa_total: 20_000, shipped_count: 1, container_count: 1, mmc_count: 1 }),
        list: answer({ totalElements: 20_000, content: rows }),
      },
      requests: { cancel: answer(null) },
    });
    render(<GeneratorsWorkspace hidden={false} />);
    await screen.findByText('20,000 generators', undefined, { timeout: 5000 });
    fireEvent.click(button());
    const asked = await screen.findByRole('group', { name: 'Make available offline?' });
    expect(asked.textContent).toContain('Download 20,000 generators to this computer?');
  });
});
