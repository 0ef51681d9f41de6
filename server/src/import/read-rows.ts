/**
 * One source file read, parsed and mapped into batches of row outcomes: records to store, rejected rows for
 * the report, rows that do not apply. The import (run.ts) writes each batch in a transaction; bench:import
 * reads the same way with nothing written, for its baseline.
 */
import { loadReference } from '../data/reference.ts';
import { CsvParser, MAX_RECORD_CHARS, csvRecordBatches, type CsvRecord } from './csv-reader.ts';
import { mapJsonValue } from './emanifest-json.ts';
import { detectLayout, type HeaderMap } from './epa-layouts.ts';
import { mapRow, type MappingContext, type RowOutcome } from './epa-rows.ts';
import { jsonValueBatches } from './json-reader.ts';
import type { ImportRecord, Origin, Rejection } from './model/records.ts';
import type { Source } from './sources.ts';
import { loadUnits } from './units.ts';

const OVERLONG = `no record ends within ${MAX_RECORD_CHARS.toLocaleString('en-US')} characters of this line (a quote that does not close, or a line that does not end): the line is rejected and reading goes on at the next`;

/**
 * Why a CSV file whose first record is `header` cannot be read, when its shape says so before its columns
 * are looked at: a file Excel saved as "Unicode Text" (UTF-16: read as UTF-8, a NUL beside every letter) or
 * one separated by tabs. Its names could still be found, and every row would then be rejected as garbage.
 */
function shapeProblem(header: CsvRecord): string | undefined {
  if (header.raw.includes('\u0000')) {
    return 'the file is UTF-16 (as Excel\'s "Unicode Text" saves it), not UTF-8: save it as "CSV UTF-8 (Comma delimited)" and import that';
  }
  if (header.fields.length === 1 && header.raw.includes('\t')) {
    return 'its columns are separated by tabs, not commas: save it as "CSV UTF-8 (Comma delimited)" and import that';
  }
  return undefined;
}

export function mappingContext(): MappingContext {
  return { units: loadUnits(), generatorStatuses: loadReference().generatorStatuses };
}

/** A file's rows as one transaction takes them. */
export interface RowBatch {
  records: ImportRecord[];
  rejections: Rejection[];
  skipped: number;
  /** Data rows read: records, rejections and skipped rows together. */
  rows: number;
}

export type ReadEvent =
  /** The file's header was read: its table (JSON for e-Manifest JSON) and the columns not read. */
  | { kind: 'file'; table: string; unknownColumns: string[] }
  /** The file is not read at all; the batch that follows holds one rejection saying why. */
  | { kind: 'refused'; reason: string }
  /** Its text is not UTF-8, and is read as Windows-1252 (csv-reader.ts): once, after `file`. */
  | { kind: 'windows-1252' }
  /**
   * The next `batchRows` rows (fewer in the last, or where their text reaches MAX_BATCH_CHARS), and the
   * file's stored bytes read by then. The batch is taken from the event once (`take`), so that the event,
   * wherever it lingers while the next batch is read, does not hold it: one batch is the import's memory,
   * not two.
   */
  | { kind: 'batch'; take: () => RowBatch; storedBytesRead: number; last: boolean };

export interface ReadOptions {
  /** Data rows an earlier attempt wrote: read and passed over. */
  skip: number;
  batchRows: number;
}

/**
 * The most characters of source text a batch holds: it ends at `batchRows` rows or here, whichever comes
 * first. A row is in memory with its line (kept for the report) and its mapped record, so a batch's memory
 * follows its text, not its count: 20,000 EM_MANIFEST rows of the bench files (about 250 characters each)
 * fit data:import's 96 MB heap, while an append of rows carrying every column of EPA's layout (about 1,100
 * characters) ran out of it in its first batch of manifests. 8 Mi characters is 33,000 bench rows, more than
 * any batch holds, and 7,600 of those wide ones; a JSON file's manifests are held back alike.
 */
export const MAX_BATCH_CHARS = 8 * 1024 * 1024;

class Batcher {
  private batch: RowBatch = Batcher.empty();
  private chars = 0;

  private static empty(): RowBatch {
    return { records: [], rejections: [], skipped: 0, rows: 0 };
  }

  /** Whether the batch is whole: `batchRows` rows, or MAX_BATCH_CHARS of their text. */
  full(batchRows: number): boolean {
    return this.batch.rows >= batchRows || this.chars >= MAX_BATCH_CHARS;
  }

  add(outcome: RowOutcome, origin: Origin): void {
    this.batch.rows += 1;
    this.chars += origin.raw.length;
    if ('record' in outcome) this.batch.records.push(outcome.record);
    else if ('rejection' in outcome) this.batch.rejections.push(outcome.rejection);
    else this.batch.skipped += 1;
  }

  take(): RowBatch {
    const batch = this.batch;
    this.batch = Batcher.empty();
    this.chars = 0;
    return batch;
  }
}

/** The events of one file's reading, its stream closed at the end or when the reader stops early. */
export async function* readRows(
  source: Pick<Source, 'path' | 'format' | 'open' | 'unreadable'>,
  { skip, batchRows }: ReadOptions,
  context: MappingContext,
): AsyncGenerator<ReadEvent> {
  const { path } = source;
  const { stream, storedBytesRead } = await source.open();
  const batcher = new Batcher();
  const batch = (last: boolean): ReadEvent => {
    let rows: RowBatch | undefined = batcher.take();
    const take = (): RowBatch => {
      if (!rows) throw new Error(`a batch of ${path} was taken twice`);
      const taken = rows;
      rows = undefined;
      return taken;
    };
    return { kind: 'batch', take, storedBytesRead: storedBytesRead(), last };
  };
  const refused = (reason: string, origin: Origin): ReadEvent => {
    batcher.add({ rejection: { ...origin, column: '', reason: `file not read: ${reason}` } }, origin);
    return { kind: 'refused', reason };
  };
  try {
    if (source.unreadable !== undefined) {
      yield refused(source.unreadable, { file: path, line: 1, raw: '' });
      yield batch(true);
      return;
    }
    if (source.format === 'csv') {
      let header: HeaderMap | undefined;
      let row = 0;
      const parser = new CsvParser();
      let windows1252 = false;
      for await (const records of csvRecordBatches(stream as AsyncIterable<Buffer>, parser)) {
        for (const record of records) {
          if (header && !windows1252 && parser.encoding === 'windows-1252') {
            windows1252 = true;
            yield { kind: 'windows-1252' };
          }
          const origin = { file: path, line: record.line, raw: record.raw };
          if (!header) {
            const problem = shapeProblem(record);
            if (problem !== undefined) {
              yield refused(problem, origin);
              yield batch(true);
              return;
            }
            const found = detectLayout(path, record.fields);
            if ('error' in found) {
              yield refused(found.error, origin);
              yield batch(true);
              return;
            }
            header = found.header;
            yield { kind: 'file', table: header.layout.table, unknownColumns: header.unknown };
            continue;
          }
          row += 1;
          if (row <= skip) continue;
          const broken = record.unterminated
            ? 'the file ends inside a quoted field: a cut last line'
            : record.overlong
              ? OVERLONG
              : undefined;
          batcher.add(
            broken === undefined
              ? mapRow(header, record.fields, origin, context)
              : { rejection: { ...origin, column: '', reason: broken } },
            origin,
          );
          if (batcher.full(batchRows)) yield batch(false);
        }
      }
      if (!header) yield refused('the file is empty (no header)', { file: path, line: 1, raw: '' });
    } else {
      yield { kind: 'file', table: 'JSON', unknownColumns: [] };
      let row = 0;
      for await (const values of jsonValueBatches(stream as AsyncIterable<Buffer>)) {
        for (const value of values) {
          row += 1;
          if (row <= skip) continue;
          const origin = { file: path, line: value.line, raw: value.raw };
          batcher.add(
            value.error !== undefined
              ? { rejection: { ...origin, column: '', reason: value.error } }
              : mapJsonValue(value.value, origin, context),
            origin,
          );
          if (batcher.full(batchRows)) yield batch(false);
        }
      }
    }
    yield batch(true);
  } finally {
    stream.destroy();
  }
}
