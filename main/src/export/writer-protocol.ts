/**
 * What main and an export's writer thread say to each other (writer-thread.ts starts the thread,
 * writer-worker.ts is the thread). The writer pulls pages one at a time, so at most one page waits in it
 * while main fetches the next; the file's bytes come back to main, which owns the file.
 */
import type { ExportPage, GridFile, QueryLine, WritablePage, WriteProgress } from './grid-writer.ts';
import { readPageCells, type PageShape } from './page-cells.ts';

/**
 * A page of the API as it arrived: its JSON bytes, read and checked in the writer's thread. Parsing and
 * checking 100,000 manifests with their waste lines is most of what an export allocates; done in main, it
 * grew main's young generation to 128 MB. `list` names the page's kind for whoever handles it; the writer
 * reads it by the file's columns.
 */
export interface EncodedPage {
  list: 'generators' | 'manifests';
  json: Uint8Array;
}

/** Rows on their way to the writer: already read (e.g. chunks checked in main), or an API page's bytes. */
export type SourcePage = ExportPage | EncodedPage;

/** What the writer found in a page, told to the page source so it knows whether to ask for more. */
export interface PageCount {
  rows: number;
  totalElements: number;
}

/** Everything about the file the thread needs, without the `describe` function, which stays in main. */
export interface WriterSetup {
  file: Omit<GridFile, 'describe'>;
  spillPath: string;
}

export type ToWorker =
  | { type: 'page'; page: SourcePage }
  /** No more pages; the Query sheet's lines, now that the number of rows is known. */
  | { type: 'end'; query: readonly QueryLine[] }
  /** The file took the last output; more may come. */
  | { type: 'written' }
  /** The file is complete and closed. */
  | { type: 'closed' }
  | { type: 'abort' };

export type FromWorker =
  /** Wants the next page; `counted` is what the previous page held. */
  | { type: 'next'; counted?: PageCount }
  | { type: 'progress'; progress: WriteProgress }
  | { type: 'output'; bytes: Uint8Array }
  /** The workbook is complete: close the file. */
  | { type: 'output-end' }
  | { type: 'done'; rows: number }
  /** `code` is a file-system error's (ENOSPC…); `expected` marks a message meant for the user as it is. */
  | { type: 'failed'; message: string; code?: string; expected: boolean };

/**
 * A page as the writer takes it. An API page is read into cells with the same tolerant checks and the same
 * messages as any other answer (page-cells.ts); a page that does not read throws with the message the
 * user sees.
 */
export function readSourcePage(
  page: SourcePage,
  shape: PageShape,
  fail: (message: string) => Error,
): WritablePage {
  if ('rows' in page) return page;
  return readPageCells(
    Buffer.from(page.json.buffer, page.json.byteOffset, page.json.byteLength).toString(),
    shape,
    fail,
  );
}
