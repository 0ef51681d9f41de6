/**
 * The importer's SQLite writer (sink.ts): one transaction per batch holding its rows, their derived data,
 * the file's progress and counts, the rejected rows and the rows left pending, so that a server reading
 * the file sees each batch whole and an import stopped anywhere resumes after its last batch.
 *
 * Into an empty database (bulk mode) the rows go in without the query indexes, search and lookup indexes,
 * which finalize() builds once at the end; into a database that has data (incremental mode, a database a
 * server may be serving) each batch keeps all of them current (derived.ts).
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { finalize } from '../../db/finalize.ts';
import { anotherWriterRuns, takeImportLock, type ImportLock } from '../../db/import-lock.ts';
import { lookupLists } from '../../db/lookup-lists.ts';
import { unorderedLookupLists, writeLookupList } from '../../db/lookup-index.ts';
import { SCHEMA_VERSION, createTables } from '../../db/schema.ts';
import { computeTallies } from '../../db/tallies.ts';
import { fillReferenceTables } from '../../data/reference.ts';
import type { Rejection } from '../model/records.ts';
import {
  CSV_BATCH_ROWS,
  type FileCounts,
  type ImportSink,
  type Released,
  type RunFinish,
  type RunStart,
  type SinkBatch,
  type SourceFile,
} from '../model/sink.ts';
import { Ledger, REPORT_SQL, appliedNow, openRun, pendingReason, type RunMode } from '../writers/ledger.ts';
import { ImportWriters } from '../writers/writers.ts';
import { ALL_MANIFEST_AGGREGATES_SQL } from './derived-sql.ts';
import { DerivedData } from './derived.ts';
import { SqliteSteps } from './sqlite-steps.ts';

export class SinkError extends Error {}

/**
 * SQLite's page cache while rows go in, in KiB: into an empty database (bulk) for the writers' lookups of
 * stored rows; into one that has data also for the index pages each batch rewrites, which more cache spares
 * reading and writing again: 100,000 manifests appended to the 100k bench database while a client paged,
 * 111.9 s with 64 MiB, 141.1 s with 32 (peak RSS 271 and 233 MB). 56 MiB rather than 64 keeps an append to
 * a copy of the 1M demo database (data/bench-1m.db) under 300 MB: back to back, 181 s and 286 MB with 56,
 * 190 s and 297 MB with 64 (300.4 MB in an earlier run). Into an empty database 32 MiB is as fast as 64 and
 * keeps the import's peak RSS at 251 MB, not 287, on the same files.
 */
export const ROWS_CACHE_KIB: Record<RunMode, number> = { bulk: 32 * 1024, incremental: 56 * 1024 };
/**
 * The page cache while an import into an empty database builds its totals, indexes and search index. SQLite
 * sorts in memory up to as much again as its page cache before spilling to disk, so at 64 MiB each the
 * import's peak RSS was 362 MB on the 1M bench, against 290 MB through the rest of that pass; building an
 * index reads its table in order and writes the index in order, which needs few cached pages.
 */
const FINISH_CACHE_KIB = 16 * 1024;

/**
 * CSV rows per transaction. Into an empty database a batch of 5,000 rows is read, decided and written with
 * less live memory than one of 20,000, which the garbage collector and the page cache both feel: the 1M
 * bench files' rows phase took 76 to 88 s in batches of 5,000 (peak RSS 230 MB) against 91 to 117 s in
 * batches of 20,000 (261 to 268 MB), runs alternating on a shared machine; 2,000 was no quicker. Into a
 * database that has data larger transactions rewrite each index page fewer times (docs/import.md).
 */
const CSV_BATCH_ROWS_BY_MODE: Record<RunMode, number> = { bulk: 5_000, incremental: CSV_BATCH_ROWS };

/** How much an import into a database that has data lets its WAL grow before copying it into the file. */
export const WAL_CHECKPOINT_BYTES = 1024 ** 3;

/** Opens (or creates) a tracker database for importing; a file of another kind is refused untouched. */
function openForImport(path: string): Database.Database {
  const fresh = !existsSync(path);
  const db = new Database(path);
  let version: string | undefined;
  try {
    version = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get() as
      string | undefined;
  } catch (error) {
    if (error instanceof Database.SqliteError && error.code === 'SQLITE_NOTADB') {
      db.close();
      throw new SinkError(`${path} is not a tracker database (not a SQLite file)`);
    }
    version = undefined;
  }
  const empty = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get() === 0;
  if (!fresh && version === undefined && !empty) {
    db.close();
    throw new SinkError(`${path} is not a tracker database`);
  }
  if (version !== undefined && version !== String(SCHEMA_VERSION)) {
    db.close();
    throw new SinkError(
      `${path} is a tracker database of schema version ${version}, not ${SCHEMA_VERSION}: build it anew`,
    );
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // Rows are consistent by construction (the writers look every owner up); no per-row foreign-key probe.
  db.pragma('foreign_keys = OFF');
  if (version === undefined) {
    createTables(db);
    fillReferenceTables(db);
  }
  return db;
}

interface Running {
  ledger: Ledger;
  writers: ImportWriters;
  derived: DerivedData;
}

/**
 * What a write the disk refused (full, or failing) says: SQLite's words for it, and that nothing is lost.
 * The batch's transaction was rolled back; every batch before it is stored, with the run's progress.
 */
function refusedWrite(path: string, error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  if (!(error instanceof Database.SqliteError)) return error;
  if (!error.code.startsWith('SQLITE_FULL') && !error.code.startsWith('SQLITE_IOERR')) return error;
  return new SinkError(
    `${path} could not be written: ${error.message}. Every batch before is kept: free space on its disk ` +
      '(or mend the disk), then run the same command again to resume.',
  );
}

export class SqliteSink implements ImportSink {
  private readonly path: string;
  private readonly lock: ImportLock;
  private readonly db: Database.Database;
  private readonly steps: SqliteSteps;
  private mode: RunMode = 'incremental';
  private runId = 0;
  private running: Running | undefined;

  /** Opens the database for one import; refuses it while another import into it runs (db/import-lock.ts). */
  constructor(path: string) {
    this.path = path;
    const lock = takeImportLock(path);
    if (!lock) throw new SinkError(anotherWriterRuns(path));
    this.lock = lock;
    try {
      this.db = openForImport(path);
    } catch (error) {
      this.lock.abandon();
      throw error;
    }
    this.steps = new SqliteSteps(this.db);
  }

  begin(files: readonly SourceFile[], options: { restart: boolean }): Promise<RunStart> {
    const opened = this.db.transaction(() => this.steps.run(openRun(files, options.restart)))();
    this.runId = opened.runId;
    this.mode = opened.mode;
    // A bounded page cache, temporary sorts on disk: the import's memory stays flat (bench:import measures
    // it) whatever the files' size.
    this.db.pragma(`cache_size = -${ROWS_CACHE_KIB[this.mode]}`);
    if (this.mode === 'bulk') {
      // Nobody reads a database being built: a rollback journal writes each appended page once where the
      // WAL writes it twice, and without syncs a killed import still rolls its last batch back (the journal
      // is in the OS's hands), which is all resuming needs. finish() puts WAL back for the server.
      // Where some other connection has the empty file open (a server started on it), SQLite refuses to
      // leave WAL, which lets that connection read on: the import keeps it, a little slower.
      try {
        this.db.pragma('journal_mode = DELETE');
      } catch (error) {
        if (!(error instanceof Database.SqliteError && error.code === 'SQLITE_BUSY')) throw error;
      }
      this.db.pragma('synchronous = OFF');
    } else {
      // A batch's pages stay in the WAL until it holds WAL_CHECKPOINT_BYTES (close() checkpoints the rest):
      // with SQLite's default of 4 MB every commit of an append (~100 MB of index pages a batch) copied its
      // pages into the file again and synced it, the pages each batch rewrites batch after batch. Measured
      // (100,000 manifests into the 100k bench database, runs alternating): 90 and 119 s, 161 and 127 s
      // with the default.
      const pageSize = Number(this.db.pragma('page_size', { simple: true }));
      this.db.pragma(`wal_autocheckpoint = ${Math.floor(WAL_CHECKPOINT_BYTES / pageSize)}`);
    }
    const derived = new DerivedData(this.db, this.mode === 'incremental');
    const writers = new ImportWriters(this.runId, derived.beforeChange);
    this.steps.run(writers.init());
    const ledger = new Ledger(this.runId);
    this.steps.run(ledger.init());
    this.running = { ledger, writers, derived };
    return Promise.resolve({
      runId: opened.runId,
      resumed: opened.resumed,
      progress: opened.progress,
      // Into a database that has data every batch brings its derived data up to date: a manifest stored
      // with its lines is brought up to date once, and a served one is never seen without them. Into an
      // empty one nothing is derived until finish, and rows waiting cost a write and a read each.
      holdChildren: this.mode === 'incremental',
      csvBatchRows: CSV_BATCH_ROWS_BY_MODE[this.mode],
    });
  }

  private get ready(): Running {
    if (!this.running) throw new SinkError('begin() first');
    return this.running;
  }

  /** Runs writes; a write the disk refuses rejects with what to do about it (refusedWrite). */
  private writing<T>(work: () => T): Promise<T> {
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(refusedWrite(this.path, error));
    }
  }

  write(batch: SinkBatch): Promise<FileCounts> {
    const { ledger, writers, derived } = this.ready;
    return this.writing(() =>
      this.db.transaction(() => {
        derived.beforeBatch(appliedNow(batch));
        const written = this.steps.run(ledger.write(batch, writers));
        derived.afterBatch(writers.touched);
        return written;
      })(),
    );
  }

  releaseHeld(after: number, limit: number): Promise<Released> {
    const { ledger, writers, derived } = this.ready;
    return this.writing(() =>
      this.db.transaction((): Released => {
        const rows = this.steps.run(ledger.heldRows(after, limit));
        const last = rows.at(-1);
        if (!last) return { rows: 0, after };
        derived.beforeBatch(rows.map((row) => row.entry));
        this.steps.run(ledger.applyHeld(writers, rows));
        derived.afterBatch(writers.touched);
        return { rows: rows.length, after: last.id };
      })(),
    );
  }

  finish(onPhase?: (phase: string) => void): Promise<RunFinish> {
    return this.writing(() => this.finishing(onPhase));
  }

  private finishing(onPhase?: (phase: string) => void): RunFinish {
    const { ledger, writers } = this.ready;
    if (this.mode === 'bulk') {
      this.db.pragma(`cache_size = -${FINISH_CACHE_KIB}`);
      onPhase?.('totals of each manifest');
      this.db.transaction(() => this.db.exec(ALL_MANIFEST_AGGREGATES_SQL))();
      finalize(this.db, onPhase);
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
    } else {
      // Lists the run added to are written in lookup order again, each in one transaction (a server
      // reading meanwhile sees the old table or the new one, never half of either).
      const lists = new Map(lookupLists());
      for (const name of unorderedLookupLists(this.db)) {
        const list = lists.get(name);
        if (!list) continue;
        onPhase?.(`lookup list ${name} in order`);
        this.db.transaction(() => writeLookupList(this.db, name, list))();
      }
      // The batches moved the tallies by differences; once more from the rows, exact to the last digit.
      onPhase?.('tallies');
      computeTallies(this.db);
    }
    return this.steps.run(ledger.finish(writers));
  }

  async *reportRows(): AsyncIterable<Rejection> {
    const rejected = this.db.prepare(REPORT_SQL.rejected).raw().iterate(this.runId) as IterableIterator<
      [string, number, string, string, string]
    >;
    for (const [file, line, column, reason, raw] of rejected) yield { file, line, column, reason, raw };
    const pending = this.db.prepare(REPORT_SQL.pending).raw().iterate(this.runId) as IterableIterator<
      [string, number, string, string, string]
    >;
    for (const [file, line, kind, waitKey, raw] of pending) {
      yield { file, line, column: '', raw, reason: pendingReason(kind, waitKey) };
    }
    await Promise.resolve();
  }

  close(): Promise<void> {
    try {
      if (this.db.open) {
        this.db.pragma('wal_checkpoint(TRUNCATE)');
        this.db.close();
      }
    } finally {
      this.lock.release();
    }
    return Promise.resolve();
  }
}
