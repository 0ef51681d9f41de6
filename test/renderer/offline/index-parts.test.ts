/**
 * A pack's indexes stored in parts the browser accepts: Chromium refuses one IndexedDB value over 127 MiB,
 * and a pack of the 1M demo manifests has 223 MiB of indexes. Cut into parts and joined again they are the
 * same indexes, the engine's own included; a pack's parts are stored, read and deleted with it; indexes stored
 * whole (database version 3) still read.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../shared/api/index.ts';
import { sessionChanged, useSession } from '../../../renderer/src/data/session.ts';
import {
  openOfflineDatabase,
  packIndexParts,
  type OfflineDatabase,
} from '../../../renderer/src/offline/database.ts';
import type { PackIndexes, PackQuery } from '../../../renderer/src/offline/engine/contract.ts';
import { openPack } from '../../../renderer/src/offline/engine/open-pack.ts';
import { joinTexts } from '../../../renderer/src/offline/engine/joined-texts.ts';
import { PART_BYTES, cutIndexes, joinIndexes } from '../../../renderer/src/offline/index-parts.ts';
import { createPack, runDownload } from '../../../renderer/src/offline/pack-download.ts';
import { deletePack, describeQuery, loadPackRows } from '../../../renderer/src/offline/packs.ts';
import { readStoredPack, saveStoredIndexes } from '../../../renderer/src/offline/stored-pack.ts';
import { dataset, installTracker } from './fake-tracker.ts';

const MANIFESTS: PackQuery = { list: 'manifests', filterFields: {}, searchKey: '' };

let db: OfflineDatabase;
let unique = 0;

beforeEach(() => {
  db = openOfflineDatabase(`index-parts-${(unique += 1)}`);
  useSession.setState({ status: null, expired: false });
  sessionChanged({ signedIn: true, username: 'inspector', baseUrl: 'http://127.0.0.1:1' }, 'signed-in');
  installTracker(dataset(LIMITS.pageSizeMax + 37, 40));
});
afterEach(() => db.close());

/** A complete pack of the fake dataset, and the engine's indexes of it. */
async function packWithIndexes(): Promise<{ packId: string; indexes: PackIndexes }> {
  const pack = await createPack(db, MANIFESTS, describeQuery(MANIFESTS));
  await runDownload(db, pack.id, new AbortController().signal);
  const rows = await loadPackRows(db, (await db.packs.get(pack.id))!);
  return { packId: pack.id, indexes: openPack(rows).indexes() };
}

/** Every string and typed array in a value, however deep. */
function leaves(value: unknown): (string | ArrayBufferView)[] {
  if (typeof value === 'string' || ArrayBuffer.isView(value)) return [value];
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(leaves);
  return [];
}
/**
 * A value with each typed array as its kind and numbers: a structured clone (IndexedDB's, here
 * fake-indexeddb's) makes typed arrays of another realm, which equal ones of this realm in nothing else.
 */
function plain(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) {
    return { [value.constructor.name]: Array.from(value as unknown as ArrayLike<number>) };
  }
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, plain(child)]));
  }
  return value;
}

const bytesOf = (leaf: string | ArrayBufferView) =>
  typeof leaf === 'string' ? leaf.length * 2 : leaf.byteLength;

describe('a pack’s indexes in parts', () => {
  it('come back the same from parts of any size, each within its size, none left in the shell', async () => {
    const { indexes } = await packWithIndexes();
    for (const partBytes of [64, 1000, 4096]) {
      const { shell, parts } = cutIndexes(indexes, partBytes);
      expect(parts.length).toBeGreaterThan(0);
      for (const part of parts) expect(bytesOf(part)).toBeLessThanOrEqual(partBytes);
      for (const leaf of leaves(shell)) expect(bytesOf(leaf)).toBeLessThanOrEqual(partBytes);
      const joined = joinIndexes<PackIndexes>(structuredClone(shell), structuredClone(parts));
      expect(plain(joined)).toEqual(plain(indexes));
      expect(openPack(await loadPackRows(db, (await db.packs.toArray())[0]!), joined).fromStored).toBe(true);
    }
  });

  it('need no parts while every value fits in one', async () => {
    const { indexes } = await packWithIndexes();
    expect(cutIndexes(indexes).parts).toEqual([]);
  });

  it('are stored in parts past a part’s size, read back whole, and deleted with their pack', async () => {
    const { packId, indexes } = await packWithIndexes();
    // A search text of 20 M characters: more than two parts' worth, as a pack of a million manifests has.
    const long = 'x'.repeat(20 * 1024 * 1024 - 1);
    const large: PackIndexes = {
      ...indexes,
      table: { ...indexes.table, folded: joinTexts([long]) },
    };
    await saveStoredIndexes(db.name, packId, large);
    const record = await db.packIndexes.get(packId);
    expect(record?.parts).toBe(Math.ceil((long.length + 1) / (PART_BYTES / 2)));
    expect(await packIndexParts(db, packId).count()).toBe(record?.parts);
    const stored = await readStoredPack(db.name, packId);
    expect(stored.indexes?.table.folded.text.length).toBe(long.length + 1);
    expect(plain(stored.indexes)).toEqual(plain(large));

    // Smaller indexes stored in their place leave no parts of the larger ones behind.
    await saveStoredIndexes(db.name, packId, indexes);
    expect(await packIndexParts(db, packId).count()).toBe(0);
    expect(plain((await readStoredPack(db.name, packId)).indexes)).toEqual(plain(indexes));

    await saveStoredIndexes(db.name, packId, large);
    await deletePack(db, packId);
    expect(await db.packIndexParts.count()).toBe(0);
  });

  it('stored whole, as database version 3 stored them, still read', async () => {
    const { packId, indexes } = await packWithIndexes();
    await db.packIndexes.put({ packId, indexes });
    expect(plain((await readStoredPack(db.name, packId)).indexes)).toEqual(plain(indexes));
  });

  it('missing a part, are not read: the pack builds them again, as one without any does', async () => {
    const { packId, indexes } = await packWithIndexes();
    const large: PackIndexes = {
      ...indexes,
      table: { ...indexes.table, folded: joinTexts(['y'.repeat(PART_BYTES)]) },
    };
    await saveStoredIndexes(db.name, packId, large);
    await db.packIndexParts.delete([packId, 0]);
    expect((await readStoredPack(db.name, packId)).indexes).toBeUndefined();
  });

  it('with a part not of its kind, are not read either', async () => {
    const { packId, indexes } = await packWithIndexes();
    const large: PackIndexes = {
      ...indexes,
      table: { ...indexes.table, byKey: new Int32Array(PART_BYTES / 4 + 1) },
    };
    await saveStoredIndexes(db.name, packId, large);
    await db.packIndexParts.put({ packId, part: 0, value: 'not numbers' });
    expect((await readStoredPack(db.name, packId)).indexes).toBeUndefined();
  });
});
