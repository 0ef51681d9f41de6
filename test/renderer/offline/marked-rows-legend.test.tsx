/**
 * The grid's legend for the rows a pack's refresh brought lists them on demand, read from the pack: the new
 * before the changed, each with what it is (generator, shipped date), and a key that shows its row in the
 * grid; at most its limit of them, saying how many there are in all; rows seen leave it.
 */
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useConnectivity } from '../../../renderer/src/data/connectivity.ts';
import { sessionChanged, useSession } from '../../../renderer/src/data/session.ts';
import type { PackQuery } from '../../../renderer/src/offline/engine-seam.ts';
import { MarkedRowsLegend } from '../../../renderer/src/offline/marked-rows-legend.tsx';
import { activateOfflineStore, activeDatabase } from '../../../renderer/src/offline/offline-store.ts';
import { markSeen, markedRowList } from '../../../renderer/src/offline/pack-changes.ts';
import { createPack, runDownload } from '../../../renderer/src/offline/pack-download.ts';
import { describeQuery } from '../../../renderer/src/offline/packs.ts';
import { dataset, installTracker, type Dataset } from './fake-tracker.ts';

const SERVER = 'http://127.0.0.1:4010';
const ALL: PackQuery = { list: 'manifests', filterFields: {}, searchKey: '' };

let unique = 0;
let data: Dataset;
/** Tracking numbers the refresh brought, and the one it changed. */
let added: string[];
let changed: string;

async function download(replaces?: string): Promise<string> {
  const db = activeDatabase()!;
  const pack = await createPack(db, ALL, describeQuery(ALL), replaces);
  expect(await runDownload(db, pack.id, new AbortController().signal)).toEqual({ outcome: 'complete' });
  return pack.id;
}

beforeEach(async () => {
  useSession.setState({ status: null, expired: false });
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'online' });
  data = dataset(300, 10);
  installTracker(data);
  const username = `inspector-marked-${(unique += 1)}`;
  sessionChanged({ signedIn: true, username, baseUrl: SERVER }, 'signed-in');
  activateOfflineStore({ baseUrl: SERVER, username });
  const first = await download();
  const more = dataset(305, 10).manifests.slice(300);
  data.manifests.push(...more);
  added = more.map((row) => row.manifest_tracking_number!);
  const old = data.manifests[250]!;
  old.total_waste_quantity_tons = 9.25;
  changed = old.manifest_tracking_number!;
  await download(first);
});
afterEach(() => {
  cleanup();
  activateOfflineStore(null);
});

describe('the marked rows’ list', () => {
  it('lists the new rows, then the changed, each with a key that shows it in the grid', async () => {
    const onShow = vi.fn();
    render(<MarkedRowsLegend list="manifests" noun="manifests" onShow={onShow} />);
    fireEvent.click(screen.getByRole('button', { name: 'List them' }));
    const list = await screen.findByRole('region', { name: 'Marked manifests' });
    const items = await within(list).findAllByRole('listitem');
    expect(items.map((item) => item.textContent?.split(' ')[0])).toEqual([
      'New',
      'New',
      'New',
      'New',
      'New',
      'Changed',
    ]);
    const keys = items.map((item) => within(item).getByRole('button').textContent);
    expect(keys.slice(0, 5).sort()).toEqual([...added].sort());
    expect(keys[5]).toBe(changed);
    const row = data.manifests[250]!;
    expect(items[5]!.textContent).toBe(
      `Changed ${changed} ${row.generator_name} · shipped ${row.shipped_date}`,
    );

    fireEvent.click(within(list).getByRole('button', { name: `Show ${changed} in the grid` }));
    expect(onShow).toHaveBeenCalledWith(changed);
    fireEvent.click(screen.getByRole('button', { name: 'Hide the list' }));
    expect(screen.queryByRole('region', { name: 'Marked manifests' })).toBeNull();
  });

  it('reads at most its limit, says how many are marked in all, and leaves out the rows seen', async () => {
    const db = activeDatabase()!;
    const some = await markedRowList(db, 'manifests', 3);
    expect(some.total).toBe(6);
    // The first three in the pack's order, the new before the changed.
    const marks = some.rows.map((row) => row.mark);
    expect(marks).toHaveLength(3);
    expect(marks).toEqual([...marks].sort((a, b) => Number(a === 'changed') - Number(b === 'changed')));
    for (const row of some.rows) expect(row.mark === 'changed' ? [changed] : added).toContain(row.key);
    await markSeen(db, 'manifests', [changed, added[0]!]);
    const left = await markedRowList(db, 'manifests', 100);
    expect(left.total).toBe(4);
    expect(left.rows.map((row) => row.key).sort()).toEqual(added.slice(1).sort());
  });
});
