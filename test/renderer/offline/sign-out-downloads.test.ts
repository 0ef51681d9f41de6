/**
 * A download under way when another user signs in (or its user signs out): it stops at once, records that it
 * was set aside (so it resumes by itself when its user signs in again), and only then does its database
 * close; the next user finds nothing of it, and their own downloads' progress is left alone.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionChanged } from '../../../renderer/src/data/session.ts';
import { useConnectivity } from '../../../renderer/src/data/connectivity.ts';
import { openOfflineDatabase } from '../../../renderer/src/offline/database.ts';
import { startDownload, stopAllDownloads, useDownloads } from '../../../renderer/src/offline/downloads.ts';
import {
  setOfflineEngine,
  type OfflineEngine,
  type PackQuery,
} from '../../../renderer/src/offline/engine-seam.ts';
import { activateOfflineStore, activeDatabase } from '../../../renderer/src/offline/offline-store.ts';
import { createPack } from '../../../renderer/src/offline/pack-download.ts';
import { followSessionForOffline } from '../../../renderer/src/session-binding.ts';
import { dataset, installTracker } from './fake-tracker.ts';

const SERVER = 'http://127.0.0.1:4010';
const ALL: PackQuery = { list: 'manifests', filterFields: {}, searchKey: '' };
let stop: () => void = () => undefined;

function signIn(username: string) {
  sessionChanged({ signedIn: true, username, baseUrl: SERVER }, 'signed-in');
}

beforeEach(() => {
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'online' });
  stop = followSessionForOffline();
});
afterEach(async () => {
  stop();
  await stopAllDownloads();
  activateOfflineStore(null);
  setOfflineEngine(undefined);
  vi.unstubAllGlobals();
});

describe('a download when another user signs in', () => {
  it('is left interrupted, to resume by itself, before its database closes', async () => {
    const { tracker } = installTracker(dataset(1_200, 20));
    // The server's reach is probed through main; here it never answers, which nothing below waits on.
    vi.stubGlobal('tracker', {
      ...tracker,
      on: () => () => undefined,
      session: { probe: () => new Promise(() => undefined) },
    });
    signIn('inspector');
    const db = activeDatabase()!;
    const pack = await createPack(db, ALL, 'All manifests');
    // The second page never comes: the download is under way when its user signs out.
    const list = tracker.manifests.list.getMockImplementation()!;
    let asked!: () => void;
    const secondPageAsked = new Promise<void>((resolve) => (asked = resolve));
    tracker.manifests.list.mockImplementation((input) => {
      if (input.pageInfo.page === 0) return list(input);
      asked();
      return new Promise(() => undefined);
    });
    const end = startDownload(pack.id);
    await secondPageAsked;

    signIn('generators-only');
    expect(await end).toEqual({ outcome: 'paused' });
    await stopAllDownloads();
    expect(useDownloads.getState().live).toEqual({});
    const kept = openOfflineDatabase(db.name);
    try {
      expect((await kept.packs.get(pack.id))!.status).toBe('interrupted');
    } finally {
      kept.close();
    }
    expect(await activeDatabase()!.packs.count()).toBe(0);
  });
});

describe('a download that takes a while to stop', () => {
  it('leaves the next user’s download progress alone', async () => {
    const { tracker } = installTracker(dataset(1_200, 20));
    vi.stubGlobal('tracker', {
      ...tracker,
      on: () => () => undefined,
      session: { probe: () => new Promise(() => undefined) },
    });
    // The first user's pack is being indexed, which goes on to its end after its user signs out.
    let indexing!: () => void;
    let indexed!: () => void;
    const asked = new Promise<void>((resolve) => (indexing = resolve));
    const slowIndex = new Promise<void>((resolve) => (indexed = resolve));
    const engine: Pick<OfflineEngine, 'indexStored' | 'close'> = {
      indexStored: () => {
        indexing();
        return slowIndex;
      },
      close: () => undefined,
    };
    // The download touches nothing else of the engine.
    setOfflineEngine(engine as OfflineEngine);
    signIn('inspector');
    const first = await createPack(activeDatabase()!, ALL, 'All manifests');
    const firstEnd = startDownload(first.id);
    await asked;

    signIn('generators-only');
    const second = await createPack(activeDatabase()!, ALL, 'All manifests');
    const list = tracker.manifests.list.getMockImplementation()!;
    let secondPageAsked!: () => void;
    const waiting = new Promise<void>((resolve) => (secondPageAsked = resolve));
    tracker.manifests.list.mockImplementation((input) => {
      if (input.pageInfo.page === 0) return list(input);
      secondPageAsked();
      return new Promise(() => undefined);
    });
    void startDownload(second.id);
    await waiting;
    expect(useDownloads.getState().live[second.id]).toMatchObject({ part: 'rows', running: true });

    indexed();
    expect(await firstEnd).toEqual({ outcome: 'paused' });
    await vi.waitFor(() => expect(useDownloads.getState().live[first.id]).toBeUndefined());
    expect(useDownloads.getState().live[second.id]).toMatchObject({ part: 'rows', running: true });
  });
});
