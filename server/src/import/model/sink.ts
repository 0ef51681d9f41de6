/**
 * Where imported records go: the contract between the importer (reading, parsing and mapping EPA files,
 * run.ts) and one database. SQLite's writer is sqlite/sqlite-sink.ts; another database adds its own
 * beside it. A sink owns what needs the stored data: whether a row is new, changed, older or conflicting,
 * rows kept pending until their manifest arrives, and each file's progress, written in the same
 * transaction as the rows so that an import stopped at any point resumes where it stopped.
 */
import type { ImportRecord, Rejection } from './records.ts';

/** What happened to a file's rows. */
export interface FileCounts {
  /** Data rows read (the header not counted). */
  read: number;
  /** New rows stored. */
  stored: number;
  /** Rows that replaced a stored one (a newer UPDATED DATE, a corrected value). */
  updated: number;
  /** Rows equal to what is stored. */
  unchanged: number;
  /** Rows that do not apply: an older version than stored, a handler's non-current record. */
  skipped: number;
  /** Rows in the report, not stored. */
  rejected: number;
  /** Rows whose manifest (or handler, or waste line) is not known yet, kept until it arrives. */
  pending: number;
}

export const NO_COUNTS: FileCounts = {
  read: 0,
  stored: 0,
  updated: 0,
  unchanged: 0,
  skipped: 0,
  rejected: 0,
  pending: 0,
};

/** The counts in the order the ledger's columns and the CLI's table list them. */
export const COUNTERS = Object.keys(NO_COUNTS) as readonly (keyof FileCounts)[];

export function addCounts(a: FileCounts, b: FileCounts): FileCounts {
  return Object.fromEntries(
    COUNTERS.map((counter) => [counter, a[counter] + b[counter]]),
  ) as unknown as FileCounts;
}

/** One input file as the run knows it; `key` names it across attempts (path, size and modification time). */
export interface SourceFile {
  key: string;
  path: string;
  bytes: number;
}

/** How far an earlier attempt of this run got with a file. */
export interface FileProgress {
  /** Data rows already read and written: a resumed read skips them. */
  rowsDone: number;
  done: boolean;
  counts: FileCounts;
}

export interface SinkBatch {
  file: SourceFile;
  records: ImportRecord[];
  rejections: Rejection[];
  /** Rows read that do not apply (mapping said so before the sink saw them). */
  skipped: number;
  /** Rows this batch covers, records, rejections and skipped ones together. */
  rows: number;
  /** The file's rows read so far, this batch included: where a resumed read starts. */
  rowsDone: number;
  /** The last batch of the file. */
  fileDone: boolean;
  /**
   * Keep the batch's transporters, waste lines and waste codes pending, unread against the stored data,
   * until the run's manifest files have been read (RunStart `holdChildren`).
   */
  holdChildren: boolean;
}

export interface RunStart {
  runId: number;
  /** True when an earlier attempt of the same run (same files) had stopped before the end. */
  resumed: boolean;
  progress: Map<string, FileProgress>;
  /**
   * Whether the run reads a manifest's transporters, waste lines and waste codes before the manifest and
   * stores them with it: where the sink keeps the serving data current batch by batch, a manifest is then
   * written once, whole, and nobody sees it without its lines (docs/import.md "Reading order").
   */
  holdChildren: boolean;
  /** CSV rows per transaction where the run is not told otherwise (ImportOptions `batchRows`). */
  csvBatchRows: number;
}

/** CSV rows per transaction by default: bounds memory and how long a reader waits to see new rows. */
export const CSV_BATCH_ROWS = 20_000;

/**
 * The most CSV rows a batch may hold (`batchRows`; a JSON file's batches hold at most run.ts's
 * JSON_BATCH_ROWS manifests). A batch is in memory whole, with the rows held for its manifests, and `data:import` runs in a
 * 96 MB heap (package.json): an append of 100,000 manifests to the 1M bench database in batches of 20,000
 * peaked at 277 MB RSS (bench:import), and in batches of 50,000 it ran out of heap.
 */
export const MAX_BATCH_ROWS = 20_000;

/** What is wrong with `rows` as a batch's size ("must be …"), or undefined when nothing is. */
export function batchRowsProblem(rows: number): string | undefined {
  return Number.isInteger(rows) && rows >= 1 && rows <= MAX_BATCH_ROWS
    ? undefined
    : `must be a whole number from 1 to ${MAX_BATCH_ROWS.toLocaleString('en-US')}: a batch is held in memory whole`;
}

/** One step of releasing held rows: how many it read and the last one's place, where the next step starts. */
export interface Released {
  rows: number;
  after: number;
}

export interface RunFinish {
  /** Each file's counts over the whole run (every attempt), by file key. */
  counts: Map<string, FileCounts>;
  /** Rows of this run still pending, per file key. */
  pendingByFile: Map<string, number>;
  /** Rows kept pending by earlier runs that this run's data let through. */
  appliedFromEarlierRuns: number;
  /** Generators created from manifests because no handler file named them. */
  generatorsFromManifests: number;
}

export interface ImportSink {
  /**
   * Starts a run over these files, or resumes the unfinished run over the same files unless `restart`.
   */
  begin(files: readonly SourceFile[], options: { restart: boolean }): Promise<RunStart>;
  /** Stores one batch in one transaction with the file's progress and its rejected rows; returns its counts. */
  write(batch: SinkBatch): Promise<FileCounts>;
  /**
   * After the run's manifest files: applies up to `limit` of the rows this run held (SinkBatch
   * `holdChildren`) whose manifest is stored, after the place `after` (0 at first), in one transaction.
   * Rows for manifests still unknown stay pending.
   */
  releaseHeld(after: number, limit: number): Promise<Released>;
  /** After the last batch: settles what the serving queries read and closes the run. */
  finish(onPhase?: (phase: string) => void): Promise<RunFinish>;
  /** The run's rejected rows and the rows it leaves pending, in file and line order, for the report. */
  reportRows(): AsyncIterable<Rejection>;
  close(): Promise<void>;
}
