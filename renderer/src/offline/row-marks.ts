/**
 * The grid's marks for the rows a pack's refresh brought (pack-changes.ts): a workspace reads its list's
 * marked rows when it is shown and whenever packs change (a refresh completes); each marked row the grid
 * shows is noted as seen in the packs, but stays marked while the workspace stays on screen, so the user
 * sees which rows are new or changed; the next time the workspace is shown they are not marked.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PackList } from './engine-seam.ts';
import { activeDatabase, packsChanged, useOfflineStore } from './offline-store.ts';
import { markSeen, markedRows, rowKey, type RowMark } from './pack-changes.ts';
import { listPacks } from './packs.ts';

/** Rows shown are noted as seen this long after the grid last showed one: one write for a scroll. */
const SEEN_AFTER_MS = 1000;

function sameMarks(a: ReadonlyMap<string, RowMark>, b: ReadonlyMap<string, RowMark>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, mark] of a) if (b.get(key) !== mark) return false;
  return true;
}

export interface RowMarks {
  /** How a row is marked, if it is. */
  mark: (row: unknown) => RowMark | undefined;
  /** Rows of this list still marked when the workspace opened, by key, with their marks (what the legend lists). */
  marked: ReadonlyMap<string, RowMark>;
  /** The grid showed these rows. */
  shown: (rows: readonly unknown[]) => void;
}

/** `visible`: the workspace is on screen (a hidden one stays mounted). */
export function useRowMarks(list: PackList, visible: boolean): RowMarks {
  const name = useOfflineStore((state) => state.name);
  const version = useOfflineStore((state) => state.packsVersion);
  const [marks, setMarks] = useState<ReadonlyMap<string, RowMark>>(new Map());
  /** Marked rows the grid has shown while the workspace is on screen; `pending` those not written yet. */
  const noted = useRef(new Map<string, RowMark>());
  const pending = useRef<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (!visible) {
      noted.current.clear();
      return;
    }
    const db = activeDatabase();
    if (!db) return;
    let current = true;
    void listPacks(db).then((packs) => {
      if (!current) return;
      // Rows seen while on screen keep their marks until the workspace is next shown.
      const read = markedRows(packs, list);
      for (const [key, mark] of noted.current) read.set(key, mark);
      // The same marks keep the same map: a grid reads its rows again only for new ones.
      setMarks((before) => (sameMarks(before, read) ? before : read));
    });
    return () => {
      current = false;
    };
  }, [list, name, version, visible]);

  const flush = useCallback(() => {
    timer.current = undefined;
    const db = activeDatabase();
    const keys = pending.current;
    pending.current = [];
    if (!db || keys.length === 0) return;
    void markSeen(db, list, keys).then(packsChanged, (error: unknown) => {
      // Marks left in place are shown again next time: nothing is lost by a failed write.
      console.warn('Could not note the marked rows as seen', error);
    });
  }, [list]);

  useEffect(
    () => () => {
      if (timer.current !== undefined) {
        clearTimeout(timer.current);
        flush();
      }
    },
    [flush],
  );

  const mark = useCallback((row: unknown) => marks.get(rowKey(list, row)), [marks, list]);
  const shown = useCallback(
    (rows: readonly unknown[]) => {
      // A hidden workspace's grid may still draw rows; nobody has seen them.
      if (!visible) return;
      let added = false;
      for (const row of rows) {
        const key = rowKey(list, row);
        const mark = marks.get(key);
        if (mark && !noted.current.has(key)) {
          noted.current.set(key, mark);
          pending.current.push(key);
          added = true;
        }
      }
      if (!added) return;
      if (timer.current !== undefined) clearTimeout(timer.current);
      timer.current = setTimeout(flush, SEEN_AFTER_MS);
    },
    [marks, list, flush, visible],
  );
  return { mark, marked: marks, shown };
}
