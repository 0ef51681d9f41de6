/**
 * What the other users' databases on this computer record they hold (their packs' and saved pages' JSON
 * lengths): the browser reports the storage used by the whole app, every user's data together, so the
 * Offline data screen shares it out over everyone's records, not the signed-in user's alone. Only the sizes
 * are read, never a row; a database that cannot be read counts as nothing. Read once per signed-in database:
 * the others' data cannot change while this user is the one signed in, and the screen asks again at every
 * page a download stores.
 */
import Dexie from 'dexie';
import { DATABASE_PREFIX } from './database.ts';

async function recordedIn(name: string): Promise<number> {
  // Opened as it is (no schema declared), so reading sizes never upgrades another user's database.
  const db = new Dexie(name);
  try {
    await db.open();
    const packs = (await db.table<{ size?: number }>('packs').toArray()).reduce(
      (sum, pack) => sum + (pack.size ?? 0),
      0,
    );
    const pages = (await db.table<{ value?: number }, string>('meta').get('answersSize'))?.value ?? 0;
    return packs + pages;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

const sums = new WeakMap<Dexie, Promise<number>>();

async function sumOfOthers(mine: string): Promise<number> {
  if (typeof indexedDB === 'undefined' || !indexedDB.databases) return 0;
  const names = (await indexedDB.databases())
    .map((database) => database.name ?? '')
    .filter((name) => name.startsWith(`${DATABASE_PREFIX} `) && name !== mine);
  const sizes = await Promise.all(names.map(recordedIn));
  return sizes.reduce((sum, size) => sum + size, 0);
}

/** The recorded bytes of every app database on this computer but `mine`, the signed-in user's. */
export function othersRecorded(mine: Dexie): Promise<number> {
  let sum = sums.get(mine);
  if (!sum) {
    sum = sumOfOthers(mine.name);
    sums.set(mine, sum);
  }
  return sum;
}
