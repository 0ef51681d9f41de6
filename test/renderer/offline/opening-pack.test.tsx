/**
 * A pack the engine is slow to open (a million manifests: about a minute) is named in the Offline banner while
 * the answers wait for it, and no longer once it is open; one that opens at once is never mentioned, and
 * signing out forgets what the last user's packs were doing.
 */
import 'fake-indexeddb/auto';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useConnectivity } from '../../../renderer/src/data/connectivity.ts';
import { sessionChanged, useSession } from '../../../renderer/src/data/session.ts';
import type { OfflineEngine } from '../../../renderer/src/offline/engine/contract.ts';
import { setOfflineEngine, type PackQuery } from '../../../renderer/src/offline/engine-seam.ts';
import { OfflineBanner } from '../../../renderer/src/offline/offline-banner.tsx';
import {
  OPENING_SAID_AFTER_MS,
  activateOfflineStore,
  activeDatabase,
  answerFromPack,
} from '../../../renderer/src/offline/offline-store.ts';
import { createPack, runDownload } from '../../../renderer/src/offline/pack-download.ts';
import { describeQuery } from '../../../renderer/src/offline/packs.ts';
import { dataset, installTracker } from './fake-tracker.ts';

const SERVER = 'http://127.0.0.1:4010';
const MANIFESTS: PackQuery = { list: 'manifests', filterFields: {}, searchKey: '' };
const REQUEST = {
  name: 'manifests.aggregate',
  input: { filterFields: {}, searchKey: '' },
} as const;

let unique = 0;
/** Lets the engine's open of the pack end. */
let finishOpening: () => void = () => undefined;

/** An engine whose opening of a pack ends when the test says; it answers nothing else of note. */
function slowEngine(): OfflineEngine {
  return {
    covers: () => true,
    openStored: () =>
      new Promise<void>((resolve) => {
        finishOpening = resolve;
      }),
    indexStored: () => Promise.reject(new Error('not in this story')),
    // The store only passes the answer on; its shape plays no part here.
    answer: () => Promise.resolve({ shipped_count: 120 } as never),
    close: () => undefined,
  };
}

const wait = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
const opening = () => screen.queryByText(/^Opening an offline pack/);

beforeEach(async () => {
  useSession.setState({ status: null, expired: false });
  useConnectivity.setState({ workOffline: true, browserOffline: false, reach: 'online' });
  installTracker(dataset(120, 10));
  const username = `inspector-${(unique += 1)}`;
  sessionChanged({ signedIn: true, username, baseUrl: SERVER }, 'signed-in');
  activateOfflineStore({ baseUrl: SERVER, username });
  const db = activeDatabase()!;
  const pack = await createPack(db, MANIFESTS, describeQuery(MANIFESTS));
  await runDownload(db, pack.id, new AbortController().signal);
  setOfflineEngine(slowEngine());
});
afterEach(() => {
  cleanup();
  setOfflineEngine(undefined);
  activateOfflineStore(null);
});

/** Asks the pack for an answer; resolves once the request is made, with the answer still to come. */
async function askThePack(): Promise<{ answer: Promise<unknown> }> {
  const db = activeDatabase()!;
  const [pack] = await db.packs.toArray();
  return { answer: answerFromPack(db, pack!, REQUEST) };
}

describe('a pack that takes a while to open', () => {
  it('is named in the Offline banner until it is open', async () => {
    render(<OfflineBanner />);
    const { answer } = await askThePack();
    await wait(OPENING_SAID_AFTER_MS + 200);
    expect(opening()?.textContent?.trim()).toBe(
      'Opening an offline pack of 120 manifests (All manifests): the first answers from it wait for this.',
    );
    finishOpening();
    await act(() => answer);
    expect(opening()).toBeNull();
  });

  it('is not mentioned when it opens at once', async () => {
    render(<OfflineBanner />);
    const { answer } = await askThePack();
    finishOpening();
    await act(() => answer);
    await wait(OPENING_SAID_AFTER_MS + 200);
    expect(opening()).toBeNull();
  });

  it('is forgotten when its user signs out', async () => {
    render(<OfflineBanner />);
    const { answer } = await askThePack();
    void answer.catch(() => undefined);
    await wait(OPENING_SAID_AFTER_MS + 200);
    expect(opening()).not.toBeNull();
    act(() => activateOfflineStore(null));
    expect(opening()).toBeNull();
    finishOpening();
  });
});
