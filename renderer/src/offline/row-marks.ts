/**
 * The grid's marks for the rows a pack's refresh brought (pack-changes.ts): a workspace reads its list's
 * marked rows when it opens and keeps them while it is open, so the user sees which rows are new or
 * changed; each marked row the grid shows is noted as seen in the packs, so it is not marked the next time
 * the workspace opens.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PackList } from './engine-seam.ts';
import { activeDatabase, packsChanged, useOfflineStore } from './offline-store.ts';
import { markSeen, markedRows, rowKey, type RowMark } from './pack-changes.ts';
import { listPacks } from './packs.ts';

/** Rows shown are noted as seen this long after the grid last showed one: one write for a scroll. */
const SEEN_AFTER_MS = 1000;

export interface RowMarks {
  /** How a row is marked, if it is. */
  mark: (row: unknown) => RowMark | undefined;
  /** Rows of this list still marked when the workspace opened. */
  count: number;
  /** The grid showed these rows. */
  shown: (rows: readonly unknown[]) => void;
}

export function useRowMarks(list: PackList): RowMarks {
  const name = useOfflineStore((state) => state.name);
  const [marks, setMarks] = useState<ReadonlyMap<string, RowMark>>(new Map());
  /** Marked rows the grid has shown while the workspace is open; `pending` those not written yet. */
  const noted = useRef(new Set<string>());
  const pending = useRef<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const db = activeDatabase();
    if (!db) return;
    let current = true;
    void listPacks(db).then((packs) => {
      if (current) setMarks(markedRows(packs, list));
    });
    return () => {
      current = false;
    };
  }, [list, name]);

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
      let added = false;
      for (const row of rows) {
        const key = rowKey(list, row);
        if (marks.has(key) && !noted.current.has(key)) {
          noted.current.add(key);
          pending.current.push(key);
          added = true;
        }
      }
      if (!added) return;
      if (timer.current !== undefined) clearTimeout(timer.current);
      timer.current = setTimeout(flush, SEEN_AFTER_MS);
    },
    [marks, list, flush],
  );
  return { mark, count: marks.size, shown };
}
