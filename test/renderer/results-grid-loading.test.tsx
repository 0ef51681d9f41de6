/**
 * The results grid's loading in jsdom, with a real AG Grid and a server the test answers by hand: sorts and
 * searches changed while pages are still on their way, answers that come late and out of order, failures and
 * defects. Whatever happened before, the current query's rows appear once its answer arrives: the grid never
 * stays on "Loading…" with empty rows.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ColDef } from 'ag-grid-community';
import type { IGetRowsParams } from 'ag-grid-community';
import { ResultsGrid } from '../../renderer/src/components/results-grid.tsx';
import { queryDatasource, type PageAnswer } from '../../renderer/src/components/grid-datasource.ts';
import type { Answer, Update } from '../../renderer/src/data/tracker-data.ts';

type Row = { id: string; name: string };

const COLUMNS: ColDef<Row>[] = [
  { field: 'id', headerName: 'EPA ID' },
  { field: 'name', headerName: 'Name' },
];

/** One request the grid made, answered when the test says. */
interface Call {
  page: number;
  sort: string | undefined;
  signal: AbortSignal;
  answer(result: Answer<PageAnswer<Row>>): void;
  fail(error: Error): void;
}

/**
 * A server answered by hand. `honoursAbort`: an aborted request rejects at once with an AbortError, as the
 * data pipeline's do; otherwise its answer still arrives whenever the test gives it (a late answer).
 */
function handServer({ honoursAbort }: { honoursAbort: boolean }) {
  const calls: Call[] = [];
  const fetchPage = vi.fn(
    (page: number, _size: number, sort: string | undefined, signal: AbortSignal) =>
      new Promise<Answer<PageAnswer<Row>>>((resolve, reject) => {
        calls.push({ page, sort, signal, answer: resolve, fail: reject });
        if (honoursAbort)
          signal.addEventListener('abort', () =>
            reject(new DOMException('The request was aborted.', 'AbortError')),
          );
      }),
  );
  return { calls, fetchPage };
}

function rows(prefix: string, count: number): Row[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}${index + 1}`,
    name: `${prefix} ${index}`,
  }));
}

function page(prefix: string, total: number): Answer<PageAnswer<Row>> {
  return {
    ok: true,
    data: { totalElements: total, content: rows(prefix, total) },
    source: 'network',
    fetchedAt: 0,
  };
}

function grid(fetchPage: ReturnType<typeof handServer>['fetchPage'], queryKey: string) {
  return (
    <ResultsGrid<Row>
      label="Generators results"
      noun="generators"
      scope="generators"
      pageSize={50}
      queryKey={queryKey}
      columnDefs={COLUMNS}
      sort={undefined}
      onSortChange={() => {}}
      fetchPage={fetchPage}
      getRowId={(row) => row.id}
      filtersActive={false}
      onClearFilters={() => {}}
    />
  );
}

/** A click on a column's header, which sorts by it (ascending, then descending, then none). */
async function clickHeader(name: string) {
  const header = screen.getByRole('columnheader', { name: new RegExp(name) });
  const label = header.querySelector('.ag-header-cell-label') ?? header;
  fireEvent.click(label);
  await act(async () => {});
}

/** Waits for the grid's next request, the `count`-th in all. */
async function nthCall(calls: Call[], count: number): Promise<Call> {
  await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(count));
  return calls[count - 1]!;
}

const status = () => document.querySelector('.results-status')?.textContent;

afterEach(cleanup);

describe('ResultsGrid loading', () => {
  it('shows the last query’s rows after sorts and a search changed while the first pages were loading', async () => {
    const server = handServer({ honoursAbort: true });
    const { rerender } = render(grid(server.fetchPage, 'acme'));
    await nthCall(server.calls, 1);
    await clickHeader('Name');
    await nthCall(server.calls, 2);
    await clickHeader('Name');
    await nthCall(server.calls, 3);
    rerender(grid(server.fetchPage, 'acme corp'));
    await clickHeader('EPA ID');
    const last = await nthCall(server.calls, 4);
    // Every request but the last was superseded, and the grid was told of each.
    expect(server.calls.slice(0, -1).every((call) => call.signal.aborted)).toBe(true);
    expect(last.sort).toBe('id asc');
    act(() => last.answer(page('C', 3)));
    expect(await screen.findByText('C1')).toBeTruthy();
    expect(status()).toBe('3 generators');
  });

  it('never shows answers of superseded requests that arrive late and out of order', async () => {
    const server = handServer({ honoursAbort: false });
    const { rerender } = render(grid(server.fetchPage, 'first'));
    const first = await nthCall(server.calls, 1);
    await clickHeader('Name');
    const second = await nthCall(server.calls, 2);
    rerender(grid(server.fetchPage, 'third'));
    const third = await nthCall(server.calls, 3);
    act(() => third.answer(page('T', 2)));
    expect(await screen.findByText('T1')).toBeTruthy();
    // The older answers come after the newest, the oldest last.
    act(() => second.answer(page('S', 4)));
    act(() => first.answer(page('F', 5)));
    await act(async () => {});
    expect(screen.queryByText('S1')).toBeNull();
    expect(screen.queryByText('F1')).toBeNull();
    expect(status()).toBe('2 generators');
    // Still loading after all that: a new sort is asked for and shown.
    await clickHeader('Name');
    const sorted = await nthCall(server.calls, 4);
    act(() => sorted.answer(page('N', 1)));
    expect(await screen.findByText('N1')).toBeTruthy();
  });

  it('says what failed, and loads the next query after a failure and a defect', async () => {
    const server = handServer({ honoursAbort: true });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { rerender } = render(grid(server.fetchPage, 'one'));
    const failed = await nthCall(server.calls, 1);
    act(() => failed.answer({ ok: false, error: { kind: 'timeout', message: 'No answer within 20 s.' } }));
    expect(await screen.findByRole('alert')).toBeTruthy();

    rerender(grid(server.fetchPage, 'two'));
    const broken = await nthCall(server.calls, 2);
    act(() => broken.fail(new TypeError('cannot read the page')));
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(await screen.findByRole('alert')).toBeTruthy();

    rerender(grid(server.fetchPage, 'three'));
    const next = await nthCall(server.calls, 3);
    act(() => next.answer(page('R', 2)));
    expect(await screen.findByText('R1')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    error.mockRestore();
  });

  it('asks again for a failed page on Retry', async () => {
    const server = handServer({ honoursAbort: true });
    render(grid(server.fetchPage, 'one'));
    const failed = await nthCall(server.calls, 1);
    act(() => failed.answer({ ok: false, error: { kind: 'offline', message: 'No network.' } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    const again = await nthCall(server.calls, 2);
    act(() => again.answer(page('A', 1)));
    expect(await screen.findByText('A1')).toBeTruthy();
  });
});

describe('queryDatasource', () => {
  /** getRows params whose callbacks count how often they are called. */
  function params(startRow: number, sort?: 'asc' | 'desc') {
    const calls = { success: 0, fail: 0 };
    const p = {
      startRow,
      endRow: startRow + 50,
      sortModel: sort ? [{ colId: 'name', sort }] : [],
      filterModel: {},
      context: undefined,
      successCallback: () => (calls.success += 1),
      failCallback: () => (calls.fail += 1),
    } as unknown as IGetRowsParams;
    return { p, calls };
  }

  it('ends every getRows in exactly one callback: answered, failed, thrown, superseded or late', async () => {
    const server = handServer({ honoursAbort: false });
    const listener = { answered: vi.fn(), failed: vi.fn(), revalidated: vi.fn() };
    const source = queryDatasource<Row>(50, { fetchPage: server.fetchPage, ...listener });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const requests = [params(0), params(50), params(100), params(0), params(0, 'asc'), params(50, 'asc')];
    for (const request of requests) source.datasource.getRows(request.p);
    // The second block 0 superseded the first; the new sort superseded every block of the old one.
    const [first, second, third, fourth, fifth, sixth] = server.calls;
    act(() => first!.answer(page('A', 1)));
    act(() => second!.answer({ ok: false, error: { kind: 'server', message: 'HTTP 500' } }));
    act(() => third!.fail(new Error('defect')));
    act(() => fourth!.answer(page('B', 1)));
    act(() => fifth!.answer(page('C', 1)));
    act(() => sixth!.fail(new Error('defect')));
    await act(async () => {});
    source.abortAll();
    expect(requests.map(({ calls }) => calls)).toEqual([
      { success: 0, fail: 1 },
      { success: 0, fail: 1 },
      { success: 0, fail: 1 },
      { success: 0, fail: 1 },
      { success: 1, fail: 0 },
      { success: 0, fail: 1 },
    ]);
    expect(listener.answered).toHaveBeenCalledTimes(1);
    expect(listener.failed).toHaveBeenCalledTimes(1);
    error.mockRestore();
  });
  it('a page given from saved data hears its revalidation while its query is shown, never after', async () => {
    const updates: { update: Update<PageAnswer<Row>>; signal: AbortSignal }[] = [];
    const fetchPage = vi.fn(
      (
        _page: number,
        _size: number,
        _sort: string | undefined,
        signal: AbortSignal,
        update: Update<PageAnswer<Row>>,
      ) => {
        updates.push({ update, signal });
        return Promise.resolve<Answer<PageAnswer<Row>>>({
          ok: true,
          data: { totalElements: 1, content: rows('Saved', 1) },
          source: 'cache',
          fetchedAt: 0,
        });
      },
    );
    const listener = { answered: vi.fn(), failed: vi.fn(), revalidated: vi.fn() };
    const source = queryDatasource<Row>(50, { fetchPage, ...listener });
    const [first, second] = [params(0), params(50)];
    source.datasource.getRows(first.p);
    source.datasource.getRows(second.p);
    await act(async () => {});
    expect(listener.answered).toHaveBeenCalledTimes(2);
    act(() => updates[0]!.update(page('Fresh', 1), true));
    expect(listener.revalidated).toHaveBeenCalledOnce();
    // The user's next search ends this query while the second page's revalidation still waits on a server
    // that hangs: it is cancelled, and its late answer is not told to the grid showing the next query.
    source.abortAll();
    expect(updates[1]!.signal.aborted).toBe(true);
    act(() => updates[1]!.update(page('Late', 1), true));
    expect(listener.revalidated).toHaveBeenCalledOnce();
    expect([first.calls, second.calls]).toEqual([
      { success: 1, fail: 0 },
      { success: 1, fail: 0 },
    ]);
  });
});
