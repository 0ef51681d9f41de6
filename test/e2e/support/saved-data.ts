/**
 * What the app saved in the page's IndexedDB, read with the browser's own API (never through the code
 * under test): database names, the page cache's keys, and each pack's record and stored rows.
 */
import type { Page } from '@playwright/test';

export interface StoredPack {
  id: string;
  title: string;
  status: string;
  total: number;
  /** Public keys of the stored list rows, every copy counted. */
  rowKeys: string[];
  generatorIds: string[];
  detailIds: string[];
}

export interface SavedData {
  databases: string[];
  answers: string[];
  packs: StoredPack[];
}

/** The page's IndexedDB, seen from the test's types (which have no DOM). */
type Req<T> = { result: T; onsuccess: (() => void) | null; onerror: (() => void) | null };
type Store = { getAll(): Req<unknown[]>; getAllKeys(): Req<unknown[]> };
type Database = {
  transaction(store: string, mode: 'readonly'): { objectStore(store: string): Store };
  close(): void;
};
type Factory = { databases(): Promise<{ name?: string }[]>; open(name: string): Req<Database> };

/** Reads the saved data of the one database whose name holds `username`. */
export function savedData(page: Page, username: string): Promise<SavedData> {
  return page.evaluate(async (username) => {
    type Row = Record<string, unknown> & { generator_data?: { epa_handler_id: string } };
    const request = <T>(req: Req<T>) =>
      new Promise<T>((resolve, reject) => {
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(new Error('IndexedDB refused the read'));
      });
    const idb = (globalThis as unknown as { indexedDB: Factory }).indexedDB;
    const databases = (await idb.databases()).map((db) => db.name ?? '');
    const name = databases.find((db) => db.endsWith(` ${encodeURIComponent(username)}`));
    if (!name) return { databases, answers: [], packs: [] };
    const db = await request(idb.open(name));
    const all = (store: string) => request(db.transaction(store, 'readonly').objectStore(store).getAll());
    const answers = (await request(
      db.transaction('answers', 'readonly').objectStore('answers').getAllKeys(),
    )) as string[];
    const packs = (await all('packs')) as {
      id: string;
      title: string;
      status: string;
      total: number;
      list: string;
    }[];
    const chunks = (await all('chunks')) as { packId: string; part: string; rows: Row[] }[];
    db.close();
    return {
      databases,
      answers,
      packs: packs.map((pack) => {
        const rows = (part: string) =>
          chunks.filter((c) => c.packId === pack.id && c.part === part).flatMap((c) => c.rows);
        const listKey = pack.list === 'manifests' ? 'manifest_tracking_number' : 'epa_handler_id';
        return {
          id: pack.id,
          title: pack.title,
          status: pack.status,
          total: pack.total,
          rowKeys: rows('rows').map((row) => String(row[listKey])),
          generatorIds: rows(pack.list === 'manifests' ? 'generators' : 'rows').map((row) =>
            String(row.epa_handler_id),
          ),
          detailIds: rows('details').map((row) => row.generator_data?.epa_handler_id ?? ''),
        };
      }),
    };
  }, username);
}
