/**
 * One workspace: filter panel, summary boxes and results grid over one list endpoint, driven by a
 * definition (./generators.tsx, ./manifests.tsx). Filters, search, sort and columns (which, in what order,
 * how wide) live in the workspace's persisted store; every request is derived from them.
 */
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import type { ColDef, ColDefField, ICellRendererParams } from 'ag-grid-community';
import type { Scope } from '../../../shared/api/index.ts';
import { defaultFields, isNumeric, type Column } from '../../../shared/columns.ts';
import type { ExportGridInput } from '../../../shared/ipc/exports.ts';
import { ColumnChooser } from '../components/column-chooser.tsx';
import { ExportButtons } from '../exports/export-buttons.tsx';
import { startGridExport } from '../exports/offline-export.ts';
import { FilterPanel, type LookupMember, type ScalarMember } from '../components/filter-panel.tsx';
import type { GridSelection } from '../components/grid-selection.ts';
import type { LookupAnswer } from '../components/lookup-multi-select.tsx';
import { ProblemArea } from '../components/problems.tsx';
import { ResultsGrid, type PageAnswer } from '../components/results-grid.tsx';
import { SummaryBoxes, type Box } from '../components/summary-boxes.tsx';
import { useAccess } from '../data/permissions.ts';
import { useSession } from '../data/session.ts';
import { useSettings } from '../data/settings.ts';
import type { Answer, PageRequest, Update } from '../data/tracker-data.ts';
import { ViewShown } from '../offline/freshness.tsx';
import { MakeAvailableOffline } from '../offline/make-available-offline.tsx';
import { MarkedRowsLegend } from '../offline/marked-rows-legend.tsx';
import { useRowMarks } from '../offline/row-marks.ts';
import { formatValue } from '../base/format.ts';
import { movedInto, orderedFields } from '../state/column-layout.ts';
import { useNavigation } from '../state/navigation.ts';
import { useScrollPlace } from '../state/scroll-place.ts';
import type { FilterFields, PickedTexts, WorkspaceStore } from '../state/workspace-store.ts';

/**
 * How the grid lays out one column of the catalogue; a column without one takes an even share. Widths are
 * sized to the cells' content (a header longer than that wraps), so that at 1280 px the names keep a share
 * they can be read in and every default column fits; a name column shows its whole text as a tooltip.
 */
export type ColumnLayout<Row> = {
  width?: number;
  flex?: number;
  /** A share's floor, px; the grid scrolls sideways rather than squeeze a name below it. */
  minWidth?: number;
  /** The cell's text may be longer than the column: the whole text shows when hovered. */
  long?: boolean;
  /** The cell opens this generator's profile (EPA handler id of the row), when there is one. */
  profileOf?: (row: Row) => string | undefined;
};

export type Query<F> = { filterFields: F; searchKey: string };

/**
 * Columns a filter needs on screen so the rows show why they matched: catalogue fields shown whatever the
 * user chose (`show`), and columns derived from the filter, each placed after a shown field (`derived`).
 */
export type MatchColumns<Row> = {
  show: readonly string[];
  derived: readonly { after: string; def: ColDef<Row> }[];
};

export type WorkspaceDefinition<F extends FilterFields, Row, Totals> = {
  /** "Generators" */
  title: string;
  /** "generators" */
  noun: string;
  /** The permission the workspace's endpoints need. */
  scope: Scope;
  store: WorkspaceStore<F>;
  /** The list's columns from the shared catalogue: header, kind, default visibility, order. */
  columns: readonly Column<string>[];
  layout: Readonly<Record<string, ColumnLayout<Row>>>;
  /** Fields requested whatever the columns: the row's identity and what links and panes need. */
  requiredFields: readonly string[];
  members: readonly LookupMember[];
  scalars?: readonly ScalarMember[];
  lookup: (field: string, search: string, page: number, signal: AbortSignal) => Promise<LookupAnswer>;
  /** `onUpdate` receives the network's answer after a saved one was given. */
  totals: (query: Query<F>, signal: AbortSignal, onUpdate?: Update<Totals>) => Promise<Answer<Totals>>;
  boxes: readonly Box<Totals>[];
  page: (
    query: Query<F>,
    request: PageRequest,
    signal: AbortSignal,
    onUpdate?: Update<PageAnswer<Row>>,
  ) => Promise<Answer<PageAnswer<Row>>>;
  rowId: (row: Row) => string;
  /** The columns the current filters need shown (generators: the status a row matched on). */
  matchColumns?: (filterFields: F, pickedTexts: PickedTexts) => MatchColumns<Row>;
};

function ProfileLink<Row>({
  value,
  data,
  profileOf,
}: ICellRendererParams<Row> & { profileOf: (row: Row) => string | undefined }) {
  const openProfile = useNavigation((state) => state.openProfile);
  const handlerId = data ? profileOf(data) : undefined;
  if (!handlerId) return <>{String(value ?? '')}</>;
  return (
    <button
      type="button"
      className="link-button"
      tabIndex={-1}
      aria-label={`Open the profile of ${String(value ?? handlerId)}`}
      onClick={() => openProfile(handlerId)}
    >
      {String(value ?? '')}
    </button>
  );
}

/** `savedWidth`: where the user dragged the column to, which wins over the layout's width or share. */
function columnDef<Row>(
  column: Column<string>,
  layout: ColumnLayout<Row> = {},
  savedWidth?: number,
): ColDef<Row> {
  const width = savedWidth ?? layout.width;
  const def: ColDef<Row> = {
    // A catalogue field is one of the row type's keys; ColDef spells that as a template-literal type.
    field: column.field as ColDefField<Row>,
    headerName: column.header,
    // flex is null, not left out, so a column that had a share gives it up when the grid updates it.
    ...(width ? { width, flex: null } : { flex: layout.flex ?? 1 }),
    ...(layout.minWidth ? { minWidth: layout.minWidth } : {}),
    ...(layout.long ? { tooltipField: column.field as ColDefField<Row> } : {}),
    // The whole header, as every header's tooltip holds, then what it does not say.
    ...(column.about ? { headerTooltip: `${column.header}: ${column.about}` } : {}),
  };
  if (isNumeric(column.kind)) {
    def.type = 'rightAligned';
    def.valueFormatter = (params) =>
      typeof params.value === 'number' ? formatValue(column.kind, params.value) : '';
  }
  if (layout.profileOf) {
    def.cellRenderer = ProfileLink<Row>;
    def.cellRendererParams = { profileOf: layout.profileOf };
  }
  return def;
}

/** Rows per page until main's settings have arrived (the settings' own default). */
const DEFAULT_PAGE_SIZE = 100;

type Props<F extends FilterFields, Row, Totals> = {
  def: WorkspaceDefinition<F, Row, Totals>;
  /** Further filter controls under the lookups (date ranges). */
  filterExtras?: ReactNode;
  /** Enter or double click on a row. */
  onRowActivated?: (row: Row) => void;
  /** A pane under the grid about the selected row (a manifest's waste lines), only while it is among the rows. */
  below?: (selection: GridSelection<Row>) => ReactNode;
  hidden?: boolean;
};

/**
 * The workspace, or, for a user without its permission, why there is nothing to see: every request it
 * makes could only be refused.
 */
export function Workspace<F extends FilterFields, Row, Totals>(props: Props<F, Row, Totals>) {
  const access = useAccess(props.def.scope);
  if (access === 'denied')
    return <NoAccess title={props.def.title} scope={props.def.scope} hidden={props.hidden} />;
  return <WorkspaceView {...props} />;
}

function NoAccess({ title, scope, hidden }: { title: string; scope: Scope; hidden: boolean | undefined }) {
  const user = useSession((state) => state.status?.username);
  return (
    <section className="workspace-no-access" aria-label={title} hidden={hidden}>
      <h2>{title} are not available to you</h2>
      <p>
        Your account{user ? ` (${user})` : ''} does not have the “{scope}” permission this workspace needs, so
        the server refuses its data. Ask your administrator to grant it.
      </p>
    </section>
  );
}

function WorkspaceView<F extends FilterFields, Row, Totals>({
  def,
  filterExtras,
  onRowActivated,
  below,
  hidden,
}: Props<F, Row, Totals>) {
  const { store } = def;
  const filterFields = store((state) => state.filterFields);
  const searchKey = store((state) => state.searchKey);
  const sort = store((state) => state.sort);
  const chosen = store((state) => state.columns);
  const setSort = store((state) => state.setSort);
  const setColumns = store((state) => state.setColumns);
  const columnOrder = store((state) => state.columnOrder);
  const setColumnOrder = store((state) => state.setColumnOrder);
  const columnWidths = store((state) => state.columnWidths);
  const setColumnWidths = store((state) => state.setColumnWidths);
  const resetColumns = store((state) => state.resetColumns);
  const clearAll = store((state) => state.clearAll);
  const [selection, setSelection] = useState<GridSelection<Row>>(null);
  /** The rows the grid's query matches, by the query it counted (what the count above the grid says). */
  const [matched, setMatched] = useState<{ key: string; count: number | null }>({ key: '', count: null });
  // The workspace's scope names its list, as it names the pack a workspace makes.
  const marks = useRowMarks(def.scope, !hidden);
  const [initialTopRow] = useState(() => useScrollPlace.getState().topRows[def.noun] ?? 0);
  const setTopRow = useScrollPlace((state) => state.setTopRow);
  const pageSize = useSettings((state) => state.settings?.pageSize ?? DEFAULT_PAGE_SIZE);

  const order = useMemo(
    () =>
      orderedFields(
        def.columns.map((c) => c.field),
        columnOrder,
      ),
    [def.columns, columnOrder],
  );
  const pickedTexts = store((state) => state.pickedTexts);
  const matching = useMemo(
    () => def.matchColumns?.(filterFields, pickedTexts),
    [def, filterFields, pickedTexts],
  );
  const picked = new Set([...(chosen ?? defaultFields(def.columns)), ...(matching?.show ?? [])]);
  const shown = order.filter((field) => picked.has(field));
  const shownKey = shown.join(',');
  const columnDefs = useMemo(
    () =>
      shownKey.split(',').flatMap((field) => {
        const column = def.columns.find((c) => c.field === field);
        const derived = (matching?.derived ?? []).filter((entry) => entry.after === field);
        return column
          ? [columnDef(column, def.layout[field], columnWidths[field]), ...derived.map((entry) => entry.def)]
          : [];
      }),
    [def.columns, def.layout, shownKey, columnWidths, matching],
  );
  const selectedFields = [...new Set([...def.requiredFields, ...shownKey.split(',')])].join(',');
  const query = useMemo(() => ({ filterFields, searchKey }), [filterFields, searchKey]);
  const totalsKey = JSON.stringify(query);
  const pageKey = `${totalsKey}|${selectedFields}`;

  const fetchPage = useCallback(
    (
      page: number,
      pageSize: number,
      order: string | undefined,
      signal: AbortSignal,
      onUpdate: Update<PageAnswer<Row>>,
    ) =>
      def.page(
        query,
        { page, pageSize, selectedFields, ...(order ? { sort: order } : {}) },
        signal,
        onUpdate,
      ),
    [def, query, selectedFields],
  );
  const filtersActive = searchKey !== '' || Object.keys(filterFields).length > 0;

  return (
    // Its saved data counts for the Offline banner only while it is shown.
    <ViewShown.Provider value={!hidden}>
      <div className="workspace" hidden={hidden}>
        <FilterPanel
          label={`${def.title.replace(/s$/, '')} filters`}
          searchLabel={`Search ${def.noun}`}
          store={store}
          members={def.members}
          {...(def.scalars ? { scalars: def.scalars } : {})}
          lookup={def.lookup}
        >
          {filterExtras}
        </FilterPanel>
        <ProblemArea className="workspace-main" label={def.title}>
          <SummaryBoxes
            queryKey={totalsKey}
            load={(signal, onUpdate) => def.totals(query, signal, onUpdate)}
            boxes={def.boxes}
            scope={def.scope}
            // New marks are rows a refresh brought: the grid reads its rows again, and the boxes their figures.
            dataVersion={marks.mark}
          />
          <div className="results-toolbar">
            <ColumnChooser
              columns={order.flatMap((field) => {
                const column = def.columns.find((c) => c.field === field);
                return column ? [{ field, headerName: column.header }] : [];
              })}
              shown={shown}
              onChange={setColumns}
              onReset={resetColumns}
            />
            <ExportButtons
              noun={def.title}
              active={!hidden}
              start={(format) =>
                // A definition pairs its scope with its filter type; TypeScript cannot follow that pairing
                // through the generic, and main parses the input against the list it names anyway.
                startGridExport({
                  list: def.scope,
                  format,
                  filterFields,
                  searchKey,
                  fields: shown,
                  ...(sort ? { sort: `${sort.field} ${sort.direction}` } : {}),
                } as ExportGridInput)
              }
            />
            {/* The workspace's scope names its list: the generators or the manifests endpoints. */}
            <MakeAvailableOffline
              query={{ list: def.scope, ...query }}
              rows={matched.key === pageKey ? matched.count : null}
            />
          </div>
          {marks.marked.size > 0 && (
            <MarkedRowsLegend
              list={def.scope}
              noun={def.noun}
              marks={marks.marked}
              onShow={(key) => store.getState().setSearchKey(key)}
            />
          )}
          <ResultsGrid<Row>
            key={pageSize}
            pageSize={pageSize}
            label={`${def.title} results`}
            noun={def.noun}
            scope={def.scope}
            queryKey={pageKey}
            columnDefs={columnDefs}
            sort={sort}
            onSortChange={setSort}
            fetchPage={fetchPage}
            getRowId={def.rowId}
            {...(onRowActivated ? { onRowActivated } : {})}
            onSelectionChange={setSelection}
            onColumnsMoved={(fields) => setColumnOrder(movedInto(order, fields))}
            onColumnsResized={setColumnWidths}
            filtersActive={filtersActive}
            onClearFilters={clearAll}
            initialTopRow={initialTopRow}
            onTopRowChange={(row) => setTopRow(def.noun, row)}
            rowMark={marks.mark}
            onRowsShown={marks.shown}
            onCount={(count) => setMatched({ key: pageKey, count })}
          />
          {below?.(selection)}
        </ProblemArea>
      </div>
    </ViewShown.Provider>
  );
}
