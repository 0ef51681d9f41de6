/**
 * A download that resumes shows, from its first frame, the part it carries on with and that part's count so
 * far: never "0 / … rows" of a part it no longer needs, nor the count of a part already stored.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useConnectivity } from '../../../renderer/src/data/connectivity.ts';
import { sessionChanged } from '../../../renderer/src/data/session.ts';
import {
  startDownload,
  stopAllDownloads,
  useDownloads,
  type LiveDownload,
} from '../../../renderer/src/offline/downloads.ts';
import type { PackQuery } from '../../../renderer/src/offline/engine-seam.ts';
import { activateOfflineStore, activeDatabase } from '../../../renderer/src/offline/offline-store.ts';
import { createPack } from '../../../renderer/src/offline/pack-download.ts';
import { STOPPED } from '../../../renderer/src/offline/pack-pages.ts';
import { dataset, installTracker } from './fake-tracker.ts';

const SERVER = 'http://127.0.0.1:4010';
const ALL: PackQuery = { list: 'manifests', filterFields: {}, searchKey: '' };
/** Three pages of manifests, three batches of generators and three of their profiles. */
const DATA = dataset(1_200, 450);
/** Answers every page of rows, then none: the download stops before its generators' first page. */
const BEFORE_THE_GENERATORS = 3;
/** Answers every page of rows and generators, then none: it stops before the profiles' first batch. */
const BEFORE_THE_PROFILES = 3 + 3;
/** Answers every page of rows and generators and the first batch of profiles, then none. */
const INTO_THE_PROFILES = 3 + 3 + 1;

beforeEach(() => {
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'online' });
  const who = { signedIn: true, username: 'inspector', baseUrl: SERVER } as const;
  sessionChanged(who, 'signed-in');
  activateOfflineStore(who);
});
afterEach(async () => {
  await stopAllDownloads();
  activateOfflineStore(null);
  vi.unstubAllGlobals();
});

describe('a download that resumes', () => {
  it.each<[string, number, boolean, 'generators' | 'details']>([
    ['in its generator profiles, after the app restarted', INTO_THE_PROFILES, true, 'details'],
    ['in its generator profiles, its last progress still on screen', INTO_THE_PROFILES, false, 'details'],
    ['at its generators, its last progress still on screen', BEFORE_THE_GENERATORS, false, 'generators'],
    ['at its generator profiles, after the app restarted', BEFORE_THE_PROFILES, true, 'details'],
  ])('%s shows that part from its first frame', async (_when, answered, restarted, part) => {
    const { state } = installTracker(DATA);
    const db = activeDatabase()!;
    const pack = await createPack(db, ALL, 'All manifests');
    state.failAfter = answered;
    expect(await startDownload(pack.id)).toMatchObject({ outcome: 'stopped', reason: STOPPED.connection });
    const { parts } = (await db.progress.get(pack.id))!;
    const last = useDownloads.getState().live[pack.id]!;
    // Where it stands: its last progress, or, after a restart, what is stored (a part not begun holds
    // the profiles of every generator stored).
    const expected = restarted
      ? { part, done: parts[part]?.rows ?? 0, total: parts[part]?.total ?? parts.generators!.rows }
      : { part: last.part, done: last.done, total: last.total };
    expect(expected.part).toBe(part);
    expect(expected.total).toBeGreaterThan(0);
    if (restarted) useDownloads.setState({ live: {} });

    state.failAfter = Infinity;
    useConnectivity.setState({ reach: 'online' });
    const frames: LiveDownload[] = [];
    const unsubscribe = useDownloads.subscribe((downloads, before) => {
      const live = downloads.live[pack.id];
      if (live?.running && live !== before.live[pack.id]) frames.push(live);
    });
    try {
      expect(await startDownload(pack.id)).toEqual({ outcome: 'complete' });
    } finally {
      unsubscribe();
    }
    expect(frames[0]).toMatchObject(expected);
    // Its total, once known, stays on the line.
    expect(frames.filter((frame) => frame.part === part && frame.total !== expected.total)).toEqual([]);
    // Nothing of a part already stored whole shows on the way.
    const stages = ['rows', 'generators', 'details', 'indexes'];
    expect(frames.filter((frame) => stages.indexOf(frame.part) < stages.indexOf(part))).toEqual([]);
  });
});
