/**
 * The ExcelJS internals the export relies on (exceljs-adapter.ts), read from the installed ExcelJS. If an
 * upgrade moves or removes one, this fails here, by name, instead of an export quietly losing its
 * backpressure (memory grows without bound) or its clean stop (a cancelled file keeps being written).
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  abortWorkbook,
  compressorBacklog,
  frozenSheet,
  workbookWriter,
} from '../../../main/src/export/exceljs-adapter.ts';

/** A stream that takes bytes slowly, one chunk a turn, so the compressor's input fills up. */
function slowSink(): Writable {
  return new Writable({
    highWaterMark: 1024,
    write: (_chunk, _encoding, callback) => setTimeout(callback, 1),
  });
}

/** Rows whose text does not compress away, so the sheet's XML is large. */
function addRows(sheet: ReturnType<typeof frozenSheet>, count: number): void {
  for (let index = 0; index < count; index += 1)
    sheet.addRow([index, Math.random().toString(36).repeat(20)]).commit();
}

describe('the ExcelJS internals the export relies on', () => {
  it('a sheet’s compressor input shows its backlog and says when it drained', async () => {
    const sink = slowSink();
    const workbook = workbookWriter(sink);
    const sheet = frozenSheet(workbook, 'Rows');
    addRows(sheet, 50);
    // The zip starts reading the sheet on a later turn.
    await new Promise((resolve) => setImmediate(resolve));
    addRows(sheet, 5_000);
    const backlog = compressorBacklog(sheet);
    expect(backlog).toBeDefined();
    expect(backlog?.bytes).toBeGreaterThan(0);
    expect(backlog?.full).toBe(true);
    await expect(backlog?.drained(new AbortController().signal)).resolves.toBeDefined();
    abortWorkbook(workbook, sink);
  });

  it('a workbook stops midway: the zip lets go of the stream and is aborted', async () => {
    const output = new PassThrough();
    let bytes = 0;
    output.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    const workbook = workbookWriter(output);
    addRows(frozenSheet(workbook, 'Rows'), 2_000);
    await new Promise((resolve) => setImmediate(resolve));
    abortWorkbook(workbook, output);
    expect(output.destroyed).toBe(true);
    const before = bytes;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bytes).toBe(before);
  });
});
