/**
 * Writes the packed pages of a grid (pack-page.ts) to a stream as they arrive: an xlsx workbook through
 * ExcelJS's streaming writer, or CSV. Memory stays flat whatever the row count: each row is committed as soon
 * as it is written, and the writer waits for the stream and the compressor between pages. The stream is
 * given, not opened here: in an export it carries the bytes back to main, which owns the file.
 *
 * ExcelJS's streaming writer has rules that are easy to break silently, each followed here on purpose:
 * column widths and formats are set before the first row; every row is committed; one sheet is finished and
 * committed before the next is started (the zip holds one open entry at a time, so a second sheet's rows
 * would pile up in memory); styles only on the header and number columns, one object per column
 * (sheet-series.ts, which also splits a table across sheets at Excel's row limit). What it does not declare
 * is reached through exceljs-adapter.ts.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { WASTE_LINE_COLUMNS } from '../../../shared/columns.ts';
import { BATCH_HEADER_BYTES, batchLength, batchRows, decodeCells, type PackedPage } from './cell-batch.ts';
import { cellText, type CellValue } from './cells.ts';
import { csvCell, csvField } from './csv-cells.ts';
import {
  abortWorkbook,
  compressorBacklog,
  workbookWriter,
  type WorkbookWriter,
  type Worksheet,
} from './exceljs-adapter.ts';
import type { GridFile, QueryLine, WriteProgress } from './grid-file.ts';
import { SheetSeries } from './sheet-series.ts';

export interface WriteOptions {
  signal: AbortSignal;
  onProgress: (progress: WriteProgress) => void;
  /** Where the waste lines wait while the first sheet is written; removed when done. */
  spillPath: string;
  /** Rows a sheet may hold, the header included: Excel's limit unless a test lowers it. */
  sheetRows?: number;
}

/**
 * Watches an output stream from the moment it is opened: a failure (no permission, disk full) can come
 * before anyone waits on the stream, and must then surface at the next check instead of being lost.
 */
function watch(stream: Writable) {
  let failure: Error | undefined;
  stream.on('error', (error) => {
    failure ??= error;
  });
  const closed = new Promise<void>((resolve) => stream.once('close', resolve));
  const check = () => {
    if (failure !== undefined) throw failure;
  };
  return {
    check,
    /** Resolves when the stream can take more, or when it closed (then `check` throws its failure). */
    async drained(signal: AbortSignal): Promise<void> {
      check();
      if (stream.writableNeedDrain) await Promise.race([once(stream, 'drain', { signal }), closed]);
      check();
    },
    async finished(): Promise<void> {
      await closed;
      check();
    },
    /** Waits for `event`, or for the stream to close (then `check` throws its failure). */
    async until(event: Promise<unknown>): Promise<void> {
      await Promise.race([event, closed]);
      check();
    },
  };
}

/** Writes every page to `output`; throws the signal's reason when aborted. Returns the number of rows. */
export async function writeGridFile(
  file: GridFile,
  pages: AsyncIterable<PackedPage>,
  output: Writable,
  options: WriteOptions,
): Promise<number> {
  return file.format === 'csv'
    ? writeCsv(file, pages, output, options)
    : writeXlsx(file, pages, output, options);
}

const BOLD = { bold: true } as const;

/** Packed batches unpacked one at a time, so only the batch being written is held as cells. */
function* unpacked(batches: readonly Uint8Array[]): Generator<CellValue[][]> {
  for (const batch of batches) yield decodeCells(batch);
}

type Watched = ReturnType<typeof watch>;

/**
 * Bytes of sheet XML that may wait for the compressor before the writer waits for it. The compressor runs
 * in the thread pool beside the writer; waiting for it to empty after every page (about 0.5 MB of XML)
 * left the writer idle while it compressed that page: 1.9-2.7 s of an export of 100,000 manifests with
 * their waste lines. With this much slack the writer waits only when the compressor falls behind.
 */
const COMPRESSOR_SLACK_BYTES = 2 * 1024 * 1024;

/**
 * Lets the compressor and the file catch up: without it, committed rows pile up in memory ahead of them
 * (measured: 450 MB peak for 100,000 manifests with their waste lines).
 */
async function drain(sheet: Worksheet | undefined, output: Watched, signal: AbortSignal): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  const backlog = sheet && compressorBacklog(sheet);
  if (backlog?.full && backlog.bytes > COMPRESSOR_SLACK_BYTES) await output.until(backlog.drained(signal));
  await output.drained(signal);
  signal.throwIfAborted();
}

async function writeXlsx(
  file: GridFile,
  pages: AsyncIterable<PackedPage>,
  stream: Writable,
  { signal, onProgress, spillPath, sheetRows }: WriteOptions,
): Promise<number> {
  const output = watch(stream);
  const workbook = workbookWriter(stream);
  const spillStream = file.wasteLines ? createWriteStream(spillPath) : undefined;
  const spill = spillStream && { stream: spillStream, watched: watch(spillStream) };
  let rows = 0;
  let lines = 0;
  const sheets = new SheetSeries(workbook, file.sheetName, file.columns, sheetRows);
  try {
    for await (const page of pages) {
      signal.throwIfAborted();
      const { lineBatches } = page;
      let batches: Iterable<CellValue[][]> = unpacked(page.rowBatches);
      if (!sheets.current) {
        // The first page's rows size the columns, so they are unpacked at once.
        const first = [...batches];
        batches = first;
        sheets.start(first.flat());
      }
      for (const batch of batches) {
        for (const values of batch) sheets.add(values);
        rows += batch.length;
      }
      if (spill) {
        for (const batch of lineBatches) {
          spill.stream.write(batch);
          lines += batchRows(batch);
        }
        await spill.watched.drained(signal);
      }
      onProgress({ rowsWritten: rows, total: Math.max(page.totalElements, rows) });
      await drain(sheets.current, output, signal);
    }
    sheets.finish();
    const query = [...sheets.queryLines('rows')];
    if (spill) {
      spill.stream.end();
      await spill.watched.finished();
      const lineSheets = new SheetSeries(workbook, 'Waste lines', WASTE_LINE_COLUMNS, sheetRows);
      await writeWasteLines(lineSheets, spillPath, output, signal, (written) =>
        onProgress({ rowsWritten: rows, total: rows, wasteLines: { written, total: lines } }),
      );
      query.push(...lineSheets.queryLines('waste lines'));
    }
    writeQuerySheet(workbook, [...file.describe(rows), ...query]);
    await workbook.commit();
    await output.finished();
    return rows;
  } catch (error) {
    abortWorkbook(workbook, stream);
    if (spill) {
      spill.stream.destroy();
      // Removed once closed, so a write still in flight cannot land after the removal.
      await spill.watched.finished().catch(() => undefined);
    }
    throw error;
  } finally {
    if (spill) await rm(spillPath, { force: true });
  }
}

/** Bytes read from the spill file at once: the batches in it are a few kilobytes to a few dozen each. */
const SPILL_READ_BYTES = 256 * 1024;

/** The spilled batches of waste lines read back one at a time (cell-batch.ts says how each is laid out). */
async function* spilledBatches(spillPath: string): AsyncGenerator<CellValue[][]> {
  let rest: Uint8Array = new Uint8Array(0);
  for await (const chunk of createReadStream(spillPath, { highWaterMark: SPILL_READ_BYTES })) {
    const bytes = rest.length === 0 ? (chunk as Buffer) : Buffer.concat([rest, chunk as Buffer]);
    let at = 0;
    while (bytes.length - at >= BATCH_HEADER_BYTES) {
      const length = batchLength(bytes.subarray(at));
      if (bytes.length - at < length) break;
      yield decodeCells(bytes.subarray(at, at + length));
      at += length;
    }
    rest = bytes.subarray(at);
  }
  if (rest.length > 0) throw new Error('The waste lines kept aside for the export were cut short.');
}

/** Waste lines between two reports of their progress, and two waits for the compressor. */
const LINES_PER_DRAIN = 2000;

/**
 * The waste lines wait on disk as packed batches of cells (cell-batch.ts), as the reader thread made them,
 * so nothing is converted or parsed twice. The first lines size the columns, as the first page does for
 * the rows' sheet.
 */
async function writeWasteLines(
  sheets: SheetSeries,
  spillPath: string,
  output: Watched,
  signal: AbortSignal,
  onProgress: (written: number) => void,
): Promise<void> {
  let sample: CellValue[][] | undefined = [];
  let written = 0;
  let sinceDrain = 0;
  const start = () => {
    sheets.start(sample ?? []);
    for (const values of sample ?? []) sheets.add(values);
    sample = undefined;
  };
  for await (const batch of spilledBatches(spillPath)) {
    signal.throwIfAborted();
    for (const values of batch) {
      if (!sample) sheets.add(values);
      else if (sample.push(values) === 500) start();
    }
    written += batch.length;
    sinceDrain += batch.length;
    if (sinceDrain >= LINES_PER_DRAIN) {
      sinceDrain = 0;
      onProgress(written);
      await drain(sheets.current, output, signal);
    }
  }
  if (sample) start();
  sheets.finish();
  onProgress(written);
}

function writeQuerySheet(workbook: WorkbookWriter, lines: readonly QueryLine[]): void {
  const sheet = workbook.addWorksheet('Query');
  const longest = Math.max(...lines.map(([label]) => label.length));
  sheet.columns = [
    { key: 'label', width: Math.max(12, longest + 2) },
    { key: 'value', width: 80 },
  ];
  for (const [label, value] of lines) {
    const row = sheet.addRow([
      label,
      value instanceof Date ? value : typeof value === 'number' ? value : cellText(value),
    ]);
    row.getCell(1).font = BOLD;
    if (value instanceof Date) row.getCell(2).numFmt = 'yyyy-mm-dd hh:mm:ss';
    row.commit();
  }
  sheet.commit();
}

/**
 * CSV as Excel opens it: UTF-8 with a byte-order mark, CRLF, RFC 4180 quoting. Numbers are written plain
 * (no thousands separators), dates as ISO text, text guarded against formulas in any separator's reading
 * (csv-cells.ts).
 */
async function writeCsv(
  file: GridFile,
  pages: AsyncIterable<PackedPage>,
  stream: Writable,
  { signal, onProgress }: WriteOptions,
): Promise<number> {
  const output = watch(stream);
  let rows = 0;
  try {
    stream.write(`\uFEFF${file.columns.map((column) => csvField(column.header)).join(',')}\r\n`);
    for await (const page of pages) {
      signal.throwIfAborted();
      for (const batch of unpacked(page.rowBatches)) {
        const text = batch.map((values) => values.map(csvCell).join(',')).join('\r\n');
        rows += batch.length;
        if (text !== '') stream.write(`${text}\r\n`);
      }
      await output.drained(signal);
      onProgress({ rowsWritten: rows, total: Math.max(page.totalElements, rows) });
    }
    stream.end();
    await output.finished();
    return rows;
  } catch (error) {
    stream.destroy();
    throw error;
  }
}
