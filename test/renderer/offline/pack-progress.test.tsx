/**
 * What a pack's progress line says at each stage of its download, and whether its bar counts: table-driven
 * over the live states the download store holds.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PackRecord } from '../../../renderer/src/offline/database.ts';
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
});
