/**
 * What an export writes and what flows through it, as plain data every module of the export path shares:
 * the file's shape, the pages as their sources give them, and the progress the writer reports. Types only,
 * so the sources, the threads and the writer depend on this module and never on one another for a type.
 */
import type { Column } from '../../../shared/columns.ts';

export type ExportRow = Readonly<Record<string, unknown>>;

/** Rows already read: offline rows, checked in main (offline-rows.ts). */
export interface ExportPage {
  totalElements: number;
  rows: readonly ExportRow[];
}

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

/** Rows on their way to the writer: already read (offline chunks), or an API page's bytes. */
export type SourcePage = ExportPage | EncodedPage;

/** What the reader found in a page, told to the page source so it knows whether to ask for more. */
export interface PageCount {
  rows: number;
  totalElements: number;
}

/**
 * Pages as the export's source gives them; the reader tells it what each page held (the value of every
 * `next()` after the first).
 */
export type SourcePages = AsyncIterator<SourcePage, unknown, PageCount>;

/** One line of the Query sheet: what was exported, from where, when. */
export type QueryLine = readonly [label: string, value: string | number | Date];

/** What the writer writes into: its columns, and whether the rows' waste lines are wanted. */
export interface PageShape {
  columns: readonly Column<string>[];
  /** Manifest workbooks add a sheet with every waste line of the rows (`waste_lines` of each row). */
  wasteLines: boolean;
}

/** The file as the threads know it: everything but the Query sheet, which main words once the rows are counted. */
export interface FileShape extends PageShape {
  format: 'xlsx' | 'csv';
  /** Name of the rows' sheet: "Generators" or "Manifests". */
  sheetName: string;
}

export interface GridFile extends FileShape {
  /** The Query sheet, given the number of rows written (xlsx only). */
  describe: (rows: number) => readonly QueryLine[];
}

export interface WriteProgress {
  rowsWritten: number;
  total: number;
  /** Once every row is written, the Waste lines sheet's own progress: lines written of all the lines. */
  wasteLines?: { written: number; total: number };
}
