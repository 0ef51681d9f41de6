/**
 * The results grid's datasource over AG Grid's infinite row model, for one query.
 *
 * Every `getRows` ends in exactly one callback to the grid, whatever happens to its request: its rows
 * (`successCallback`), or `failCallback` when it fails, throws, or is superseded. AG Grid counts a block as
 * loading until it hears one of them, and with `maxConcurrentDatasourceRequests` it starts nothing new while
 * that many are loading: two requests that were aborted and never reported stopped all loading for good
 * (the grid stayed on "Loading…" until the page was reloaded). A superseded request is reported at the moment
 * it is aborted, so the grid frees its slot at once; the grid itself ignores a report for a block it has
 * dropped (a new sort or query) or loaded again since (its version moved on), so reporting is always safe.
 *
 * A request is superseded when the grid asks for the same block again (a refresh), when it asks with another
 * sort (every block of the old sort is dropped), and when the query ends (`abortAll`). An answer that
 * arrives after its request was superseded, late or out of order, is never shown.
 */
import type { IDatasource, IGetRowsParams } from 'ag-grid-community';
import type { IpcError } from '../../../shared/ipc/contract.ts';
import { MESSAGES } from '../../../shared/ipc/messages.ts';
import type { Provenance } from '../data/pipeline.ts';
import { isAbortError, type Answer, type Update } from '../data/tracker-data.ts';

export type PageAnswer<Row> = { totalElements: number; content: Row[] };

export type FetchPage<Row> = (
  page: number,
  pageSize: number,
  sort: string | undefined,
  signal: AbortSignal,
  onUpdate: Update<PageAnswer<Row>>,
) => Promise<Answer<PageAnswer<Row>>>;

/**
 * Where the datasource asks for pages, and what the grid around it hears of the answers: only answers to
 * requests still wanted are told.
 */
export interface PageSource<Row> {
  fetchPage: FetchPage<Row>;
  /** A page arrived: the query's row count, and where the page came from. */
  answered(totalElements: number, provenance: Provenance): void;
  /** A request failed (never for a request that was superseded). */
  failed(error: IpcError): void;
  /** The network's answer to a page first answered from saved data; `changed` when its rows differ. */
  revalidated(provenance: Provenance, changed: boolean): void;
}

export interface QueryDatasource {
  datasource: IDatasource;
  /** The query is over: every request still in flight is aborted and reported to the grid. */
  abortAll(): void;
}

/** "field asc|desc" from the grid's sort model, as the API takes it; undefined for the server's order. */
function sortOf(params: IGetRowsParams): string | undefined {
  const item = params.sortModel[0];
  return item ? `${item.colId} ${item.sort}` : undefined;
}

export function queryDatasource<Row>(pageSize: number, source: PageSource<Row>): QueryDatasource {
  const inFlight = new Map<number, AbortController>();
  let lastSort: string | undefined;
  // Requests that reported but may still call back: a page given from saved data is revalidated after it
  // reported, and that answer must not reach a grid showing another query or sort (a revalidation held up by
  // a server that hangs came back after the user's next search, and took that search's freshness label).
  const answeredFromSaved = new Set<AbortController>();
  const abortAll = () => {
    for (const wanted of [...inFlight.values(), ...answeredFromSaved]) wanted.abort();
    inFlight.clear();
    answeredFromSaved.clear();
  };

  const getRows = (params: IGetRowsParams) => {
    const sort = sortOf(params);
    // A new sort: the grid has dropped every block of the old one, so their requests are not wanted.
    if (sort !== lastSort) abortAll();
    lastSort = sort;
    inFlight.get(params.startRow)?.abort();
    const wanted = new AbortController();
    inFlight.set(params.startRow, wanted);

    let reported = false;
    const report = (tell: () => void) => {
      if (reported) return;
      reported = true;
      if (inFlight.get(params.startRow) === wanted) inFlight.delete(params.startRow);
      tell();
    };
    // Superseded: the grid hears at once, rather than when (or if) the request settles.
    wanted.signal.addEventListener('abort', () => report(() => params.failCallback()), { once: true });

    const onUpdate: Update<PageAnswer<Row>> = (answer, changed) => {
      answeredFromSaved.delete(wanted);
      if (wanted.signal.aborted || !answer.ok) return;
      source.revalidated({ source: answer.source, fetchedAt: answer.fetchedAt }, changed);
    };
    // Async, so that a fetch that throws before it returns a promise is reported like one that rejects.
    const request = (async () =>
      source.fetchPage(Math.floor(params.startRow / pageSize), pageSize, sort, wanted.signal, onUpdate))();
    request.then(
      (answer) =>
        report(() => {
          if (answer.ok) {
            if (answer.source === 'cache') answeredFromSaved.add(wanted);
            params.successCallback(answer.data.content, answer.data.totalElements);
            source.answered(answer.data.totalElements, {
              source: answer.source,
              fetchedAt: answer.fetchedAt,
            });
          } else {
            params.failCallback();
            source.failed(answer.error);
          }
        }),
      (error: unknown) =>
        report(() => {
          params.failCallback();
          if (isAbortError(error)) return;
          // A defect, not a failure of the server's: the grid is told, and so is the user and the log.
          console.error('A page of the grid could not be loaded:', error);
          source.failed({ kind: 'server', message: MESSAGES.internal });
        }),
    );
  };

  return { datasource: { getRows }, abortAll };
}
