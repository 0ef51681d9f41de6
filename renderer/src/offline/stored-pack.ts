/**
 * A complete pack's rows as the engine's worker reads them, straight from the user's database: the rows of
 * 100,000 manifests are then neither read from IndexedDB nor copied to the worker on the page's thread,
 * which both held it for seconds on end (bench:offline, docs/benchmarks/offline.md). The worker's own
 * connection is closed once the rows are read, so it never holds up a schema upgrade or a deletion.
 */
import { openOfflineDatabase } from './database.ts';
import type { PackRows } from './engine-seam.ts';
import { loadPackRows } from './packs.ts';

export async function readStoredPack(database: string, packId: string): Promise<PackRows> {
  const db = openOfflineDatabase(database);
  try {
    const pack = await db.packs.get(packId);
    if (!pack) throw new Error(`The offline pack "${packId}" is no longer saved.`);
    if (pack.status !== 'complete') {
      throw new Error(`The offline pack “${pack.title}” is not complete; resume its download first.`);
    }
    return await loadPackRows(db, pack);
  } finally {
    db.close();
  }
}
