/**
 * One import: every source file read in order (sources.ts), each row mapped (epa-rows.ts,
 * emanifest-json.ts) and handed to the sink in batches of bounded size, one transaction each; then the
 * sink's finish. Memory is one batch whatever the files' size. An import stopped at any point and started
 * again over the same files resumes after the last batch written (the sink keeps each file's progress);
 * one asked to stop (ImportOptions.signal) stops after the batch it is writing, its sink closed as usual.
 */
import { performance } from 'node:perf_hooks';
import { notePace, perSecond, secondsLeft, startPace } from '../../../shared/pace.ts';
import {
  NO_COUNTS,
  addCounts,
  batchRowsProblem,
  type FileCounts,
  type ImportSink,
  type RunFinish,
} from './model/sink.ts';
import { mappingContext, readRows, type ReadEvent } from './read-rows.ts';
import { childrenFirst, type Source } from './sources.ts';

/** The phase event that starts the sink's finish, after the last batch: no batch is written after it. */
export const FINISHING = 'finishing';

/** A JSON manifest carries its lines and transporters: fewer per transaction. */
export const JSON_BATCH_ROWS = 2_000;

export interface ImportOptions {
  sink: ImportSink;
  /** The files to read, from discoverSources. */
  sources: readonly Source[];
  /** Start over rather than resume an unfinished run over the same files. */
  restart?: boolean;
  /**
   * Rows per batch, at most MAX_BATCH_ROWS (a JSON file's at most JSON_BATCH_ROWS); by default the sink's
   * (RunStart `csvBatchRows`) or JSON_BATCH_ROWS (tests lower it to cross batch boundaries on small files).
   */
  batchRows?: number;
  onEvent?: (event: ImportEvent) => void;
  /**
   * Asks the import to stop: it ends after the batch being written (not during the finish, which builds
   * the derived data in one pass) and throws ImportStopped; the next run over the same files resumes.
   */
  signal?: AbortSignal;
}

/** The import stopped when asked to (ImportOptions.signal), every batch before kept. */
export class ImportStopped extends Error {
  /** Rows read and stored by this run before it stopped. */
  readonly rows: number;

  constructor(rows: number) {
    super(`the import stopped after ${rows} rows`);
    this.rows = rows;
  }
}

export interface FileSummary {
  path: string;
  /** The table read (EM_MANIFEST, …) or JSON. */
  table: string;
  bytes: number;
  counts: FileCounts;
  /** Header columns the importer does not read. */
  unknownColumns: string[];
  /** Set when the file's text is not UTF-8 and was read as Windows-1252. */
  windows1252?: true;
  /** Why the file was not read at all, when it was not. */
  refused?: string;
}

export type ImportEvent =
  | { kind: 'start'; files: number; bytes: number; resumed: boolean; runId: number }
  | { kind: 'file'; path: string; table: string; resumeAfterRows: number; unknownColumns: string[] }
  | {
      kind: 'progress';
      path: string;
      fileBytesRead: number;
      fileBytes: number;
      rows: number;
      /** Over the last PACE_WINDOW_SECONDS (shared/pace.ts). */
      rowsPerSecond: number;
      /** Until every file is read, at the last PACE_WINDOW_SECONDS' rate; the finish is not counted. */
      secondsLeft: number | undefined;
    }
  | { kind: 'refused'; path: string; reason: string }
  /** The file's text is not UTF-8: it is read as Windows-1252. */
  | { kind: 'windows-1252'; path: string }
  | { kind: 'phase'; phase: string };

export interface ImportResult extends Omit<RunFinish, 'counts'> {
  runId: number;
  resumed: boolean;
  files: FileSummary[];
  seconds: number;
  totals: FileCounts;
}

/**
 * After the run's last manifest file: the rows it held for manifests that are stored, in batches (those
 * whose manifest arrived were stored with it). Rows for manifests still unknown stay pending.
 */
async function releaseHeld(
  sink: ImportSink,
  batchRows: number,
  onEvent: ((event: ImportEvent) => void) | undefined,
  stopIfAsked: () => void,
) {
  let after = 0;
  let announced = false;
  for (;;) {
    stopIfAsked();
    const released = await sink.releaseHeld(after, batchRows);
    if (released.rows === 0) return;
    if (!announced) {
      onEvent?.({ kind: 'phase', phase: 'transporters, waste lines and codes of manifests stored before' });
      announced = true;
    }
    after = released.after;
  }
}

/**
 * Writes the batch an event carries. The batch lives in this call alone: a variable of runImport's loop
 * would keep the batch just written alive while the next one is read (measured: two batches, 20,000
 * manifests each, held at once in an append, its heap within 4 MB of its 96 MB limit).
 */
async function writeBatch(
  sink: ImportSink,
  event: Extract<ReadEvent, { kind: 'batch' }>,
  where: { file: Source; rowsBefore: number; holdChildren: boolean },
): Promise<{ rows: number; counts: FileCounts }> {
  const batch = event.take();
  const counts = await sink.write({
    file: where.file,
    ...batch,
    rowsDone: where.rowsBefore + batch.rows,
    fileDone: event.last,
    holdChildren: where.holdChildren,
  });
  return { rows: batch.rows, counts };
}

export async function runImport(options: ImportOptions): Promise<ImportResult> {
  const started = performance.now();
  const { sink, onEvent } = options;
  const tooMany = options.batchRows === undefined ? undefined : batchRowsProblem(options.batchRows);
  if (tooMany) throw new RangeError(`batchRows ${tooMany}`);
  const context = mappingContext();
  const run = await sink.begin(options.sources, { restart: options.restart ?? false });
  const sources = run.holdChildren ? childrenFirst(options.sources) : options.sources;
  // Rows of a manifest's tables read before its manifest files are held until those have been read.
  const lastManifests = run.holdChildren
    ? sources.findLastIndex((source) => source.table === 'EM_MANIFEST')
    : -1;
  const totalBytes = sources.reduce((sum, source) => sum + source.storedBytes, 0);
  onEvent?.({
    kind: 'start',
    files: sources.length,
    bytes: totalBytes,
    resumed: run.resumed,
    runId: run.runId,
  });

  let bytesBefore = 0;
  /** Bytes of the files an earlier run finished, which this one passes over. */
  let bytesFinished = 0;
  let rowsRead = 0;
  /** Bytes of this run's reading (files an earlier run finished left out) and rows, at each batch's end. */
  let pace = startPace({ seconds: (performance.now() - started) / 1000, bytes: 0, rows: 0 });
  const stopIfAsked = () => {
    if (options.signal?.aborted) throw new ImportStopped(rowsRead);
  };
  const summaries: FileSummary[] = [];
  for (const [index, source] of sources.entries()) {
    const progress = run.progress.get(source.key);
    const summary: FileSummary = {
      path: source.path,
      table: source.format === 'json' ? 'JSON' : (source.table ?? '?'),
      bytes: source.bytes,
      counts: progress?.counts ?? NO_COUNTS,
      unknownColumns: [],
    };
    summaries.push(summary);
    if (progress?.done) {
      bytesBefore += source.storedBytes;
      bytesFinished += source.storedBytes;
      if (index === lastManifests)
        await releaseHeld(sink, options.batchRows ?? run.csvBatchRows, onEvent, stopIfAsked);
      continue;
    }
    const skip = progress?.rowsDone ?? 0;
    let rowsDone = skip;
    const batchRows =
      source.format === 'json'
        ? Math.min(options.batchRows ?? JSON_BATCH_ROWS, JSON_BATCH_ROWS)
        : (options.batchRows ?? run.csvBatchRows);
    for await (const event of readRows(source, { skip, batchRows }, context)) {
      if (event.kind === 'file') {
        summary.table = event.table;
        summary.unknownColumns = event.unknownColumns;
        onEvent?.({
          kind: 'file',
          path: source.path,
          table: event.table,
          resumeAfterRows: skip,
          unknownColumns: event.unknownColumns,
        });
      } else if (event.kind === 'refused') {
        summary.refused = event.reason;
        onEvent?.({ kind: 'refused', path: source.path, reason: event.reason });
      } else if (event.kind === 'windows-1252') {
        summary.windows1252 = true;
        onEvent?.({ kind: 'windows-1252', path: source.path });
      } else {
        const { rows, counts } = await writeBatch(sink, event, {
          file: source,
          rowsBefore: rowsDone,
          holdChildren: index < lastManifests,
        });
        rowsDone += rows;
        rowsRead += rows;
        summary.counts = addCounts(summary.counts, counts);
        const seconds = (performance.now() - started) / 1000;
        const bytesDone = bytesBefore + event.storedBytesRead;
        pace = notePace(pace, { seconds, bytes: bytesDone - bytesFinished, rows: rowsRead });
        onEvent?.({
          kind: 'progress',
          path: source.path,
          fileBytesRead: event.storedBytesRead,
          fileBytes: source.storedBytes,
          rows: rowsRead,
          rowsPerSecond: perSecond(pace, (sample) => sample.rows) ?? 0,
          secondsLeft: secondsLeft(pace, (sample) => sample.bytes, totalBytes - bytesDone),
        });
        stopIfAsked();
      }
    }
    bytesBefore += source.storedBytes;
    if (index === lastManifests)
      await releaseHeld(sink, options.batchRows ?? run.csvBatchRows, onEvent, stopIfAsked);
  }

  stopIfAsked();
  onEvent?.({ kind: 'phase', phase: FINISHING });
  const finish = await sink.finish((phase) => onEvent?.({ kind: 'phase', phase }));
  for (const [index, source] of sources.entries()) {
    const counts = finish.counts.get(source.key);
    const summary = summaries[index];
    if (counts && summary) summary.counts = counts;
  }
  const { counts: _counts, ...rest } = finish;
  return {
    ...rest,
    runId: run.runId,
    resumed: run.resumed,
    files: summaries,
    seconds: (performance.now() - started) / 1000,
    totals: summaries.reduce((sum, file) => addCounts(sum, file.counts), NO_COUNTS),
  };
}
