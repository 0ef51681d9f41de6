/**
 * What a pack's refresh brought: the rows of its list that the copy it replaces did not hold (new) and
 * those it held with other values (changed), each row known by its public key (EPA handler id, manifest
 * tracking number). Worked out when a refresh completes, before the old copy is deleted, by reading both
 * copies' rows a stored chunk at a time and comparing a fingerprint of each row's JSON, so that only one
 * number per old row is held, not the row. The keys of the marked rows are kept on the new pack until the
 * grid has shown them (`markSeen`), those an earlier refresh marked included; the counts (what this refresh
 * brought) stay for the Offline data screen.
 */
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../../../shared/query/definition.ts';
import { formatCount, formatTimestamp } from '../base/format.ts';
import { packChunks, type OfflineDatabase, type PackChanges, type PackRecord } from './database.ts';
import type { PackList } from './engine-seam.ts';

/** Marked rows kept per pack: the counts stay exact past it; a refresh that changes more marks the first. */
export const MARKED_ROWS_MAX = 10_000;

export type RowMark = 'new' | 'changed';

const NOUNS: Record<PackList, [string, string]> = {
  generators: ['generator', 'generators'],
  manifests: ['manifest', 'manifests'],
};

/** The public key of a row of the list, as the query definition names it. */
export function rowKey(list: PackList, row: unknown): string {
  const key = list === 'generators' ? GENERATOR_QUERY.key : MANIFEST_QUERY.key;
  const value = (row as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : '';
}

/**
 * A 53-bit fingerprint of a text (cyrb53): two rows whose JSON differs have the same one with a chance of
 * about one in 10^15, and keeping it costs a number where keeping the text would cost the row.
 */
export function fingerprint(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The rows of `refreshed` that are new or changed against `previous`, the copy it replaces. */
export async function packChanges(
  db: OfflineDatabase,
  previous: PackRecord,
  refreshed: PackRecord,
): Promise<PackChanges> {
  const before = new Map<string, number>();
  await packChunks(db, previous.id, 'rows').each((chunk) => {
    for (const row of chunk.rows) before.set(rowKey(previous.list, row), fingerprint(JSON.stringify(row)));
  });
  const changes: PackChanges = {
    since: previous.refreshedAt ?? previous.createdAt,
    added: 0,
    changed: 0,
    unseenAdded: [],
    unseenChanged: [],
  };
  const counted = new Set<string>();
  await packChunks(db, refreshed.id, 'rows').each((chunk) => {
    for (const row of chunk.rows) {
      const key = rowKey(refreshed.list, row);
      // A page stored twice holds the same rows: each key counts once.
      if (counted.has(key)) continue;
      counted.add(key);
      const old = before.get(key);
      if (old === undefined) {
        changes.added += 1;
        if (changes.unseenAdded.length < MARKED_ROWS_MAX) changes.unseenAdded.push(key);
      } else if (old !== fingerprint(JSON.stringify(row))) {
        changes.changed += 1;
        if (changes.unseenChanged.length < MARKED_ROWS_MAX) changes.unseenChanged.push(key);
      }
    }
  });
  keepUnseen(changes, previous.changes, counted);
  return changes;
}

/**
 * The rows an earlier refresh marked that the grid has not shown yet stay marked, as they were, while the
 * refreshed copy holds them: a second refresh before the inspector has looked would otherwise take the first
 * one's marks away. A row the earlier refresh brought as new stays new if this one changed it again.
 */
function keepUnseen(changes: PackChanges, earlier: PackChanges | undefined, held: ReadonlySet<string>): void {
  if (!earlier) return;
  const added = new Set(changes.unseenAdded);
  const changed = new Set(changes.unseenChanged);
  for (const key of earlier.unseenAdded) {
    if (!held.has(key) || added.has(key)) continue;
    if (changes.unseenAdded.length >= MARKED_ROWS_MAX) break;
    changes.unseenAdded.push(key);
    added.add(key);
  }
  for (const key of earlier.unseenChanged) {
    if (!held.has(key) || added.has(key) || changed.has(key)) continue;
    if (changes.unseenChanged.length >= MARKED_ROWS_MAX) break;
    changes.unseenChanged.push(key);
  }
}

/** "37 new manifests, 4 changed since 2026-11-20 13:24", or "No new or changed manifests since …". */
export function describeChanges(list: PackList, changes: PackChanges): string {
  const [one, many] = NOUNS[list];
  const since = `since ${formatTimestamp(changes.since)}`;
  if (changes.added === 0 && changes.changed === 0) return `No new or changed ${many} ${since}`;
  const parts: string[] = [];
  if (changes.added > 0) parts.push(`${formatCount(changes.added)} new ${changes.added === 1 ? one : many}`);
  if (changes.changed > 0) {
    const noun = changes.added > 0 ? '' : ` ${changes.changed === 1 ? one : many}`;
    parts.push(`${formatCount(changes.changed)}${noun} changed`);
  }
  return `${parts.join(', ')} ${since}`;
}

/** The rows of a list still marked, by key, over every pack of that list. */
export function markedRows(packs: readonly PackRecord[], list: PackList): Map<string, RowMark> {
  const marks = new Map<string, RowMark>();
  for (const pack of packs) {
    if (pack.list !== list || !pack.changes) continue;
    for (const key of pack.changes.unseenChanged) marks.set(key, 'changed');
    for (const key of pack.changes.unseenAdded) marks.set(key, 'new');
  }
  return marks;
}

export interface MarkedRow {
  key: string;
  mark: RowMark;
  /** The row as the pack holds it. */
  row: unknown;
}

/**
 * Up to `limit` of the rows `marks` names, read from the packs of the list that hold them (those a refresh
 * changed first, each pack's rows in its order; the new before the changed), with how many it names: what
 * the grid's legend lists, so that rows far down the grid's order can be found. The marks are the
 * workspace's (row-marks.ts), which keeps the rows it has shown marked while it is on screen.
 */
export async function markedRowList(
  db: OfflineDatabase,
  list: PackList,
  marks: ReadonlyMap<string, RowMark>,
  limit: number,
): Promise<{ rows: MarkedRow[]; total: number }> {
  const wanted = Math.min(limit, marks.size);
  const packs = (await db.packs.filter((pack) => pack.list === list).toArray()).sort(
    (a, b) => Number(a.changes === undefined) - Number(b.changes === undefined),
  );
  const found = new Map<string, MarkedRow>();
  for (const pack of packs) {
    if (found.size >= wanted) break;
    await packChunks(db, pack.id, 'rows')
      .until(() => found.size >= wanted)
      .each((chunk) => {
        for (const row of chunk.rows) {
          const key = rowKey(list, row);
          const mark = marks.get(key);
          if (found.size >= wanted || mark === undefined || found.has(key)) continue;
          found.set(key, { key, mark, row });
        }
      });
  }
  const rows = [...found.values()].sort(
    (a, b) => Number(a.mark === 'changed') - Number(b.mark === 'changed'),
  );
  return { rows, total: marks.size };
}

/** The grid has shown these rows: they are marked no longer, in any pack of the list. */
export async function markSeen(db: OfflineDatabase, list: PackList, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const seen = new Set(keys);
  await db.transaction('rw', db.packs, async () => {
    const packs = await db.packs.filter((pack) => pack.list === list && pack.changes !== undefined).toArray();
    for (const pack of packs) {
      const changes = pack.changes;
      if (!changes) continue;
      const unseenAdded = changes.unseenAdded.filter((key) => !seen.has(key));
      const unseenChanged = changes.unseenChanged.filter((key) => !seen.has(key));
      if (
        unseenAdded.length === changes.unseenAdded.length &&
        unseenChanged.length === changes.unseenChanged.length
      )
        continue;
      await db.packs.update(pack.id, { changes: { ...changes, unseenAdded, unseenChanged } });
    }
  });
}
