/**
 * A pack as the engine's worker reads and indexes it, straight from the user's database: the rows of 100,000
 * manifests are then neither read from IndexedDB nor copied to the worker on the page's thread, which both
 * held it for seconds on end (bench:offline, docs/benchmarks/offline.md). The worker's own connection is
 * closed after each read or write, so it never holds up a schema upgrade or a deletion.
 */
import { openOfflineDatabase, packIndexParts, type OfflineDatabase } from './database.ts';
import { indexBytes } from './engine/pack-indexes.ts';
import type { PackIndexes, StoredPack } from './engine-seam.ts';
import { cutIndexes, joinIndexes } from './index-parts.ts';
import { loadPackRows } from './packs.ts';

/** The pack's stored indexes, whole again from their record and its parts; undefined when it has none. */
async function readIndexes(db: OfflineDatabase, packId: string): Promise<PackIndexes | undefined> {
  const record = await db.packIndexes.get(packId);
  if (!record) return undefined;
  if (!record.parts) return record.indexes as PackIndexes;
  const parts = (await packIndexParts(db, packId).toArray()).map((part) => part.value);
  // Parts missing, left over or not of their kind (never expected: they are written with their record) leave
  // the pack to build its indexes again, as a pack without them does, rather than fail to open.
  if (parts.length !== record.parts) return undefined;
  try {
    return joinIndexes<PackIndexes>(record.indexes, parts);
  } catch {
    return undefined;
  }
}

/**
 * The pack's rows and its stored indexes, if any, read side by side. `unfinished`: a pack whose parts are
 * all stored but which is not yet marked complete (its download indexes it first) may be read too.
 */
export async function readStoredPack(
  database: string,
  packId: string,
  { unfinished = false } = {},
): Promise<StoredPack> {
  const db = openOfflineDatabase(database);
  try {
    const pack = await db.packs.get(packId);
    if (!pack) throw new Error(`The offline pack "${packId}" is no longer saved.`);
    if (pack.status !== 'complete' && !unfinished) {
      throw new Error(`The offline pack “${pack.title}” is not complete; resume its download first.`);
    }
    const [rows, indexes] = await Promise.all([loadPackRows(db, pack), readIndexes(db, packId)]);
    return { rows, ...(indexes ? { indexes } : {}) };
  } finally {
    db.close();
  }
}

/**
 * Stores a pack's indexes in place of any it had, their long values in parts (index-parts.ts), and counts them
 * in its size; nothing when the pack is gone (deleted, or replaced by a refresh, while they were built).
 */
export async function saveStoredIndexes(
  database: string,
  packId: string,
  indexes: PackIndexes,
): Promise<void> {
  const db = openOfflineDatabase(database);
  try {
    const { shell, parts } = cutIndexes(indexes);
    await db.transaction('rw', db.packs, db.packIndexes, db.packIndexParts, async () => {
      const pack = await db.packs.get(packId);
      if (!pack) return;
      const size = indexBytes(indexes);
      await packIndexParts(db, packId).delete();
      await db.packIndexParts.bulkPut(parts.map((value, part) => ({ packId, part, value })));
      await db.packIndexes.put({
        packId,
        indexes: shell,
        ...(parts.length > 0 ? { parts: parts.length } : {}),
      });
      await db.packs.update(packId, { size: pack.size - (pack.indexSize ?? 0) + size, indexSize: size });
    });
  } finally {
    db.close();
  }
}
