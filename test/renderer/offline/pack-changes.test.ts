/**
 * What a pack's refresh brought: a refresh of a pack after the server gained rows and changed others says
 * how many of each since the last sync, marks exactly those rows, and a row the grid has shown is marked no
 * longer, in the packs as stored.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionChanged, useSession } from '../../../renderer/src/data/session.ts';
import { useConnectivity } from '../../../renderer/src/data/connectivity.ts';
import { openOfflineDatabase, type OfflineDatabase } from '../../../renderer/src/offline/database.ts';
import type { PackQuery } from '../../../renderer/src/offline/engine-seam.ts';
import {
  describeChanges,
  fingerprint,
  markSeen,
  markedRows,
} from '../../../renderer/src/offline/pack-changes.ts';
import { createPack, runDownload } from '../../../renderer/src/offline/pack-download.ts';
import { describeQuery, listPacks } from '../../../renderer/src/offline/packs.ts';
import { dataset, installTracker } from './fake-tracker.ts';

const MANIFESTS: PackQuery = { list: 'manifests', filterFields: {}, searchKey: '' };

let db: OfflineDatabase;
let unique = 0;

beforeEach(() => {
  db = openOfflineDatabase(`changes-${(unique += 1)}`);
  useSession.setState({ status: null, expired: false });
  sessionChanged({ signedIn: true, username: 'inspector', baseUrl: 'http://127.0.0.1:1' }, 'signed-in');
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'online' });
});
afterEach(() => {
  db.close();
  vi.restoreAllMocks();
});

async function download(query: PackQuery, replaces?: string) {
  const pack = await createPack(db, query, describeQuery(query), replaces);
  expect(await runDownload(db, pack.id, new AbortController().signal)).toEqual({ outcome: 'complete' });
  return (await db.packs.get(pack.id))!;
}

describe('a pack refresh', () => {
  it('counts and marks the new and the changed rows since the last sync, and forgets a row once seen', async () => {
    // More rows than one page, so both copies are read over several chunks.
    const data = dataset(1250, 40);
    installTracker(data);
    const first = await download(MANIFESTS);
    expect(first.changes).toBeUndefined();

    const added = dataset(1290, 40).manifests.slice(1250);
    data.manifests.push(...added);
    const changed = [data.manifests[3]!, data.manifests[1100]!];
    for (const row of changed) row.total_waste_quantity_tons = 9.25;

    const refreshed = await download(MANIFESTS, first.id);
    const key = (row: { manifest_tracking_number?: string }) => row.manifest_tracking_number!;
    expect(refreshed.changes).toMatchObject({ since: first.refreshedAt, added: 40, changed: 2 });
    expect([...refreshed.changes!.unseenAdded].sort()).toEqual(added.map(key).sort());
    expect([...refreshed.changes!.unseenChanged].sort()).toEqual(changed.map(key).sort());
    expect(describeChanges('manifests', refreshed.changes!)).toMatch(
      /^40 new manifests, 2 changed since \d{4}-\d\d-\d\d \d\d:\d\d$/,
    );

    const marks = markedRows(await listPacks(db), 'manifests');
    expect(marks.size).toBe(42);
    expect(marks.get(key(added[0]!))).toBe('new');
    expect(marks.get(key(changed[0]!))).toBe('changed');
    expect(markedRows(await listPacks(db), 'generators').size).toBe(0);

    await markSeen(db, 'manifests', [key(added[0]!), key(changed[1]!), key(data.manifests[7]!)]);
    const left = markedRows(await listPacks(db), 'manifests');
    expect(left.size).toBe(40);
    expect(left.has(key(added[0]!))).toBe(false);
    expect(left.has(key(changed[1]!))).toBe(false);
    // The counts of what the refresh brought stay for the Offline data screen.
    expect((await db.packs.get(refreshed.id))!.changes).toMatchObject({ added: 40, changed: 2 });
  });

  it('keeps the marks of an earlier refresh the grid has not shown yet when the next one brings less', async () => {
    const data = dataset(300, 20);
    installTracker(data);
    const key = (row: { manifest_tracking_number?: string }) => row.manifest_tracking_number!;
    const first = await download(MANIFESTS);
    const added = dataset(310, 20).manifests.slice(300);
    data.manifests.push(...added);
    const changed = data.manifests[5]!;
    changed.total_waste_quantity_tons = 4.5;
    const second = await download(MANIFESTS, first.id);
    await markSeen(db, 'manifests', [key(added[0]!)]);

    // The next refresh: one of the new rows changed again, one left the server, and nothing else moved.
    added[1]!.total_waste_quantity_tons = 7.25;
    data.manifests.splice(data.manifests.indexOf(added[2]!), 1);
    const third = await download(MANIFESTS, second.id);
    expect(third.changes).toMatchObject({ since: second.refreshedAt, added: 0, changed: 1 });
    const marks = markedRows(await listPacks(db), 'manifests');
    expect(Object.fromEntries(marks)).toEqual(
      Object.fromEntries([
        ...added.slice(1).flatMap((row, index) => (index === 1 ? [] : [[key(row), 'new']])),
        [key(changed), 'changed'],
      ]),
    );
  });

  it('says when it brought nothing, and words one row in the singular', () => {
    const since = new Date(2026, 10, 20, 9, 5).getTime();
    const none = { since, added: 0, changed: 0, unseenAdded: [], unseenChanged: [] };
    expect(describeChanges('generators', none)).toBe('No new or changed generators since 2026-11-20 09:05');
    expect(describeChanges('manifests', { ...none, added: 1 })).toBe('1 new manifest since 2026-11-20 09:05');
    expect(describeChanges('manifests', { ...none, changed: 1 })).toBe(
      '1 manifest changed since 2026-11-20 09:05',
    );
    expect(describeChanges('manifests', { ...none, added: 1200, changed: 3 })).toBe(
      '1,200 new manifests, 3 changed since 2026-11-20 09:05',
    );
  });

  it('tells rows apart by their JSON', () => {
    expect(fingerprint('{"a":1}')).toBe(fingerprint('{"a":1}'));
    expect(fingerprint('{"a":1}')).not.toBe(fingerprint('{"a":2}'));
    expect(fingerprint('')).not.toBe(fingerprint(' '));
  });
});
