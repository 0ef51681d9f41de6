/**
 * An import run's ledger, kept in the database beside the rows so that it commits with them: the run and
 * its files (import_runs, import_files: how far each file got and its counts), the rejected rows
 * (import_rejections) and the rows kept pending until what they belong to arrives (import_pending). Written
 * once for both databases as steps (steps.ts); each sink runs a batch's steps in its batch transaction.
 */
import { storableRaw, type ImportRecord, type Rejection } from '../model/records.ts';
import {
  COUNTERS,
  NO_COUNTS,
  type FileCounts,
  type FileProgress,
  type RunFinish,
  type SinkBatch,
  type SourceFile,
} from '../model/sink.ts';
import { all, exec, get, insert, listOf, type Writing } from './steps.ts';
import type { ImportWriters, Outcome } from './writers.ts';

type Counter = keyof FileCounts;

/** A row kept pending: the tracking number or handler id it waits for, and the row. */
type Pending = [waitKey: string, entry: ImportRecord];

/** Pending rows per statement: a few MB of JSON at most, whatever the batch. */
const PEND_ROWS = 2_000;

const countsOf = (values: readonly unknown[]): FileCounts =>
  Object.fromEntries(
    COUNTERS.map((counter, index) => [counter, Number(values[index])]),
  ) as unknown as FileCounts;

const SQL = {
  openRun: "SELECT id, files, mode FROM import_runs WHERE state = 'running' ORDER BY id DESC LIMIT 1",
  abandon: "UPDATE import_runs SET state = 'abandoned' WHERE id = ?",
  anyData: 'SELECT 1 FROM manifests UNION ALL SELECT 1 FROM generators LIMIT 1',
  newRun: "INSERT INTO import_runs (files, mode, state, started_at) VALUES (?, ?, 'running', ?)",
  newFile: 'INSERT INTO import_files (run_id, file_key, path) VALUES (?, ?, ?)',
  files: `SELECT file_key, rows_done, done, ${COUNTERS.join(', ')} FROM import_files WHERE run_id = ?`,
  reject:
    'INSERT INTO import_rejections (run_id, file, line, column_name, reason, raw) VALUES (?, ?, ?, ?, ?, ?)',
  /**
   * A batch's pending rows in one statement, in the order read (their ids, which apply them in that order):
   * [wait key, kind, record, file, line, raw] each, as one JSON array. A statement per row held an append's
   * waste lines on PostgreSQL at ~5,500 rows/s.
   */
  pend: {
    sqlite: `INSERT INTO import_pending (run_id, file_key, wait_key, kind, record, file, line, raw)
             SELECT ?, ?, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5
             FROM json_each(?) ORDER BY key`,
    postgres: `INSERT INTO import_pending (run_id, file_key, wait_key, kind, record, file, line, raw)
               SELECT ?::int, ?::text, r ->> 0, r ->> 1, r ->> 2, r ->> 3, (r ->> 4)::int, r ->> 5
               FROM jsonb_array_elements(?::text::jsonb) WITH ORDINALITY AS rows(r, n) ORDER BY n`,
  },
  waiting: {
    sqlite: `SELECT id, run_id, file_key, kind, record, file, line, raw FROM import_pending
             WHERE wait_key IN (SELECT value FROM json_each(?)) ORDER BY id`,
    postgres: `SELECT id, run_id, file_key, kind, record, file, line, raw FROM import_pending
               WHERE wait_key IN (SELECT jsonb_array_elements_text(?::text::jsonb)) ORDER BY id`,
  },
  /** This run's pending rows after a place whose manifest is stored: held rows ready to apply (releaseHeld). */
  heldReady: `SELECT id, run_id, file_key, kind, record, file, line, raw FROM import_pending p
              WHERE run_id = ? AND id > ? AND kind <> 'naics'
                AND EXISTS (SELECT 1 FROM manifests m WHERE m.manifest_tracking_number = p.wait_key)
              ORDER BY id LIMIT ?`,
  /**
   * Rows applied, by their ids as one list parameter (steps.ts): a statement per row took 2.8 s of a 90 s
   * append of 100,000 manifests whose lines were held.
   */
  applied: {
    sqlite: 'DELETE FROM import_pending WHERE id IN (SELECT CAST(value AS INTEGER) FROM json_each(?))',
    postgres: 'DELETE FROM import_pending WHERE id = ANY(?::text[]::bigint[])',
  },
  anyPending: 'SELECT 1 FROM import_pending LIMIT 1',
  fileDone: `UPDATE import_files SET rows_done = ?, done = ?,
               ${COUNTERS.map((counter) => `${counter} = ${counter} + ?`).join(', ')}
             WHERE run_id = ? AND file_key = ?`,
  finished: "UPDATE import_runs SET state = 'done', finished_at = ? WHERE id = ?",
  counts: `SELECT file_key, ${COUNTERS.join(', ')} FROM import_files WHERE run_id = ?`,
  pendingByFile: 'SELECT file_key, count(*) FROM import_pending WHERE run_id = ? GROUP BY file_key',
} as const;

/** Pending rows moved to another counter of an earlier batch's file. */
const movePending = (counter: Counter) =>
  `UPDATE import_files SET pending = pending - ?, ${counter} = ${counter} + ? WHERE run_id = ? AND file_key = ?`;

/**
 * Tracking numbers and handler ids whose waiting rows are read at a time: a batch of manifests whose lines
 * and transporters were held lets ~3 rows each through, which read at once filled the import's heap.
 */
const WAITING_KEYS = 2000;

/** The rows of a manifest's tables, which a run may hold until its manifest files are read. */
type ChildRecord = Extract<ImportRecord, { kind: 'transporter' | 'wasteLine' | 'wasteCode' }>;
const CHILD_KINDS: ReadonlySet<ImportRecord['kind']> = new Set(['transporter', 'wasteLine', 'wasteCode']);

/** Whether the batch holds this record (SinkBatch `holdChildren`) rather than apply it now. */
function isHeld(batch: SinkBatch, entry: ImportRecord): entry is ChildRecord {
  return batch.holdChildren && CHILD_KINDS.has(entry.kind);
}

/** The batch's records it applies now, not held: what a sink reads the stored state of before the batch. */
export function appliedNow(batch: SinkBatch): ImportRecord[] {
  return batch.holdChildren ? batch.records.filter((entry) => !isHeld(batch, entry)) : batch.records;
}

/** A row of import_pending as SQL.waiting and SQL.heldReady read it, its record parsed. */
export interface PendingRow {
  id: number;
  runId: number;
  fileKey: string;
  entry: ImportRecord;
}

function pendingRow([id, runId, fileKey, kind, record, file, line, raw]: unknown[]): PendingRow {
  const origin = { file: String(file), line: Number(line), raw: String(raw) };
  const entry = { kind, record: JSON.parse(String(record)) as unknown, origin } as ImportRecord;
  return { id: Number(id), runId: Number(runId), fileKey: String(fileKey), entry };
}

/** Pending rows of earlier batches' files that a batch applied, by file and counter: one UPDATE each. */
type Moves = Map<string, Map<Counter, number>>;

export type RunMode = 'bulk' | 'incremental';

export interface OpenedRun {
  runId: number;
  mode: RunMode;
  resumed: boolean;
  progress: Map<string, FileProgress>;
}

/** The report's reading of a pending row. */
export function pendingReason(kind: string, waitKey: string): string {
  const owner = kind === 'naics' ? 'handler' : kind === 'wasteCode' ? 'waste line' : 'manifest';
  return `pending: no ${owner} ${waitKey} yet; kept and applied when it arrives`;
}

/** Starts a run over these files, or resumes the unfinished run over the same files unless `restart`. */
export function* openRun(files: readonly SourceFile[], restart: boolean): Writing<OpenedRun> {
  const keys = JSON.stringify(files.map((file) => file.key));
  const open = yield* get(SQL.openRun);
  let runId: number;
  let mode: RunMode;
  let resumed = false;
  if (open && open[1] === keys && !restart) {
    runId = Number(open[0]);
    mode = open[2] as RunMode;
    resumed = true;
  } else {
    if (open) yield* exec(SQL.abandon, open[0]);
    mode = (yield* get(SQL.anyData)) === undefined ? 'bulk' : 'incremental';
    runId = yield* insert(SQL.newRun, keys, mode, new Date().toISOString());
    for (const file of files) yield* exec(SQL.newFile, runId, file.key, file.path);
  }
  const progress = new Map<string, FileProgress>();
  for (const [key, rowsDone, done, ...counts] of yield* all(SQL.files, runId)) {
    progress.set(String(key), {
      rowsDone: Number(rowsDone),
      done: Number(done) === 1,
      counts: countsOf(counts),
    });
  }
  return { runId, mode, resumed, progress };
}

const counterOf = (outcome: Outcome): Counter => {
  if (typeof outcome === 'string') return outcome;
  return 'rejected' in outcome ? 'rejected' : 'pending';
};

export class Ledger {
  private readonly runId: number;
  /** Rows kept pending by earlier runs that this run's data let through. */
  appliedFromEarlierRuns = 0;
  /**
   * Whether a row may be waiting (kept by an earlier run or attempt, or by this one since): only then does
   * a batch look up what its rows let through. An import of whole files keeps none, and the lookup was a
   * query per batch over every tracking number and handler id it stored.
   */
  private anyPending = true;

  constructor(runId: number) {
    this.runId = runId;
  }

  /** Reads, before the first batch, whether any row waits already. */
  *init(): Writing<void> {
    this.anyPending = (yield* get(SQL.anyPending)) !== undefined;
  }

  private *reject(rejection: Rejection): Writing<void> {
    yield* exec(
      SQL.reject,
      this.runId,
      rejection.file,
      rejection.line,
      rejection.column,
      rejection.reason,
      storableRaw(rejection.raw),
    );
  }

  /**
   * One batch: its rejected rows, each record through the writers (pending ones kept), the pending rows
   * its records let through, and the file's progress and counts.
   */
  *write(batch: SinkBatch, writers: ImportWriters): Writing<FileCounts> {
    const counts: FileCounts = { ...NO_COUNTS, read: batch.rows, skipped: batch.skipped };
    yield* writers.startBatch(appliedNow(batch));
    for (const rejection of batch.rejections) yield* this.reject(rejection);
    counts.rejected += batch.rejections.length;
    yield* this.expectHeld(batch, writers);
    const pending: Pending[] = [];
    for (const entry of batch.records) {
      if (isHeld(batch, entry)) {
        counts.pending += 1;
        pending.push([entry.record.trackingNumber, entry]);
        continue;
      }
      const outcome = yield* writers.apply(entry);
      counts[counterOf(outcome)] += 1;
      if (typeof outcome === 'object' && 'rejected' in outcome) {
        yield* this.reject({ ...entry.origin, column: outcome.column, reason: outcome.rejected });
      } else if (typeof outcome === 'object') {
        pending.push([outcome.pending, entry]);
      }
    }
    yield* this.pend(batch.file.key, pending);
    const moves: Moves = new Map();
    yield* this.applyPending(writers, { file: batch.file.key, counts }, moves);
    yield* this.move(moves);
    yield* exec(
      SQL.fileDone,
      batch.rowsDone,
      batch.fileDone ? 1 : 0,
      ...COUNTERS.map((counter) => counts[counter]),
      this.runId,
      batch.file.key,
    );
    return counts;
  }

  /**
   * The rows held for the batch's manifests, read before its rows are applied so that a new manifest is
   * stored with the totals they will give it (held-totals.ts): a chunk of keys at a time, each tracking
   * number's rows in one chunk.
   */
  private *expectHeld(batch: SinkBatch, writers: ImportWriters): Writing<void> {
    if (!this.anyPending) return;
    const tracking = batch.records
      .filter((entry) => entry.kind === 'manifest')
      .map((entry) => entry.record.trackingNumber);
    for (let from = 0; from < tracking.length; from += WAITING_KEYS) {
      const keys = tracking.slice(from, from + WAITING_KEYS);
      const waiting = yield* all(SQL.waiting, JSON.stringify(keys));
      writers.expectHeld(waiting.map((row) => pendingRow(row).entry));
    }
  }

  /** Keeps a batch's pending rows, before the rows it let through are looked for (applyPending). */
  private *pend(fileKey: string, pending: readonly Pending[]): Writing<void> {
    if (pending.length === 0) return;
    this.anyPending = true;
    for (let start = 0; start < pending.length; start += PEND_ROWS) {
      const rows = pending
        .slice(start, start + PEND_ROWS)
        .map(([waitKey, entry]) => [
          waitKey,
          entry.kind,
          JSON.stringify(entry.record),
          entry.origin.file,
          entry.origin.line,
          storableRaw(entry.origin.raw),
        ]);
      yield* exec(SQL.pend, this.runId, fileKey, JSON.stringify(rows));
    }
  }

  /**
   * Rows waiting for a manifest, handler or waste line that this batch stored: applied now, in the order
   * they were read. Applying one may let another through (a waste code waiting for its line), so this
   * repeats until nothing new arrives.
   */
  private *applyPending(
    writers: ImportWriters,
    batch: { file: string; counts: FileCounts } | undefined,
    moves: Moves,
  ): Writing<void> {
    if (!this.anyPending) return;
    let seen = 0;
    for (let round = 0; round < 4; round += 1) {
      const arrived = [...writers.touched.arrived];
      if (arrived.length === seen) return;
      for (let from = seen; from < arrived.length; from += WAITING_KEYS) {
        const keys = arrived.slice(from, Math.min(from + WAITING_KEYS, arrived.length));
        const waiting = yield* all(SQL.waiting, JSON.stringify(keys));
        yield* this.applyWaiting(writers, waiting.map(pendingRow), batch, moves);
      }
      seen = arrived.length;
    }
  }

  /** Pending rows applied, in the order given; those that still cannot apply stay. */
  private *applyWaiting(
    writers: ImportWriters,
    waiting: readonly PendingRow[],
    batch: { file: string; counts: FileCounts } | undefined,
    moves: Moves,
  ): Writing<void> {
    const applied: string[] = [];
    for (const { id, runId, fileKey, entry } of waiting) {
      const outcome = yield* writers.apply(entry);
      if (typeof outcome === 'object' && 'pending' in outcome) continue;
      applied.push(String(id));
      if (typeof outcome === 'object') {
        yield* this.reject({ ...entry.origin, column: outcome.column, reason: outcome.rejected });
      }
      const counter = counterOf(outcome);
      if (runId !== this.runId) {
        this.appliedFromEarlierRuns += 1;
      } else if (batch && fileKey === batch.file) {
        batch.counts.pending -= 1;
        batch.counts[counter] += 1;
      } else {
        const byCounter = moves.get(fileKey) ?? new Map<Counter, number>();
        byCounter.set(counter, (byCounter.get(counter) ?? 0) + 1);
        moves.set(fileKey, byCounter);
      }
    }
    if (applied.length > 0) yield* exec(SQL.applied, listOf(applied));
  }

  private *move(moves: Moves): Writing<void> {
    for (const [fileKey, byCounter] of moves) {
      for (const [counter, count] of byCounter) {
        yield* exec(movePending(counter), count, count, this.runId, fileKey);
      }
    }
  }

  /**
   * This run's held rows after the place `after` whose manifest is stored, up to `limit` (one step of
   * releaseHeld): read first, so that the sink can read what their manifests held before (derived data).
   */
  *heldRows(after: number, limit: number): Writing<PendingRow[]> {
    return (yield* all(SQL.heldReady, this.runId, after, limit)).map(pendingRow);
  }

  /**
   * Applies held rows (heldRows) as a batch: their manifests read at once, each row as it would have been
   * applied had it been read after its manifest, then what they let through.
   */
  *applyHeld(writers: ImportWriters, rows: readonly PendingRow[]): Writing<void> {
    yield* writers.startBatch(rows.map((row) => row.entry));
    const moves: Moves = new Map();
    yield* this.applyWaiting(writers, rows, undefined, moves);
    yield* this.applyPending(writers, undefined, moves);
    yield* this.move(moves);
  }

  /** Closes the run: each file's counts over every attempt, and the rows still pending. */
  *finish(writers: ImportWriters): Writing<RunFinish> {
    yield* exec(SQL.finished, new Date().toISOString(), this.runId);
    const counts = new Map<string, FileCounts>();
    for (const [key, ...values] of yield* all(SQL.counts, this.runId))
      counts.set(String(key), countsOf(values));
    const pendingByFile = new Map(
      (yield* all(SQL.pendingByFile, this.runId)).map(([key, count]): [string, number] => [
        String(key),
        Number(count),
      ]),
    );
    return {
      counts,
      pendingByFile,
      appliedFromEarlierRuns: this.appliedFromEarlierRuns,
      generatorsFromManifests: writers.generatorsFromManifests,
    };
  }
}

/** The run's rejected rows, then its pending rows, in file and line order: the report (one statement each). */
export const REPORT_SQL = {
  rejected: `SELECT file, line, column_name, reason, raw FROM import_rejections
             WHERE run_id = ? ORDER BY file, line, id`,
  pending: `SELECT file, line, kind, wait_key, raw FROM import_pending WHERE run_id = ? ORDER BY file, line, id`,
} as const;
