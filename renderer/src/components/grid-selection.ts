/**
 * The grid's selection as the detail that follows it reads it (a manifest's waste lines): only a row among
 * the rows the grid holds for the current query. AG Grid keeps a selection by row id across a new query and
 * does not say so, so a detail would go on showing a row the new filters left out; here a new query puts
 * the selection in doubt until its rows arrive, then keeps it when its row is among them and clears it,
 * saying so, when it is not.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { GridApi, IRowNode } from 'ag-grid-community';

/** What a detail that follows the selection shows. */
export type GridSelection<Row> =
  /** Nothing selected. */
  | null
  /** The row the user is looking at. */
  | { row: Row }
  /** A new query's rows are on their way; the selected row may or may not be among them. */
  | { pending: Row }
  /** The selected row is not among the new query's rows, so the selection was cleared. */
  | { left: Row };

/** The selected nodes the grid holds for the current query (AG Grid also keeps ids of rows it no longer holds). */
export function selectedNow<Row>(api: GridApi<Row>): IRowNode<Row>[] {
  return api.getSelectedNodes().flatMap((node) => {
    const held = node.id === undefined ? undefined : api.getRowNode(node.id);
    return held?.data !== undefined && held.isSelected() ? [held] : [];
  });
}

/** The focused row when it is selected (the one the user just reached), else the first selected. */
export function lookedAt<Row>(api: GridApi<Row>): Row | undefined {
  const focused = api.getFocusedCell();
  const node = focused ? api.getDisplayedRowAtIndex(focused.rowIndex) : undefined;
  if (node?.isSelected() && node.data) return node.data;
  const [first] = selectedNow(api).sort((a, b) => (a.rowIndex ?? 0) - (b.rowIndex ?? 0));
  return first?.data;
}

/**
 * Follows the selection across queries. `settled`: the current query's first rows have arrived, or it
 * failed. Returns the grid's selectionChanged handler.
 */
export function useFollowedSelection<Row>(options: {
  api: { current: GridApi<Row> | null };
  queryKey: string;
  settled: boolean;
  rowId: (row: Row) => string;
  onChange: ((selection: GridSelection<Row>) => void) | undefined;
}): (api: GridApi<Row>) => void {
  const { api, queryKey, settled } = options;
  const latest = useRef(options);
  useLayoutEffect(() => {
    latest.current = options;
  });
  /** The row last shown, and the query whose rows it was among. */
  const shown = useRef<{ row: Row; key: string } | null>(null);
  /** The query whose rows left the selected row out, while its notice stands. */
  const leftIn = useRef<string | null>(null);
  /** The last selection told, so clearing the grid's own selection does not undo a "left" notice. */
  const told = useRef<GridSelection<Row>>(null);
  const tell = (selection: GridSelection<Row>) => {
    told.current = selection;
    latest.current.onChange?.(selection);
  };

  useEffect(() => {
    const held = shown.current;
    // "The new results do not show …" speaks of the query that left the row out; under a later one it is
    // stale (the row may well be back), so the detail goes back to asking for a selection.
    if (!held && told.current !== null && 'left' in told.current && leftIn.current !== queryKey) {
      tell(null);
      return;
    }
    if (!held || held.key === queryKey) return;
    if (!settled) {
      tell({ pending: held.row });
      return;
    }
    const grid = api.current;
    const row = grid ? lookedAt(grid) : undefined;
    const { rowId } = latest.current;
    if (row !== undefined && rowId(row) === rowId(held.row)) {
      shown.current = { row, key: queryKey };
      tell({ row });
      return;
    }
    shown.current = null;
    leftIn.current = queryKey;
    tell({ left: held.row });
    // Otherwise the grid would select the row again by itself should a later query bring it back.
    grid?.deselectAll();
    // tell is stable in effect: it reads only refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, queryKey, settled]);

  return (grid) => {
    const row = lookedAt(grid);
    if (row === undefined && told.current !== null && 'left' in told.current) return;
    shown.current = row === undefined ? null : { row, key: latest.current.queryKey };
    tell(row === undefined ? null : { row });
  };
}
