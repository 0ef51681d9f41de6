/**
 * The grid's legend for the rows a pack's refresh brought lists them on demand, read from the pack: the new
 * before the changed, each with what it is (generator, shipped date), and a key that shows its row in the
 * grid; at most its limit of them, saying how many there are in all. It lists the rows the workspace marks,
 * those the grid has already shown (and noted as seen in the packs) included, as they are still marked on
 * screen.
 */
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useConnectivity } from '../../../renderer/src/data/connectivity.ts';
import { sessionChanged, useSession } from '../../../renderer/src/data/session.ts';
import type { PackQuery } from '../../../renderer/src/offline/engine-seam.ts';
import { MarkedRowsLegend } from '../../../renderer/src/offline/marked-rows-legend.tsx';
import { activateOfflineStore, activeDatabase } from '../../../renderer/src/offline/offline-store.ts';
import { markSeen, markedRowList, markedRows } from '../../../renderer/src/offline/pack-changes.ts';
import { createPack, runDownload } from '../../../renderer/src/offline/pack-download.ts';
import { describeQuery, listPacks } from '../../../renderer/src/offline/packs.ts';
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
    const db = activeDatabase()!;
    const marks = markedRows(await listPacks(db), 'manifests');
    // The grid has shown them all already: the packs hold them as seen, the workspace keeps them marked.
    await markSeen(db, 'manifests', [...marks.keys()]);
    expect(markedRows(await listPacks(db), 'manifests').size).toBe(0);
    render(<MarkedRowsLegend list="manifests" noun="manifests" marks={marks} onShow={onShow} />);
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

  it('reads at most its limit and says how many are marked in all', async () => {
    const db = activeDatabase()!;
    const marks = markedRows(await listPacks(db), 'manifests');
    const some = await markedRowList(db, 'manifests', marks, 3);
    expect(some.total).toBe(6);
    // The first three in the pack's order, the new before the changed.
    const order = some.rows.map((row) => row.mark);
    expect(order).toHaveLength(3);
    expect(order).toEqual([...order].sort((a, b) => Number(a === 'changed') - Number(b === 'changed')));
    for (const row of some.rows) expect(row.mark === 'changed' ? [changed] : added).toContain(row.key);
    // Rows seen since the workspace opened leave the marks it reads the next time it opens.
    await markSeen(db, 'manifests', [changed, added[0]!]);
    const left = await markedRowList(db, 'manifests', markedRows(await listPacks(db), 'manifests'), 100);
    expect(left.total).toBe(4);
    expect(left.rows.map((row) => row.key).sort()).toEqual(added.slice(1).sort());
  });
});
