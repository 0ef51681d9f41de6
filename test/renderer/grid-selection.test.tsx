/**
 * The selection a detail follows (a manifest's waste lines), with a real AG Grid in jsdom: after a new
 * filter or search it is kept only when its row is among the new rows, and otherwise cleared with word that
 * it left, word that a later query withdraws; the grid does not quietly select it again when a later query
 * brings the row back.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ResultsGrid } from '../../renderer/src/components/results-grid.tsx';
import type { GridSelection } from '../../renderer/src/components/grid-selection.ts';

type Row = { id: string; name: string };

afterEach(cleanup);

/** Rows by query key; a key missing from the map answers after `release` is called, as a slow server. */
function grid(
  queryKey: string,
  rows: Row[],
  onSelectionChange: (selection: GridSelection<Row>) => void,
  answer?: Promise<void>,
) {
  return (
    <ResultsGrid<Row>
      label="Manifests results"
      noun="manifests"
      scope="manifests"
      pageSize={50}
      queryKey={queryKey}
      columnDefs={[
        { field: 'id', headerName: 'Tracking number' },
        { field: 'name', headerName: 'Generator' },
      ]}
      sort={undefined}
      onSortChange={() => {}}
      fetchPage={async () => {
        await answer;
        return {
          ok: true,
          data: { totalElements: rows.length, content: rows },
          source: 'network',
          fetchedAt: 0,
        };
      }}
      getRowId={(row) => row.id}
      onSelectionChange={onSelectionChange}
      filtersActive
      onClearFilters={() => {}}
    />
  );
}

const UN1268 = { id: '826617874GBF', name: 'Ironwood' };
const OTHER = { id: '941283374ELC', name: 'Northstar' };
const THIRD = { id: '934826698ELC', name: 'Pinnacle' };

async function select(text: string) {
  const cell = await screen.findByText(text, undefined, { timeout: 5000 });
  fireEvent.pointerDown(cell);
  fireEvent.click(cell);
  await act(async () => {});
}

describe('the selection a detail follows', () => {
  it('clears, saying so, when a new query leaves the selected row out, and does not come back by itself', async () => {
    const seen = vi.fn<(selection: GridSelection<Row>) => void>();
    const view = render(grid('all', [UN1268, OTHER], seen));
    await select(UN1268.id);
    await waitFor(() => expect(seen).toHaveBeenLastCalledWith({ row: UN1268 }));

    let release = () => {};
    const slow = new Promise<void>((done) => (release = done));
    view.rerender(grid('UN1993', [OTHER], seen, slow));
    // Until the new rows are in, the detail does not pass the old row off as one of them.
    await waitFor(() => expect(seen).toHaveBeenLastCalledWith({ pending: UN1268 }));
    release();
    await waitFor(() => expect(seen).toHaveBeenLastCalledWith({ left: UN1268 }));

    // A later query holding the row again does not select it behind the user's back, and no longer says
    // the results leave it out: the detail asks for a selection.
    view.rerender(grid('all again', [UN1268, OTHER, THIRD], seen));
    await screen.findByText(THIRD.id, undefined, { timeout: 5000 });
    await act(async () => {});
    expect(seen).toHaveBeenLastCalledWith(null);
    expect(document.querySelectorAll('.ag-row-selected')).toHaveLength(0);

    await select(THIRD.id);
    await waitFor(() => expect(seen).toHaveBeenLastCalledWith({ row: THIRD }));
  });

  it('keeps the selection, with the new query’s copy of the row, when the row is among the new rows', async () => {
    const seen = vi.fn<(selection: GridSelection<Row>) => void>();
    const view = render(grid('all', [UN1268, OTHER], seen));
    await select(OTHER.id);
    await waitFor(() => expect(seen).toHaveBeenLastCalledWith({ row: OTHER }));
    const renamed = { ...OTHER, name: 'Northstar Chemical' };
    view.rerender(grid('Northstar', [renamed], seen));
    await waitFor(() => expect(seen).toHaveBeenLastCalledWith({ row: renamed }));
  });
});
