/**
 * "Sign out and remove my data": when main's sign-out event asks for it, the user's database of saved pages
 * and offline packs is deleted from IndexedDB, their workspaces' filters and searches are forgotten, and the
 * exports panel is emptied; another user's data on the same computer stays. A plain sign-out keeps it all.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionChanged, useSession } from '../../renderer/src/data/session.ts';
import { useExports } from '../../renderer/src/exports/export-store.ts';
import { databaseName, openOfflineDatabase } from '../../renderer/src/offline/database.ts';
import {
  activateOfflineStore,
  activePageCache,
  useOfflineStore,
} from '../../renderer/src/offline/offline-store.ts';
import { followDataRemoval } from '../../renderer/src/remove-user-data.ts';
import { useGeneratorWorkspace } from '../../renderer/src/workspaces/generators.tsx';

const SERVER = 'http://127.0.0.1:4010';
let unique = 0;
let stop: () => void = () => undefined;

async function databases(): Promise<string[]> {
  return (await indexedDB.databases()).map((database) => database.name ?? '');
}

/**
 * Signs `username` in as main would say (`alone`: on this computer alone, the server out of reach), opens
 * their database, and saves a page and a pack in it.
 */
async function signedInWithData(username: string, alone = false): Promise<string> {
  sessionChanged(
    alone
      ? { signedIn: false, offline: true, username, baseUrl: SERVER }
      : { signedIn: true, username, baseUrl: SERVER },
    'signed-in',
  );
  activateOfflineStore({ baseUrl: SERVER, username });
  await activePageCache()?.write('generators.list {}', {
    data: { totalElements: 0, content: [] },
    fetchedAt: 1,
  });
  const db = openOfflineDatabase(databaseName(SERVER, username));
  await db.packs.put({
    id: 'pack-1',
    list: 'manifests',
    query: { list: 'manifests', filterFields: {}, searchKey: 'acme' },
    title: 'Manifests matching “acme”',
    status: 'complete',
    createdAt: 1,
    total: 0,
    rowsDone: 0,
    generatorCount: 0,
    size: 0,
  });
  db.close();
  useGeneratorWorkspace.getState().setSearchKey('acme chemical');
  useExports.getState().started('0b8f0a2c-3c2e-4a55-9d8e-3b1f6f0d2a11', 'Manifests to Excel');
  return databaseName(SERVER, username);
}

beforeEach(() => {
  stop = followDataRemoval((error) => {
    throw error;
  });
});
afterEach(() => {
  stop();
  activateOfflineStore(null);
  useSession.setState({ status: null, expired: false, removeDataOf: null });
});

describe('removing a user’s data at sign-out', () => {
  it('deletes their database, filters and searches, and keeps another user’s', async () => {
    unique += 1;
    const other = await signedInWithData(`colleague-${unique}`);
    activateOfflineStore(null);
    const mine = await signedInWithData(`inspector-${unique}`);
    expect(await databases()).toEqual(expect.arrayContaining([mine, other]));

    sessionChanged({ signedIn: false, baseUrl: SERVER }, 'signed-out', true);
    await expect.poll(databases).not.toContain(mine);
    expect(await databases()).toContain(other);
    expect(useOfflineStore.getState().name).toBeNull();
    expect(useGeneratorWorkspace.getState().searchKey).toBe('');
    expect(useExports.getState().entries).toEqual([]);
    expect(useSession.getState().removeDataOf).toBeNull();
  });

  it('deletes the data of a user signed in on this computer alone too', async () => {
    unique += 1;
    const mine = await signedInWithData(`inspector-${unique}`, true);
    sessionChanged({ signedIn: false, baseUrl: SERVER }, 'signed-out', true);
    await expect.poll(databases).not.toContain(mine);
    expect(useGeneratorWorkspace.getState().searchKey).toBe('');
  });

  it('keeps everything at a plain sign-out', async () => {
    unique += 1;
    const mine = await signedInWithData(`inspector-${unique}`);
    sessionChanged({ signedIn: false, baseUrl: SERVER }, 'signed-out');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await databases()).toContain(mine);
    expect(useGeneratorWorkspace.getState().searchKey).toBe('acme chemical');
  });
});
