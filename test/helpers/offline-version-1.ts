/**
 * Saved data as version 1 (and 2) of the offline database wrote it, for the upgrade tests: the same tables with
 * packs indexed by id only, and a pack's pages cut as version 1 cut them (rows 500 to a page, generators
 * 200, details 50). No DOM and no Node: the Node and the jsdom tests both use it.
 */
import { Dexie } from 'dexie';
import type { ChunkRecord, PackRecord, ProgressRecord } from '../../renderer/src/offline/database.ts';
import type { PackRows } from '../../renderer/src/offline/engine/contract.ts';

export const VERSION_1_PAGES = { rows: 500, generators: 200, details: 50 } as const;

export function pages<Row>(rows: readonly Row[], size: number): Row[][] {
  const out: Row[][] = [];
  for (let start = 0; start < rows.length; start += size) out.push(rows.slice(start, start + size));
  return out;
}

/** Opens (creating) a database of this name at version 1. */
export function openVersion1(name: string): Dexie {
  const db = new Dexie(name);
  db.version(1).stores({
    answers: 'key, lastUsed',
    packs: 'id',
    chunks: '[packId+part+page]',
    progress: 'packId',
    meta: 'name',
  });
  return db;
}

/** Version 2 found packs by status and cut detail pages of 200; its records were version 1's. */
export const VERSION_2_PAGES = { rows: 500, generators: 200, details: 200 } as const;

/** Opens (creating) a database of this name at version 2. */
export function openVersion2(name: string): Dexie {
  const db = openVersion1(name);
  db.version(2).stores({ packs: 'id, status' });
  return db;
}

export type Version1Pack = Omit<PackRecord, 'size' | 'rowsDone' | 'total' | 'generatorCount' | 'list'>;

/**
 * Writes a pack as version 1 stored one; `detailPages` of its detail pages are stored (all by default).
 * `cut`: the page sizes, for a later version's pack in the same records.
 */
export async function writeVersion1Pack(
  db: Dexie,
  pack: Version1Pack,
  rows: PackRows,
  detailPages?: number,
  cut: { rows: number; generators: number; details: number } = VERSION_1_PAGES,
): Promise<void> {
  const { rows: rowPage, generators: generatorPage, details: detailPage } = cut;
  const list = pack.query.list;
  const parts: [ChunkRecord['part'], unknown[][]][] =
    list === 'generators'
      ? [['rows', pages(rows.generators, rowPage)]]
      : [
          ['rows', pages(rows.manifests, rowPage)],
          ['generators', pages(rows.generators, generatorPage)],
        ];
  const details = pages(rows.details, detailPage);
  parts.push(['details', details.slice(0, detailPages ?? details.length)]);
  const progress: ProgressRecord = { packId: pack.id, parts: {} };
  let size = 0;
  for (const [part, stored] of parts) {
    const whole = part === 'details' ? details : stored;
    progress.parts[part] = {
      pages: whole.length,
      total: whole.flat().length,
      stored: stored.map((_, page) => page),
      rows: stored.flat().length,
    };
    for (const [page, chunkRows] of stored.entries()) {
      const chunkSize = JSON.stringify(chunkRows).length;
      size += chunkSize;
      await db.table('chunks').put({ packId: pack.id, part, page, rows: chunkRows, size: chunkSize });
    }
  }
  const listRows = list === 'generators' ? rows.generators : rows.manifests;
  await db.table('progress').put(progress);
  await db.table('packs').put({
    ...pack,
    list,
    size,
    total: listRows.length,
    rowsDone: listRows.length,
    generatorCount: rows.generators.length,
  });
}
