/**
 * The results grid's copying in jsdom, with a real AG Grid: what Ctrl+C writes to the clipboard for a focused
 * cell and for rows picked with Shift and Ctrl, what a copy from the menu writes, and when it leaves the
 * copy to the browser.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ColDef } from 'ag-grid-community';
import { ResultsGrid } from '../../renderer/src/components/results-grid.tsx';

type Row = { id: string; name: string; tons: number };

const ROWS: Row[] = [
  { id: 'A1', name: 'Acme\tPlating', tons: 1234.5 },
  { id: 'B2', name: 'Bolt Works', tons: 0 },
  { id: 'C3', name: 'Cobalt', tons: 7 },
];

const COLUMNS: ColDef<Row>[] = [
  { field: 'id', headerName: 'EPA ID' },
  { field: 'name', headerName: 'Name' },
  {
    field: 'tons',
    headerName: 'Total waste (tons)',
    valueFormatter: (params) =>
      typeof params.value === 'number'
        ? params.value.toLocaleString('en-US', { minimumFractionDigits: 2 })
        : '',
  },
];

let writeText: ReturnType<typeof vi.fn<(text: string) => Promise<void>>>;

beforeEach(() => {
  writeText = vi.fn(() => Promise.resolve());
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.getSelection()?.removeAllRanges();
});

async function renderGrid() {
  const onSelectionChange = vi.fn();
  render(
    <ResultsGrid<Row>
      label="Generators results"
      noun="generators"
      scope="generators"
      pageSize={50}
      queryKey="all"
      columnDefs={COLUMNS}
      sort={undefined}
      onSortChange={() => {}}
      fetchPage={() =>
        Promise.resolve({
          ok: true,
          data: { totalElements: ROWS.length, content: ROWS },
          source: 'network',
          fetchedAt: 0,
        })
      }
      getRowId={(row) => row.id}
      onSelectionChange={onSelectionChange}
      filtersActive={false}
      onClearFilters={() => {}}
    />,
  );
  // The first render of a grid in jsdom takes over a second on a busy machine.
  await screen.findByText('A1', undefined, { timeout: 5000 });
  return onSelectionChange;
}

/** The grid cell of a row (by its EPA ID) and column (by its field). */
function cell(id: string, field: keyof Row): HTMLElement {
  const row = screen.getByText(id).closest('[role="row"]');
  const found = row?.querySelector<HTMLElement>(`[role="gridcell"][col-id="${field}"]`);
  if (!found) throw new Error(`no cell ${id}/${field}`);
  return found;
}

/** A click as AG Grid hears it: the pointer goes down (focus), then the click (row selection). */
async function click(target: HTMLElement, keys: { shiftKey?: boolean; ctrlKey?: boolean } = {}) {
  fireEvent.pointerDown(target, keys);
  fireEvent.click(target, keys);
  await act(async () => {});
}

async function pressCopy(target: HTMLElement) {
  fireEvent.keyDown(target, { key: 'c', ctrlKey: true });
  await act(async () => {});
}

describe('ResultsGrid copying', () => {
  it('copies the focused cell as the grid shows it', async () => {
    await renderGrid();
    await click(cell('A1', 'tons'));
    await pressCopy(cell('A1', 'tons'));
    expect(writeText).toHaveBeenCalledWith('1,234.50');
    expect(screen.getByRole('status').textContent).toBe('Copied Total waste (tons)');
  });

  it('copies rows picked with Shift+click and Ctrl+click, in grid order, under the headers', async () => {
    const onSelectionChange = await renderGrid();
    await click(cell('C3', 'name'));
    await click(cell('A1', 'name'), { shiftKey: true });
    // AG Grid tells the page about selection after the event, so the pane below follows a moment later.
    await waitFor(() => expect(onSelectionChange).toHaveBeenLastCalledWith({ row: ROWS[0] }));
    await pressCopy(cell('A1', 'name'));
    expect(writeText).toHaveBeenLastCalledWith(
      [
        'EPA ID\tName\tTotal waste (tons)',
        'A1\tAcme Plating\t1,234.50',
        'B2\tBolt Works\t0.00',
        'C3\tCobalt\t7.00',
      ].join('\n'),
    );
    expect(screen.getByRole('status').textContent).toBe('Copied 3 rows');

    await click(cell('A1', 'id'), { ctrlKey: true });
    // The focused row was just unpicked, so the pane below shows the first row still picked.
    await waitFor(() => expect(onSelectionChange).toHaveBeenLastCalledWith({ row: ROWS[1] }));
    await pressCopy(cell('A1', 'id'));
    expect(writeText).toHaveBeenLastCalledWith(
      ['EPA ID\tName\tTotal waste (tons)', 'B2\tBolt Works\t0.00', 'C3\tCobalt\t7.00'].join('\n'),
    );
  });

  it('leaves text the user selected to the browser', async () => {
    await renderGrid();
    await click(cell('B2', 'name'));
    const range = document.createRange();
    range.selectNodeContents(cell('B2', 'name'));
    document.getSelection()?.addRange(range);
    await pressCopy(cell('B2', 'name'));
    expect(writeText).not.toHaveBeenCalled();
    document.getSelection()?.removeAllRanges();
    await pressCopy(cell('B2', 'name'));
    expect(writeText).toHaveBeenCalledWith('Bolt Works');
  });

  it('answers a copy that is not a key press (Edit → Copy in the menu) with the same text', async () => {
    await renderGrid();
    await click(cell('A1', 'tons'));
    const written = new Map<string, string>();
    const clipboardData = { setData: (type: string, text: string) => written.set(type, text) };
    const copied = fireEvent.copy(cell('A1', 'tons'), { clipboardData });
    await act(async () => {});
    expect(copied).toBe(false);
    expect(written.get('text/plain')).toBe('1,234.50');
    expect(screen.getByRole('status').textContent).toBe('Copied Total waste (tons)');
    expect(writeText).not.toHaveBeenCalled();
  });

  it('says why when the clipboard refuses', async () => {
    writeText.mockRejectedValue(new Error('Write permission denied.'));
    await renderGrid();
    await click(cell('B2', 'id'));
    await pressCopy(cell('B2', 'id'));
    expect(screen.getByRole('status').textContent).toBe(
      'The clipboard refused the text: Write permission denied.',
    );
  });
});
