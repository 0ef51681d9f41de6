/**
 * What the results grid says besides its rows, with a real AG Grid in jsdom: an empty result in one
 * message with its way out (not AG Grid's own "No Rows To Show" beside it), a failed query without a
 * "Loading" that never ends, and the marks of rows a pack's refresh brought, with the rows it showed.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IpcError } from '../../shared/ipc/contract.ts';
import { ResultsGrid } from '../../renderer/src/components/results-grid.tsx';
import type { Answer } from '../../renderer/src/data/tracker-data.ts';
import type { PageAnswer } from '../../renderer/src/components/results-grid.tsx';

type Row = { id: string };

afterEach(cleanup);

function grid(answer: Answer<PageAnswer<Row>>, marks: Partial<Parameters<typeof ResultsGrid<Row>>[0]> = {}) {
  return (
    <ResultsGrid<Row>
      label="Manifests results"
      noun="manifests"
      scope="manifests"
      pageSize={50}
      queryKey="UN1993"
      columnDefs={[{ field: 'id', headerName: 'Tracking number' }]}
      sort={undefined}
      onSortChange={() => {}}
      fetchPage={() => Promise.resolve(answer)}
      getRowId={(row) => row.id}
      filtersActive
      onClearFilters={() => {}}
      {...marks}
    />
  );
}

describe('the results grid', () => {
  it('says once that no rows match, with a way out', async () => {
    render(grid({ ok: true, data: { totalElements: 0, content: [] }, source: 'network', fetchedAt: 0 }));
    expect(
      await screen.findByText('No manifests match these filters.', undefined, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/No Rows To Show/);
  });

  it('says why a query failed and stops saying it is loading', async () => {
    const error: IpcError = {
      kind: 'server',
      message: 'The server at http://127.0.0.1:1 had a problem (HTTP 500).',
    };
    render(grid({ ok: false, error }));
    const alert = await screen.findByRole('alert', undefined, { timeout: 5000 });
    expect(alert.textContent).toMatch(/^The server failed while loading the manifests/);
    expect(document.body.textContent).not.toMatch(/Loading/);
  });

  it('marks the rows a refresh brought and tells which rows it showed', async () => {
    const rows = [{ id: 'A' }, { id: 'B' }, { id: 'C' }];
    const shown = vi.fn();
    const marks: Record<string, string> = { A: 'new', C: 'changed' };
    const { container } = render(
      grid(
        { ok: true, data: { totalElements: 3, content: rows }, source: 'network', fetchedAt: 0 },
        { rowMark: (row) => marks[row.id], onRowsShown: shown },
      ),
    );
    await screen.findByText('B', undefined, { timeout: 5000 });
    const rowOf = (id: string) => container.querySelector(`.ag-row[row-id="${id}"]`);
    await waitFor(() => expect(rowOf('A')?.classList.contains('row-new')).toBe(true));
    expect(rowOf('C')?.classList.contains('row-changed')).toBe(true);
    expect(rowOf('B')?.className).not.toMatch(/row-(new|changed)/);
    await waitFor(() => expect(shown).toHaveBeenCalledWith(rows));
  });
});
