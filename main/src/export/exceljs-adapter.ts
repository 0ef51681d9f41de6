/**
 * Everything the export relies on in ExcelJS beyond its declared API, in one place. ExcelJS's streaming
 * writer declares no way to see whether its compressor keeps up, nor to stop a workbook midway; both are
 * reached through internals that an upgrade may move, so they are read only here, and
 * test/main/export/exceljs-adapter.test.ts fails if an installed ExcelJS no longer has them.
 *
 * It also holds the writer's options and the one rule of its public API that is easy to break silently:
 * frozen panes are honoured only when given to addWorksheet.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';

export type WorkbookWriter = ExcelJS.stream.xlsx.WorkbookWriter;
export type Worksheet = ExcelJS.Worksheet;

/**
 * Deflate at level 1: compressing is what the writer waits on most (a thread-pool job per chunk), and level
 * 1 keeps up with the rows at about a fifth more bytes than the default level 6.
 */
const ZIP_OPTIONS: Partial<ExcelJS.stream.xlsx.ArchiverZipOptions> = { zlib: { level: 1 } };

/**
 * A streaming workbook writing to `output`: styles on (number formats, the bold header), no shared strings
 * (their table is held in memory to the end).
 */
export function workbookWriter(output: Writable): WorkbookWriter {
  return new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
    zip: ZIP_OPTIONS,
  });
}

/** A sheet whose first row stays in view; frozen panes set after addWorksheet are ignored. */
export function frozenSheet(workbook: WorkbookWriter, name: string): Worksheet {
  return workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }] });
}

/**
 * A worksheet writer's stream (a StreamBuf) and the stream it feeds: archiver wraps the StreamBuf in a
 * PassThrough (readable-stream 2, which predates `writableNeedDrain`) that feeds the entry's deflate stream.
 * The StreamBuf ignores backpressure, so that PassThrough's buffer is where committed rows wait for the
 * compressor.
 */
interface CompressorInput extends NodeJS.EventEmitter {
  _writableState: { needDrain: boolean; length: number };
}
interface SheetInternals {
  stream?: { pipes?: CompressorInput[] };
}

/** Committed sheet XML waiting for the compressor, and how to wait until it has taken it. */
export interface CompressorBacklog {
  bytes: number;
  /** Whether the stream asked its writer to wait: only then does `drained` come. */
  full: boolean;
  drained: (signal: AbortSignal) => Promise<unknown>;
}

/**
 * The backlog of `sheet`'s compressor; undefined before the zip has started reading the sheet (its rows
 * then wait in the sheet's own buffer, which the zip reads as soon as it starts).
 */
export function compressorBacklog(sheet: Worksheet): CompressorBacklog | undefined {
  const input = (sheet as unknown as SheetInternals).stream?.pipes?.[0];
  if (!input) return undefined;
  const state = input._writableState;
  return {
    bytes: state.length,
    full: state.needDrain,
    drained: (signal) => once(input, 'drain', { signal }),
  };
}

/** ExcelJS keeps its zip (archiver) on the writer without declaring it; this is the part used here. */
interface ZipOwner {
  zip: NodeJS.ReadableStream & { abort(): void };
}

/**
 * Stops a workbook midway: detached from `output` first, so the zip's last buffered bytes are not written
 * to a closed file, then aborted, then `output` is destroyed (whoever opened the file removes it).
 */
export function abortWorkbook(workbook: WorkbookWriter, output: Writable): void {
  const { zip } = workbook as unknown as ZipOwner;
  zip.unpipe(output);
  zip.abort();
  output.destroy();
}
