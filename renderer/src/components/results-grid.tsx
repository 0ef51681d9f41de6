import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { AgGridReact } from 'ag-grid-react';
import {
  AllCommunityModule,
  ModuleRegistry,
  colorSchemeVariable,
  themeQuartz,
  type ColDef,
  type GridApi,
  type IDatasource,
  type SortChangedEvent,
} from 'ag-grid-community';
import type { Scope } from '../../../shared/api/index.ts';
import type { IpcError } from '../../../shared/ipc/contract.ts';
import type { Provenance } from '../data/pipeline.ts';
import type { SortState } from '../state/workspace-store.ts';
import { formatCount } from '../format.ts';
import { ignoreAbort, type Answer, type Update } from '../data/tracker-data.ts';
import { Freshness } from '../offline/freshness.tsx';
import { ErrorBanner } from './error-banner.tsx';

ModuleRegistry.registerModules([AllCommunityModule]);

/** Blocks kept in memory: scrolling a million rows keeps at most this many pages. */
const MAX_BLOCKS = 40;

// The colour scheme follows the app's theme through data-ag-theme-mode on the root (theme.ts); each mode's
// background and text match the app's own surface and text colours.
const theme = themeQuartz
  .withPart(colorSchemeVariable)
  .withParams({ headerFontWeight: 600, fontSize: 13, rowHeight: 34, headerHeight: 38 })
  .withParams({ backgroundColor: '#ffffff', foregroundColor: '#1b1f24', accentColor: '#0b5fff' }, 'light')
  .withParams({ backgroundColor: '#16191e', foregroundColor: '#e6e9ee', accentColor: '#4d8bff' }, 'dark');

export type PageAnswer<Row> = { totalElements: number; content: Row[] };

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
  fetchPage: (
    page: number,
    pageSize: number,
    sort: string | undefined,
    signal: AbortSignal,
    onUpdate: Update<PageAnswer<Row>>,
  ) => Promise<Answer<PageAnswer<Row>>>;
  getRowId: (row: Row) => string;
  /** Enter on a row, or a double click. */
  onRowActivated?: (row: Row) => void;
  onSelectionChange?: (row: Row | undefined) => void;
  filtersActive: boolean;
  onClearFilters: () => void;
  /** The row to scroll to once the first page is in (where the user was before a reload). */
  initialTopRow?: number;
  /** The first shown row, after each scroll. */
  onTopRowChange?: (row: number) => void;
};

/**
 * A server-paged, server-sorted grid (AG Grid's infinite row model): it asks for pages as the user scrolls.
 * Shows the match count, an empty state with a way out, and failures with a retry.
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
  // Scrolled to once, when the rows to scroll to exist; a new query starts from the top as usual.
  const pendingTopRow = useRef(props.initialTopRow ?? 0);
  const [total, setTotal] = useState<{ key: string; count: number } | null>(null);
  const [failure, setFailure] = useState<{ key: string; error: IpcError } | null>(null);
  // Where the last page shown came from; the label says so.
  const [provenance, setProvenance] = useState<{ key: string; provenance: Provenance } | null>(null);

  // Each query's datasource keeps its requests in flight by block start. A new sort asks for a block
  // again, which aborts the older request for it; a new query (a new datasource) or leaving aborts them all.
  const { datasource, inFlight } = useMemo(() => {
    const inFlight = new Map<number, AbortController>();
    const datasource: IDatasource = {
      getRows: (params) => {
        const item = params.sortModel[0];
        const order = item ? `${item.colId} ${item.sort}` : undefined;
        inFlight.get(params.startRow)?.abort();
        const wanted = new AbortController();
        inFlight.set(params.startRow, wanted);
        const page = Math.floor(params.startRow / pageSize);
        // The server's answer after a saved page: a changed page is asked for again (the saved copy is
        // fresh by then); an unchanged one only makes the label current.
        const onUpdate: Update<PageAnswer<Row>> = (answer, changed) => {
          if (!answer.ok) return;
          setProvenance({
            key: queryKey,
            provenance: { source: answer.source, fetchedAt: answer.fetchedAt },
          });
          if (changed) api.current?.refreshInfiniteCache();
        };
        latest.current.fetchPage(page, pageSize, order, wanted.signal, onUpdate).then((answer) => {
          if (inFlight.get(params.startRow) === wanted) inFlight.delete(params.startRow);
          if (answer.ok) {
            params.successCallback(answer.data.content, answer.data.totalElements);
            setTotal({ key: queryKey, count: answer.data.totalElements });
            setProvenance({
              key: queryKey,
              provenance: { source: answer.source, fetchedAt: answer.fetchedAt },
            });
            setFailure(null);
          } else {
            params.failCallback();
            setFailure({ key: queryKey, error: answer.error });
          }
        }, ignoreAbort);
      },
    };
    return { datasource, inFlight };
  }, [queryKey, pageSize]);
  useEffect(
    () => () => {
      for (const wanted of inFlight.values()) wanted.abort();
      inFlight.clear();
    },
    [inFlight],
  );

  const columns = useMemo(
    () =>
      columnDefs.map((column) =>
        sort && column.field === sort.field ? { ...column, initialSort: sort.direction } : column,
      ),
    // The saved sort only seeds new columns; later sorting is the grid's own state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [columnDefs],
  );

  const count = total?.key === queryKey ? total.count : null;
  const error = failure?.key === queryKey ? failure.error : null;
  const shownFrom = provenance?.key === queryKey ? provenance.provenance : null;

  return (
    <section className="results" aria-label={label}>
      <div className="results-status" aria-live="polite">
        {count === null
          ? `Loading ${noun}…`
          : `${formatCount(count)} ${count === 1 ? noun.replace(/s$/, '') : noun}`}
      </div>
      <Freshness provenance={shownFrom} what={`${noun} list`} />
      {error && (
        <ErrorBanner
          error={error}
          what={noun}
          scope={scope}
          onRetry={() => {
            setFailure(null);
            api.current?.refreshInfiniteCache();
          }}
        />
      )}
      <div className="grid-frame">
        <AgGridReact<Row>
          theme={theme}
          columnDefs={columns}
          defaultColDef={{ sortable: true, resizable: true, minWidth: 80 }}
          rowModelType="infinite"
          datasource={datasource}
          cacheBlockSize={pageSize}
          maxBlocksInCache={MAX_BLOCKS}
          maxConcurrentDatasourceRequests={2}
          blockLoadDebounceMillis={60}
          infiniteInitialRowCount={pageSize}
          getRowId={(params) => latest.current.getRowId(params.data)}
          rowSelection={{ mode: 'singleRow', checkboxes: false, enableClickSelection: true }}
          onGridReady={(event) => {
            api.current = event.api;
          }}
          onSortChanged={(event: SortChangedEvent<Row>) => {
            const sorted = event.api.getColumnState().find((state) => state.sort);
            onSortChange(sorted?.sort ? { field: sorted.colId, direction: sorted.sort } : undefined);
          }}
          onSelectionChanged={(event) => latest.current.onSelectionChange?.(event.api.getSelectedRows()[0])}
          onModelUpdated={(event) => {
            const row = pendingTopRow.current;
            if (row === 0 || event.api.getDisplayedRowCount() <= row) return;
            pendingTopRow.current = 0;
            event.api.ensureIndexVisible(row, 'top');
          }}
          onBodyScrollEnd={(event) => {
            if (event.direction === 'vertical')
              latest.current.onTopRowChange?.(event.api.getFirstDisplayedRowIndex());
          }}
          onRowDoubleClicked={(event) => event.data && latest.current.onRowActivated?.(event.data)}
          onCellKeyDown={(event) => {
            const key = event.event instanceof KeyboardEvent ? event.event.key : '';
            if (key === 'Enter' && event.data) {
              event.node.setSelected(true);
              latest.current.onRowActivated?.(event.data);
            }
          }}
          onCellFocused={(event) => {
            if (event.rowIndex === null || event.rowPinned) return;
            event.api.getDisplayedRowAtIndex(event.rowIndex)?.setSelected(true);
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
