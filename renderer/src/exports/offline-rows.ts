/**
 * The renderer's half of an export of offline data, free of the page's globals so it runs in plain Node
 * too: the list requests that read the export's rows from an offline pack (the same request, page by page
 * and sorted as the grid is, that main sends the API when online), and the loop that sends them to main in
 * chunks, each awaited before the next: main answers a chunk once its rows are written.
 */
import { LIMITS } from '../../../shared/api/index.ts';
import type { Result } from '../../../shared/ipc/contract.ts';
import {
  OFFLINE_CHUNK_LINES,
  OFFLINE_CHUNK_ROWS,
  exportPageRequest,
  chunkLines,
  type ExportGridInput,
} from '../../../shared/ipc/exports.ts';
import type { EngineRequest } from '../offline/engine/contract.ts';

export type ListRequest = EngineRequest<'generators.list'> | EngineRequest<'manifests.list'>;

/** One page of the export's rows as the engine's list request: the request main sends the API online. */
export function pageRequest(query: ExportGridInput, page: number): ListRequest {
  return query.list === 'generators'
    ? { name: 'generators.list', input: exportPageRequest(query, page) }
    : { name: 'manifests.list', input: exportPageRequest(query, page) };
}

export interface OfflineRowsChannel {
  /** One page of the list from the pack; rejects when the pack cannot answer. */
  page(request: ListRequest): Promise<{ totalElements: number; content: readonly unknown[] }>;
  /** Sends rows to main; answers once they are written, or refuses when the export has stopped. */
  send(total: number, rows: readonly unknown[]): Promise<Result<null>>;
  /** After the last chunk; with `failure`, the export fails with it. */
  end(failure?: string): Promise<Result<null>>;
}

/**
 * A page's rows in chunks main takes: OFFLINE_CHUNK_ROWS rows at most, and OFFLINE_CHUNK_LINES waste lines
 * in all (a manifest's own lines are far fewer, LIMITS.wasteLinesMax).
 */
export function* chunksOf(rows: readonly unknown[]): Generator<readonly unknown[]> {
  let start = 0;
  while (start < rows.length) {
    let end = start;
    let lines = 0;
    while (end < rows.length && end - start < OFFLINE_CHUNK_ROWS) {
      const more = chunkLines([rows[end]]);
      if (end > start && lines + more > OFFLINE_CHUNK_LINES) break;
      lines += more;
      end += 1;
    }
    yield rows.slice(start, end);
    start = end;
  }
}

/**
 * Sends every row of the query from the pack, chunk by chunk. A chunk main refuses ends the sending: the
 * export was cancelled, or failed (a bad row, a full disk), and main's own event tells the user why.
 */
export async function sendOfflineRows(query: ExportGridInput, channel: OfflineRowsChannel): Promise<void> {
  let sent = 0;
  try {
    for (let page = 0; ; page += 1) {
      const answer = await channel.page(pageRequest(query, page));
      for (const rows of chunksOf(answer.content)) {
        const written = await channel.send(answer.totalElements, rows);
        if (!written.ok) return;
      }
      sent += answer.content.length;
      if (answer.content.length < LIMITS.pageSizeMax || sent >= answer.totalElements) break;
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await channel.end(`The offline data could not be read: ${reason}`);
    return;
  }
  await channel.end();
}
