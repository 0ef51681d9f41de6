/**
 * UI state kept per user: filters, search and sort, and where the user was, belong to the signed-in server
 * and user. The next user on the same browser profile starts from their own (or the defaults), never the
 * last user's; switching back brings each user's own; nobody signed in reads and writes nothing; and state
 * saved before it was kept per user goes, once, to the first user who signs in.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GeneratorFilterFields } from '../../shared/api/index.ts';
import { databaseName } from '../../renderer/src/offline/database.ts';
import { useNavigation } from '../../renderer/src/state/navigation.ts';
import { setStateOwner } from '../../renderer/src/state/user-storage.ts';
import { createWorkspaceStore } from '../../renderer/src/state/workspace-store.ts';

const SERVER = 'http://127.0.0.1:4010';
const ALICE = { baseUrl: SERVER, username: 'alice' };
const BOB = { baseUrl: SERVER, username: 'bob' };

let unique = 0;
let name: string;

beforeEach(() => {
  localStorage.clear();
  setStateOwner(null);
  name = `test-${(unique += 1)}`;
});
afterEach(() => setStateOwner(null));

describe('UI state kept per user', () => {
  it('gives each user their own filters, search and sort, and the next user the defaults', () => {
    const store = createWorkspaceStore(name, GeneratorFilterFields);
    setStateOwner(ALICE);
    store.getState().setMember('states', ['TX']);
    store.getState().setSearchKey('acme');
    store.getState().setSort({ field: 'generator_name', direction: 'desc' });
    useNavigation.getState().setView('manifests');

    setStateOwner(BOB);
    expect(store.getState()).toMatchObject({ filterFields: {}, searchKey: '', sort: undefined });
    expect(useNavigation.getState().view).toBe('generators');
    store.getState().setSearchKey('bolt');

    setStateOwner(ALICE);
    expect(store.getState()).toMatchObject({
      filterFields: { states: ['TX'] },
      searchKey: 'acme',
      sort: { field: 'generator_name', direction: 'desc' },
    });
    expect(useNavigation.getState().view).toBe('manifests');
    setStateOwner(BOB);
    expect(store.getState().searchKey).toBe('bolt');
    expect(
      localStorage.getItem(`waste-tracker.workspace.${name} ${databaseName(SERVER, 'alice')}`),
    ).toContain('acme');
  });

  it('reads and writes nothing while nobody is signed in', () => {
    const store = createWorkspaceStore(name, GeneratorFilterFields);
    setStateOwner(ALICE);
    store.getState().setSearchKey('acme');
    setStateOwner(null);
    expect(store.getState().searchKey).toBe('');
    const keys = Object.keys(localStorage);
    store.getState().setSearchKey('typed while signed out');
    expect(Object.keys(localStorage)).toEqual(keys);
  });

  it('hands state saved for the whole profile to the first user who signs in, once', () => {
    localStorage.setItem(
      `waste-tracker.workspace.${name}`,
      JSON.stringify({
        state: { filterFields: {}, searchKey: 'kept from before', pickedTexts: {} },
        version: 1,
      }),
    );
    const store = createWorkspaceStore(name, GeneratorFilterFields);
    setStateOwner(ALICE);
    expect(store.getState().searchKey).toBe('kept from before');
    expect(localStorage.getItem(`waste-tracker.workspace.${name}`)).toBeNull();
    setStateOwner(BOB);
    expect(store.getState().searchKey).toBe('');
    setStateOwner(ALICE);
    expect(store.getState().searchKey).toBe('kept from before');
  });
});
