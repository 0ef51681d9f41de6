/**
 * What a pack's progress line says at each stage of its download, and whether its bar counts; and which of
 * Pause and Resume it offers (never both), with why it stopped: table-driven over the live states the
 * download store holds.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useConnectivity } from '../../../renderer/src/data/connectivity.ts';
import type { PackRecord, PackStatus } from '../../../renderer/src/offline/database.ts';
import { useDownloads, type LiveDownload } from '../../../renderer/src/offline/downloads.ts';
import { PackProgress } from '../../../renderer/src/offline/pack-progress.tsx';

const PACK: PackRecord = {
  id: 'pack-1',
  list: 'manifests',
  query: { list: 'manifests', filterFields: {}, searchKey: '' },
  title: 'All manifests',
  status: 'downloading',
  createdAt: 0,
  total: 100_000,
  rowsDone: 40_000,
  generatorCount: 0,
  size: 0,
};

afterEach(() => {
  cleanup();
  useDownloads.setState({ live: {} });
  useConnectivity.setState({ workOffline: false, reach: 'online' });
});

const running = (live: Omit<LiveDownload, 'running'>): LiveDownload => ({ ...live, running: true });

describe('a pack download’s progress line', () => {
  it.each<[string, LiveDownload | undefined, string, number | undefined]>([
    ['not running', undefined, '40,000 of 100,000 rows stored', 40_000],
    [
      'storing rows',
      running({ part: 'rows', done: 52_000, total: 100_000, rate: 6_400 }),
      '52,000 / 100,000 rows · 6,400 rows/s · 8 s left',
      52_000,
    ],
    [
      'its first page not yet in',
      running({ part: 'rows', done: 0, total: undefined, rate: undefined }),
      '0 / … rows',
      0,
    ],
    [
      'storing generator profiles',
      running({ part: 'details', done: 2_000, total: 10_000, rate: undefined }),
      '2,000 / 10,000 generator profiles',
      2_000,
    ],
    [
      'storing generator profiles at a measured rate',
      running({ part: 'details', done: 2_000, total: 10_000, rate: 400 }),
      '2,000 / 10,000 generator profiles · 400 profiles/s · 20 s left',
      2_000,
    ],
    [
      'storing the generators its manifests name',
      running({ part: 'generators', done: 1_200, total: 2_800, rate: 800 }),
      '1,200 / 2,800 generators · 800 generators/s · 2 s left',
      1_200,
    ],
    [
      'indexing the stored pack',
      running({ part: 'indexes', done: 0, total: undefined, rate: undefined }),
      'Every row stored · preparing offline search',
      undefined,
    ],
  ])('%s', (_stage, live, words, barValue) => {
    if (live) useDownloads.setState({ live: { [PACK.id]: live } });
    render(<PackProgress pack={PACK} />);
    expect(screen.getByText(words)).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Download of All manifests' });
    // A bar without a value is indeterminate: it moves without claiming a count.
    expect(bar.hasAttribute('value') ? Number(bar.getAttribute('value')) : undefined).toBe(barValue);
  });

  it('says it waits for the server, not a rate and a time left, while a request hangs', () => {
    useDownloads.setState({
      live: { [PACK.id]: running({ part: 'rows', done: 52_000, total: 100_000, rate: 6_400 }) },
    });
    useConnectivity.setState({ reach: 'doubtful' });
    render(<PackProgress pack={PACK} />);
    expect(screen.getByText('52,000 / 100,000 rows · waiting for the server to answer')).toBeTruthy();
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['Pause']);
    act(() => {
      useConnectivity.setState({ reach: 'online' });
    });
    expect(screen.getByText('52,000 / 100,000 rows · 6,400 rows/s · 8 s left')).toBeTruthy();
  });
});

describe('a pack download’s controls', () => {
  const STALLED = 'The connection was lost; the download resumes when the server answers again.';
  it.each<[string, PackStatus, LiveDownload | undefined, string[], string | undefined]>([
    [
      'running',
      'downloading',
      running({ part: 'rows', done: 1, total: 9, rate: undefined }),
      ['Pause'],
      undefined,
    ],
    [
      'stopped by a server that does not answer, waiting to resume by itself',
      'interrupted',
      { part: 'rows', done: 1, total: 9, rate: undefined, running: false, stopped: STALLED },
      ['Pause'],
      STALLED,
    ],
    ['cut short by closing the app', 'downloading', undefined, ['Pause'], undefined],
    ['paused by the user', 'paused', undefined, ['Resume'], undefined],
  ])('%s', (_state, status, live, buttons, why) => {
    if (live) useDownloads.setState({ live: { [PACK.id]: live } });
    render(<PackProgress pack={{ ...PACK, status }} />);
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(buttons);
    if (why === undefined) expect(screen.queryByRole('alert')).toBeNull();
    else expect(screen.getByRole('alert').textContent).toBe(why);
  });

  it('offline, Resume says why it cannot download', () => {
    useConnectivity.setState({ workOffline: true });
    render(<PackProgress pack={{ ...PACK, status: 'paused' }} />);
    const resume = screen.getByRole('button', { name: 'Resume' });
    expect(resume.hasAttribute('disabled')).toBe(true);
    expect(resume.getAttribute('title')).toMatch(/working offline/);
  });
});
