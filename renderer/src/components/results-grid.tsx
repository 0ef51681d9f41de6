import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { AgGridReact } from 'ag-grid-react';
import {
  AllCommunityModule,
  ModuleRegistry,
  type ColDef,
  type GridApi,
  type SortChangedEvent,
} from 'ag-grid-community';
import type { Scope } from '../../../shared/api/index.ts';
import type { IpcError } from '../../../shared/ipc/contract.ts';
import type { Provenance } from '../data/pipeline.ts';
import type { SortState } from '../state/workspace-store.ts';
import { formatCount } from '../base/format.ts';
import { useAskAgainWhenOnline } from '../data/connectivity.ts';
import { Freshness } from '../offline/freshness.tsx';
import { queryDatasource, type FetchPage } from './grid-datasource.ts';
import { copyOf, writeClipboard } from './grid-copy.ts';
import { useFollowedSelection, type GridSelection } from './grid-selection.ts';
import { Problem } from './problems.tsx';
import { gridTheme, headerMinWidth } from './grid-look.ts';

ModuleRegistry.registerModules([AllCommunityModule]);

/** Blocks kept in memory: scrolling a million rows keeps at most this many pages. */
const MAX_BLOCKS = 40;

/** No column narrower, whatever its header (grid-look.ts widens a column for its header's words). */
const MIN_COLUMN_WIDTH = 72;

/** How long "Copied …" stays under the grid: long enough to read, gone before it is stale. */
const COPY_NOTICE_MS = 4000;

export type { PageAnswer } from './grid-datasource.ts';

/** AG Grid's own scrollbar, drawn over the rows where the system's scrollbars take no room. */
const OVERLAY_SCROLLBAR_ROOM = 16;

let overlay: boolean | undefined;
/**
 * True where scrollbars are overlays that take no room (GTK's, macOS's, headless Chromium's). AG Grid then
 * lays its 16 px scrollbar over the last column without keeping room for it, and at 1280 px "Containers"
 * lost its digits under it; told the width, it shares out the columns beside it.
 */
function overlayScrollbars(): boolean {
  if (overlay === undefined) {
    const probe = document.createElement('div');
    probe.style.cssText = 'position:absolute;width:100px;height:100px;overflow:scroll;visibility:hidden';
    document.body.append(probe);
    overlay = probe.offsetWidth - probe.clientWidth === 0;
    probe.remove();
  }
  return overlay;
}

type Props<Row> = {
  /** Accessible name of the grid's region, e.g. "Generators results". */
  label: string;
  /** Plural noun for counts and messages: "generators". */
  noun: string;
  scope: Scope;
  /**
   * Rows per request (the "rows per page" setting); also AG Grid's cache block, so one scroll stop costs
   * one or two requests. Fixed for the grid's life: a new size mounts a new grid.
   */
  pageSize: number;
  /** Identifies the rows asked for (filters, search, fields); a new key starts again from the top. */
  queryKey: string;
  columnDefs: ColDef<Row>[];
  sort: SortState | undefined;
  onSortChange: (sort: SortState | undefined) => void;
  fetchPage: FetchPage<Row>;
  getRowId: (row: Row) => string;
  /** Enter on a row, or a double click. */
  onRowActivated?: (row: Row) => void;
  /**
   * The row the user is looking at among the selected ones (the focused one, else the first), only while
   * it is among the current query's rows (grid-selection.ts).
   */
  onSelectionChange?: (selection: GridSelection<Row>) => void;
  /** The user dragged columns into a new order: every column's field, left to right. */
  onColumnsMoved?: (fields: string[]) => void;
  /** The user resized columns: the new widths (px) by field. */
  onColumnsResized?: (widths: Record<string, number>) => void;
  filtersActive: boolean;
  onClearFilters: () => void;
  /** The row to scroll to once the first page is in (where the user was before a reload). */
  initialTopRow?: number;
  /** The first shown row, after each scroll. */
  onTopRowChange?: (row: number) => void;
  /** A row's mark, shown as its class `row-<mark>` (offline/row-marks.ts: new or changed by a refresh). */
  rowMark?: (row: Row) => string | undefined;
  /** The rows on screen, after each scroll and each page that arrives. */
  onRowsShown?: (rows: Row[]) => void;
  /** The rows the query matches, as the count above the grid says it; null until an answer says. */
  onCount?: (count: number | null) => void;
};

/** The rows AG Grid has rendered (on screen and its small buffer), with their data. */
function renderedRows<Row>(api: GridApi<Row>): Row[] {
  return api.getRenderedNodes().flatMap((node) => (node.data === undefined ? [] : [node.data]));
}

/**
 * A server-paged, server-sorted grid (AG Grid's infinite row model): it asks for pages as the user scrolls.
 * Shows the match count, an empty state with a way out, and failures with a retry. Cell text can be
 * selected; Ctrl+C copies the focused cell, or the selected rows (Ctrl+click, Shift+click) with headers.
 */
export function ResultsGrid<Row>(props: Props<Row>) {
  const {
    label,
    noun,
    scope,
    pageSize,
    queryKey,
    columnDefs,
    sort,
    onSortChange,
    filtersActive,
    onClearFilters,
  } = props;
  // The datasource lives as long as the query; it reads the newest callbacks through this ref.
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });
  const api = useRef<GridApi<Row> | null>(null);
  // New marks come with new data (a pack's refresh has completed): the rows on screen are read again, and
  // drawn with their marks.
  const { rowMark } = props;
  // The class of each mark a row may have: `row-new`, `row-changed`.
  const rowClassRules = useMemo(
    () =>
      Object.fromEntries(
        (['new', 'changed'] as const).map((mark) => [
          `row-${mark}`,
          (params: { data?: Row }) => params.data !== undefined && rowMark?.(params.data) === mark,
        ]),
      ),
    [rowMark],
  );
  useEffect(() => {
    if (rowMark) api.current?.refreshInfiniteCache();
  }, [rowMark]);
  // Scrolled to once, when the rows to scroll to exist; a new query starts from the top as usual.
  const pendingTopRow = useRef(props.initialTopRow ?? 0);
  const [total, setTotal] = useState<{ key: string; count: number } | null>(null);
  const [failure, setFailure] = useState<{ key: string; error: IpcError } | null>(null);
  // Where the last page shown came from; the label says so.
  const [provenance, setProvenance] = useState<{ key: string; provenance: Provenance } | null>(null);

  const [copyNotice, setCopyNotice] = useState<{ text: string; failed: boolean } | null>(null);
  useEffect(() => {
    if (!copyNotice) return;
    const timer = setTimeout(() => setCopyNotice(null), COPY_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [copyNotice]);

  const copy = (grid: GridApi<Row>, press: KeyboardEvent) => {
    // Text the user selected with the mouse is copied by the browser, as anywhere else on the page.
    if (!(document.getSelection()?.isCollapsed ?? true)) return;
    const wanted = copyOf(grid);
    if (!wanted) return;
    press.preventDefault();
    void writeClipboard(wanted.text).then((problem) =>
      setCopyNotice(problem ? { text: problem, failed: true } : { text: wanted.notice, failed: false }),
    );
  };

  // One datasource per query (./grid-datasource.ts): each block request ends in exactly one callback to the
  // grid, and a new query (a new datasource) or leaving aborts every request still in flight.
  const query = useMemo(
    () =>
      // The refs are read only when the grid asks for rows or an answer arrives, never while rendering.
      // eslint-disable-next-line react-hooks/refs
      queryDatasource<Row>(pageSize, {
        fetchPage: (...args) => latest.current.fetchPage(...args),
        answered: (count, shownFrom) => {
          setTotal({ key: queryKey, count });
          setProvenance({ key: queryKey, provenance: shownFrom });
          setFailure(null);
        },
        failed: (error) => setFailure({ key: queryKey, error }),
        // The server's answer after a saved page: a changed page is asked for again (the saved copy is fresh
        // by then); an unchanged one only makes the label current.
        revalidated: (shownFrom, changed) => {
          setProvenance({ key: queryKey, provenance: shownFrom });
          if (changed) api.current?.refreshInfiniteCache();
        },
      }),
    [queryKey, pageSize],
  );
  useEffect(() => () => query.abortAll(), [query]);
  // A new query starts at its first row; the saved place (initialTopRow) is only for the first one.
  const shownQuery = useRef(queryKey);
  useEffect(() => {
    if (queryKey === shownQuery.current) return;
    shownQuery.current = queryKey;
    pendingTopRow.current = 0;
    api.current?.ensureIndexVisible(0, 'top');
  }, [queryKey]);

  /** The user dragged a column since the order was last saved. */
  const columnsDragged = useRef(false);
  const saveColumnOrder = (grid: GridApi<Row>) => {
    if (!columnsDragged.current) return;
    columnsDragged.current = false;
    latest.current.onColumnsMoved?.(grid.getColumnState().map((state) => state.colId));
  };

  const columns = useMemo(
    () =>
      columnDefs.map((column) => ({
        ...column,
        minWidth: headerMinWidth(column.headerName, column.minWidth ?? MIN_COLUMN_WIDTH),
        ...(sort && column.field === sort.field ? { initialSort: sort.direction } : {}),
      })),
    // The saved sort only seeds new columns; later sorting is the grid's own state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [columnDefs],
  );

  const count = total?.key === queryKey ? total.count : null;
  useEffect(() => latest.current.onCount?.(count), [count]);
  const error = failure?.key === queryKey ? failure.error : null;
  const shownFrom = provenance?.key === queryKey ? provenance.provenance : null;
  const askAgain = () => {
    setFailure(null);
    api.current?.refreshInfiniteCache();
  };
  useAskAgainWhenOnline(error !== null || shownFrom?.source === 'cache', askAgain, shownFrom?.fetchedAt);
  const followSelection = useFollowedSelection({
    api,
    queryKey,
    settled: count !== null || error !== null,
    rowId: props.getRowId,
    onChange: props.onSelectionChange,
  });

  return (
    <section className="results" aria-label={label}>
      <div className="results-line">
        <div className="results-status" aria-live="polite">
          {count === null
            ? // A failed query is not loading: the reason is shown above, once.
              error
              ? ''
              : `Loading ${noun}…`
            : `${formatCount(count)} ${count === 1 ? noun.replace(/s$/, '') : noun}`}
        </div>
        {copyNotice && (
          <p className={copyNotice.failed ? 'copy-notice failed' : 'copy-notice'} role="status">
            {copyNotice.text}
          </p>
        )}
      </div>
      <Freshness provenance={shownFrom} what={`${noun} list`} />
      {error && <Problem error={error} what={`the ${noun}`} scope={scope} onRetry={askAgain} />}
      <div
        className="grid-frame"
        onMouseDownCapture={(event) => {
          // Shift+click picks rows; left alone it would also stretch a text selection over the cells
          // between, and Ctrl+C would copy that text instead of the rows.
          if (event.shiftKey && event.target instanceof Element && event.target.closest('.ag-cell'))
            event.preventDefault();
        }}
        // Here rather than in onCellKeyDown, which AG Grid calls after the event is over (too late to stop
        // the browser's own copy).
        onKeyDown={(event) => {
          const { key, ctrlKey, metaKey, altKey, shiftKey } = event;
          if (key.toLowerCase() === 'c' && (ctrlKey || metaKey) && !altKey && !shiftKey && api.current)
            copy(api.current, event.nativeEvent);
        }}
        // A copy that is not a key press (the application menu's Edit → Copy) reaches the page as the
        // copy event itself: its data is written into the event, with no clipboard permission needed.
        onCopy={(event) => {
          if (!api.current || !(document.getSelection()?.isCollapsed ?? true)) return;
          const wanted = copyOf(api.current);
          if (!wanted) return;
          event.preventDefault();
          event.clipboardData.setData('text/plain', wanted.text);
          setCopyNotice({ text: wanted.notice, failed: false });
        }}
      >
        <AgGridReact<Row>
          theme={gridTheme}
          columnDefs={columns}
          // A header longer than its column wraps onto a second line rather than hide its last words; a cell
          // too narrow for its text ends in an ellipsis, and its tooltip says it whole.
          defaultColDef={{
            sortable: true,
            resizable: true,
            minWidth: MIN_COLUMN_WIDTH,
            wrapHeaderText: true,
            autoHeaderHeight: true,
            tooltip: true,
            headerTooltip: true,
          }}
          enableBrowserTooltips
          // The empty state below says why there are no rows and offers a way out; AG Grid's own is a second voice.
          suppressNoRowsOverlay
          rowModelType="infinite"
          datasource={query.datasource}
          cacheBlockSize={pageSize}
          maxBlocksInCache={MAX_BLOCKS}
          maxConcurrentDatasourceRequests={2}
          {...(overlayScrollbars() ? { scrollbarWidth: OVERLAY_SCROLLBAR_ROOM } : {})}
          blockLoadDebounceMillis={60}
          infiniteInitialRowCount={pageSize}
          getRowId={(params) => latest.current.getRowId(params.data)}
          // Rules rather than getRowClass: a row element reused for another row loses a class it no longer earns.
          rowClassRules={rowClassRules}
          // A click selects one row; Ctrl+click and Shift+click select more, for copying them.
          rowSelection={{
            mode: 'multiRow',
            checkboxes: false,
            headerCheckbox: false,
            enableClickSelection: true,
          }}
          enableCellTextSelection
          // Selected text follows the columns on screen rather than the order cells were rendered in.
          ensureDomOrder
          // The column chooser is where columns are hidden (and so no longer asked of the server); a header
          // dragged out of the grid only moves back.
          suppressDragLeaveHidesColumns
          onGridReady={(event) => {
            api.current = event.api;
          }}
          onSortChanged={(event: SortChangedEvent<Row>) => {
            const sorted = event.api.getColumnState().find((state) => state.sort);
            const next = sorted?.sort ? { field: sorted.colId, direction: sorted.sort } : undefined;
            const before = latest.current.sort;
            // The saved sort put back when the grid starts is no new order: the saved place stays.
            if (next?.field === before?.field && next?.direction === before?.direction) return;
            // A new order starts at its first row, as a new query does.
            pendingTopRow.current = 0;
            event.api.ensureIndexVisible(0, 'top');
            onSortChange(next);
          }}
          onSelectionChanged={(event) => followSelection(event.api)}
          onColumnMoved={(event) => {
            if (event.source !== 'uiColumnMoved') return;
            columnsDragged.current = true;
            if (event.finished) saveColumnOrder(event.api);
          }}
          // A drag whose drop needs no further move ends without a finished columnMoved: the order the
          // drag left is saved when it stops.
          onDragStopped={(event) => saveColumnOrder(event.api)}
          onColumnResized={(event) => {
            if (!event.finished || event.source !== 'uiColumnResized' || !event.columns) return;
            const widths: Record<string, number> = {};
            for (const column of event.columns) widths[column.getColId()] = column.getActualWidth();
            latest.current.onColumnsResized?.(widths);
          }}
          onModelUpdated={(event) => {
            latest.current.onRowsShown?.(renderedRows(event.api));
            const row = pendingTopRow.current;
            if (row === 0 || event.api.getDisplayedRowCount() <= row) return;
            pendingTopRow.current = 0;
            event.api.ensureIndexVisible(row, 'top');
          }}
          onBodyScrollEnd={(event) => {
            latest.current.onRowsShown?.(renderedRows(event.api));
            if (event.direction === 'vertical')
              latest.current.onTopRowChange?.(event.api.getFirstDisplayedRowIndex());
          }}
          onRowDoubleClicked={(event) => event.data && latest.current.onRowActivated?.(event.data)}
          onCellKeyDown={(event) => {
            const key = event.event instanceof KeyboardEvent ? event.event.key : '';
            if (key === 'Enter' && event.data) {
              event.node.setSelected(true, true);
              latest.current.onRowActivated?.(event.data);
            }
          }}
          onCellFocused={(event) => {
            // A click selects through rowSelection (with Ctrl and Shift); moving by keyboard selects here,
            // Shift keeping the rows already selected.
            if (event.rowIndex === null || event.rowPinned || event.sourceEvent instanceof MouseEvent) return;
            const extend = event.sourceEvent instanceof KeyboardEvent && event.sourceEvent.shiftKey;
            event.api.getDisplayedRowAtIndex(event.rowIndex)?.setSelected(true, !extend);
          }}
        />
        {count === 0 && (
          <div className="grid-empty" role="status">
            <p>No {noun} match these filters.</p>
            {filtersActive && (
              <button type="button" onClick={onClearFilters}>
                Clear filters
              </button>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
