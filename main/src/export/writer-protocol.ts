/**
 * What main and an export's two threads say to each other (writer-thread.ts starts them): the reader
 * (reader-worker.ts) reads each page main fetched into cells, packs them and moves them to the writer
 * (writer-worker.ts) over a channel of their own, so packed pages never pass through main; it tells main
 * only what each page held. The writer pulls pages one at a time, asking main for the next as it starts on
 * one; main has the reader read one page ahead meanwhile. The two channels keep no order between them, so
 * main's `end` says how many pages were sent. The file's bytes come back to main, which owns the file.
 */
import { WASTE_LINE_COLUMNS } from '../../../shared/columns.ts';
import { packCells, type PackedPage } from './cell-batch.ts';
import type { ExportPage, GridFile, QueryLine, WriteProgress } from './grid-writer.ts';
import { readPageCells, recordPageCells, type PageShape } from './page-cells.ts';
import type { MessagePort } from 'node:worker_threads';

/**
 * A page of the API as it arrived: its JSON bytes, read and checked in the reader's thread. Parsing and
 * checking 100,000 manifests with their waste lines is most of what an export allocates; done in main, it
 * grew main's young generation to 128 MB. `list` names the page's kind for whoever handles it; the reader
 * reads it by the file's columns.
 */
export interface EncodedPage {
  list: 'generators' | 'manifests';
  json: Uint8Array;
}

/** Rows on their way to the writer: already read (e.g. chunks checked in main), or an API page's bytes. */
export type SourcePage = ExportPage | EncodedPage;

/** What the reader found in a page, told to the page source so it knows whether to ask for more. */
export interface PageCount {
  rows: number;
  totalElements: number;
}

/**
 * Everything about the file the writer needs, without the `describe` function, which stays in main; `pages`
 * is its end of the channel the reader sends packed pages on.
 */
export interface WriterSetup {
  file: Omit<GridFile, 'describe'>;
  spillPath: string;
  /** Rows a sheet may hold (WriteOptions.sheetRows). */
  sheetRows?: number;
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

export type ToWorker =
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

export type FromWorker =
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

/**
 * A page as the writer takes it: read into cells (an API page with the same tolerant checks and the same
 * messages as any other answer, page-cells.ts) and packed (cell-batch.ts). A page that does not read
 * throws with the message the user sees.
 */
export function packSourcePage(
  page: SourcePage,
  shape: PageShape,
  fail: (message: string) => Error,
): { page: PackedPage; counted: PageCount } {
  const { totalElements, cells, lineCells } =
    'rows' in page
      ? recordPageCells(shape, page)
      : readPageCells(
          Buffer.from(page.json.buffer, page.json.byteOffset, page.json.byteLength).toString(),
          shape,
          fail,
        );
  return {
    page: {
      totalElements,
      rowBatches: packCells(cells, shape.columns.length),
      lineBatches: shape.wasteLines ? packCells(lineCells, WASTE_LINE_COLUMNS.length) : [],
    },
    counted: { rows: cells.length, totalElements },
  };
}

/** The buffers of a packed page, moved rather than copied when it is posted to another thread. */
export function packedBuffers(page: PackedPage): ArrayBuffer[] {
  return [...page.rowBatches, ...page.lineBatches].map((batch) => batch.buffer as ArrayBuffer);
}
