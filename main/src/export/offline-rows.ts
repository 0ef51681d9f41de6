/**
 * The row source of an export of offline data: the renderer reads the rows from an offline pack and sends
 * them in chunks; each chunk is checked against its list's row schema and handed to the same writer an
 * export from the server uses. One chunk waits at a time, and the renderer's call for it is answered only
 * once it has been read and handed to the writer, which takes a page only as it finishes the one before,
 * so a fast pack cannot pile rows up in main.
 */
import type { z } from 'zod';
import { offlineChunkRows, type OFFLINE_ROW } from '../../../shared/ipc/exports.ts';
import { ENDED_MESSAGE, ExportFailure, moreRowsThanCounted } from './errors.ts';
import type { ExportPage, ExportRow } from './grid-file.ts';

export type OfflineList = keyof typeof OFFLINE_ROW;

/** The first problem of a chunk in words, naming the row and member: "row 3, total_waste: …". */
function problemOf(error: z.ZodError, offset: number): string {
  const issue = error.issues[0];
  if (!issue) return 'it is not a row of this list';
  const [index, ...member] = issue.path;
  const where = typeof index === 'number' ? `row ${offset + index + 1}` : 'the rows';
  const field = member.length > 0 ? `, ${member.map(String).join('.')}` : '';
  const message =
    issue.code === 'unrecognized_keys' ? `no such member: ${issue.keys.join(', ')}` : issue.message;
  return `${where}${field}: ${message}`;
}

/**
 * Checks a chunk's rows against the list's row schema; the rows as parsed, or why not (the message counts
 * rows from the export's first, as the user would find them in the sheet).
 */
export function parseChunk(
  list: OfflineList,
  rows: readonly unknown[],
  offset: number,
): { ok: true; rows: ExportRow[] } | { ok: false; message: string } {
  const parsed = offlineChunkRows(list).safeParse(rows);
  if (parsed.success) return { ok: true, rows: parsed.data };
  return {
    ok: false,
    message: `The offline data sent for the export is not valid (${problemOf(parsed.error, offset)}); no file was written.`,
  };
}

interface Waiting {
  page: ExportPage;
  written: () => void;
  refused: (error: Error) => void;
}

/**
 * How long the writer waits for the renderer's next chunk before it gives up. A renderer that reloaded or
 * crashed sends nothing more, and its export must not hold a temporary file until the app quits; opening a
 * large pack in the engine before its first page is the longest honest wait, well under this.
 */
export const CHUNK_WAIT_MS = 120_000;

export const STOPPED_ARRIVING =
  'The offline data stopped arriving (the window was reloaded or closed); no file was written.';

export class ChunkFeed {
  readonly list: OfflineList;
  /** Rows handed over so far. */
  received = 0;
  /** The rows the first chunk said match: no more are taken. */
  private total: number | undefined;
  private readonly waitMs: number;
  private waiting: Waiting | undefined;
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(list: OfflineList, waitMs = CHUNK_WAIT_MS) {
    this.list = list;
    this.waitMs = waitMs;
  }

  /** Hands a chunk to the writer; resolves once it is written, rejects if the export stopped meanwhile. */
  push(page: ExportPage): Promise<void> {
    if (this.ended || this.failure) return Promise.reject(new ExportFailure(ENDED_MESSAGE));
    if (this.waiting) {
      return Promise.reject(new ExportFailure('A chunk was sent before the previous one was written.'));
    }
    this.total ??= page.totalElements;
    if (this.received + page.rows.length > this.total) {
      this.fail(new ExportFailure(moreRowsThanCounted(this.total)));
      return Promise.reject(this.failure ?? new ExportFailure(ENDED_MESSAGE));
    }
    this.received += page.rows.length;
    return new Promise((written, refused) => {
      this.waiting = { page, written, refused };
      this.notify();
    });
  }

  /** No more rows: the writer finishes the file. */
  end(): void {
    this.ended = true;
    this.notify();
  }

  /**
   * Fails the export with `error`: the writer stops and the file is not written. A chunk still waiting is
   * refused at once, as the writer may never come back for it (it may have stopped before its first row).
   */
  fail(error: Error): void {
    this.failure ??= error;
    this.waiting?.refused(this.failure);
    this.waiting = undefined;
    this.notify();
  }

  /** The rows as the writer reads them; throws the failure, or the signal's reason when cancelled. */
  async *pages(signal: AbortSignal): AsyncGenerator<ExportPage> {
    const onAbort = () => this.notify();
    signal.addEventListener('abort', onAbort);
    try {
      for (;;) {
        while (!this.waiting && !this.ended && !this.failure && !signal.aborted) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await new Promise<void>((resolve) => {
            this.wake = resolve;
            timer = setTimeout(() => this.fail(new ExportFailure(STOPPED_ARRIVING)), this.waitMs);
          });
          clearTimeout(timer);
        }
        signal.throwIfAborted();
        if (this.failure) throw this.failure;
        const next = this.waiting;
        if (!next) return;
        yield next.page;
        // More is asked for only once the page is read and handed to the writer.
        this.waiting = undefined;
        next.written();
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      // A chunk the writer never took (it failed, or was cancelled) is refused, so its sender stops.
      this.waiting?.refused(new ExportFailure(ENDED_MESSAGE));
      this.waiting = undefined;
      this.ended = true;
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
