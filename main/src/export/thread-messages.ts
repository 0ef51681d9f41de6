/**
 * What main and an export's two threads say to each other (export-threads.ts holds main's side and draws the
 * whole exchange). The reader (reader-worker.ts) packs each page main hands it and moves it to the writer
 * (writer-worker.ts) over a channel of their own, so packed pages never pass through main; it tells main only
 * what each page held. The two channels keep no order between them, so main's `end` says how many pages
 * were sent. The file's bytes come back to main, which owns the file.
 */
import type { MessagePort } from 'node:worker_threads';
import type { PackedPage } from './cell-batch.ts';
import type { FileShape, PageCount, PageShape, QueryLine, SourcePage, WriteProgress } from './grid-file.ts';

/** The writer's setup: the file without its Query sheet, and its end of the channel from the reader. */
export interface WriterSetup {
  file: FileShape;
  spillPath: string;
  /** Rows a sheet may hold, the header included (Excel's limit unless a test lowers it). */
  sheetRows: number;
  pages: MessagePort;
}

/** The reader's setup: the pages' shape, and its end of the channel to the writer. */
export interface ReaderSetup {
  shape: PageShape;
  pages: MessagePort;
}

export type ToReader = { type: 'page'; page: SourcePage };

/** A page read, on the channel from the reader to the writer. */
export type ReadPage = { type: 'page'; page: PackedPage };

export type FromReader =
  /** The page was read and sent on to the writer. */
  | { type: 'read'; counted: PageCount }
  /** `expected` marks a message meant for the user as it is (a page that did not read). */
  | { type: 'failed'; message: string; expected: boolean };

export type ToWriter =
  /**
   * No more pages after the `pages`-th from the reader, which may still be on its way; the Query sheet's
   * lines, now that the number of rows is known.
   */
  | { type: 'end'; pages: number; query: readonly QueryLine[] }
  /** The file took the last output; more may come. */
  | { type: 'written' }
  /** The file is complete and closed. */
  | { type: 'closed' }
  | { type: 'abort' };

export type FromWriter =
  /** Wants the next page. */
  | { type: 'next' }
  /** Has taken every page the reader sent: the reader may go. */
  | { type: 'taken' }
  | { type: 'progress'; progress: WriteProgress }
  | { type: 'output'; bytes: Uint8Array }
  /** The workbook is complete: close the file. */
  | { type: 'output-end' }
  | { type: 'done'; rows: number }
  /** `code` is a file-system error's (ENOSPC…). */
  | { type: 'failed'; message: string; code?: string };
