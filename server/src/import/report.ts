/**
 * The report of an import's rows that were not stored: one CSV line per rejected or pending row with the
 * file, its line, the column, the reason and the row as read, so that nothing read is lost. Written with
 * backpressure, a row at a time.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Rejection } from './model/records.ts';

function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Writes the rows to `path`; returns how many. Nothing is written when there are none. */
export async function writeReport(path: string, rows: AsyncIterable<Rejection>): Promise<number> {
  let out: ReturnType<typeof createWriteStream> | undefined;
  let count = 0;
  for await (const row of rows) {
    if (!out) {
      out = createWriteStream(path, { encoding: 'utf8' });
      out.write('file,line,column,reason,raw\n');
    }
    count += 1;
    const line = [row.file, row.line, row.column, row.reason, row.raw].map(csvField).join(',');
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  if (out) {
    out.end();
    await once(out, 'finish');
  }
  return count;
}
