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
import { lookupLists } from '../../db/lookup-lists.ts';
import { unorderedLookupLists, writeLookupList } from '../../db/lookup-index.ts';
import { SCHEMA_VERSION, createTables } from '../../db/schema.ts';
import { computeTallies } from '../../db/tallies.ts';
import { fillReferenceTables } from '../../data/reference.ts';
import type { ImportRecord, Rejection } from '../model/records.ts';
import {
  NO_COUNTS,
  type FileCounts,
  type FileProgress,
  type ImportSink,
  type RunFinish,
  type RunStart,
  type SinkBatch,
  type SourceFile,
} from '../model/sink.ts';
import { ALL_MANIFEST_AGGREGATES_SQL } from './derived-sql.ts';
import { DerivedData } from './derived.ts';
import { SqliteWriters, type Outcome } from './writers.ts';

export class SinkError extends Error {}

type Counter = keyof FileCounts;

const COUNTERS: readonly Counter[] = [
  'read',
  'stored',
  'updated',
  'unchanged',
  'skipped',
  'rejected',
  'pending',
];

/** Opens (or creates) a tracker database for importing; a file of another kind is refused untouched. */
function openForImport(path: string): Database.Database {
  const fresh = !existsSync(path);
  const db = new Database(path);
  let version: string | undefined;
  try {
    version = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get() as
      string | undefined;
  } catch {
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
  // 64 MiB of page cache, temporary sorts on disk: the import's memory stays flat (bench:import measures
  // it) whatever the files' size.
  db.pragma('cache_size = -65536');
  if (version === undefined) {
    createTables(db);
    fillReferenceTables(db);
  }
  return db;
}

interface PendingRow {
  id: number;
  run_id: number;
  file_key: string;
  kind: ImportRecord['kind'];
  record: string;
  file: string;
  line: number;
  raw: string;
}

export class SqliteSink implements ImportSink {
  private readonly db: Database.Database;
  private runId = 0;
  private mode: 'bulk' | 'incremental' = 'incremental';
  private writers: SqliteWriters | undefined;
  private derived: DerivedData | undefined;
  private appliedFromEarlierRuns = 0;

  constructor(path: string) {
    this.db = openForImport(path);
  }

  begin(files: readonly SourceFile[], options: { restart: boolean }): Promise<RunStart> {
    const keys = JSON.stringify(files.map((file) => file.key));
    const open = this.db
      .prepare("SELECT id, files, mode FROM import_runs WHERE state = 'running' ORDER BY id DESC LIMIT 1")
      .get() as { id: number; files: string; mode: 'bulk' | 'incremental' } | undefined;
    let resumed = false;
    if (open && open.files === keys && !options.restart) {
      this.runId = open.id;
      this.mode = open.mode;
      resumed = true;
    } else {
      if (open) this.db.prepare("UPDATE import_runs SET state = 'abandoned' WHERE id = ?").run(open.id);
      const empty =
        this.db
          .prepare('SELECT (SELECT count(*) FROM manifests) + (SELECT count(*) FROM generators)')
          .pluck()
          .get() === 0;
      this.mode = empty ? 'bulk' : 'incremental';
      this.runId = Number(
        this.db
          .prepare("INSERT INTO import_runs (files, mode, state, started_at) VALUES (?, ?, 'running', ?)")
          .run(keys, this.mode, new Date().toISOString()).lastInsertRowid,
      );
      const insert = this.db.prepare('INSERT INTO import_files (run_id, file_key, path) VALUES (?, ?, ?)');
      this.db.transaction(() => {
        for (const file of files) insert.run(this.runId, file.key, file.path);
      })();
    }
    if (this.mode === 'bulk') {
      // Nobody reads a database being built: a rollback journal writes each appended page once where the
      // WAL writes it twice, and without syncs a killed import still rolls its last batch back (the journal
      // is in the OS's hands), which is all resuming needs. finish() puts WAL back for the server.
      this.db.pragma('journal_mode = DELETE');
      this.db.pragma('synchronous = OFF');
    }
    this.derived = new DerivedData(this.db, this.mode === 'incremental');
    this.writers = new SqliteWriters(this.db, this.runId, this.derived.beforeChange);
    const progress = new Map<string, FileProgress>();
    for (const row of this.db
      .prepare(`SELECT file_key, rows_done, done, ${COUNTERS.join(', ')} FROM import_files WHERE run_id = ?`)
      .all(this.runId) as (Record<Counter, number> & {
      file_key: string;
      rows_done: number;
      done: number;
    })[]) {
      progress.set(row.file_key, {
        rowsDone: row.rows_done,
        done: row.done === 1,
        counts: Object.fromEntries(
          COUNTERS.map((counter) => [counter, row[counter]]),
        ) as unknown as FileCounts,
      });
    }
    return Promise.resolve({ runId: this.runId, resumed, progress });
  }

  private get ready(): { writers: SqliteWriters; derived: DerivedData } {
    if (!this.writers || !this.derived) throw new SinkError('begin() first');
    return { writers: this.writers, derived: this.derived };
  }

  write(batch: SinkBatch): Promise<FileCounts> {
    const { writers, derived } = this.ready;
    const counts: FileCounts = { ...NO_COUNTS, read: batch.rows, skipped: batch.skipped };
    const reject = this.db.prepare(
      'INSERT INTO import_rejections (run_id, file, line, column_name, reason, raw) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const pend = this.db.prepare(
      `INSERT INTO import_pending (run_id, file_key, wait_key, kind, record, file, line, raw)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const rejected = (rejection: Rejection) =>
      reject.run(
        this.runId,
        rejection.file,
        rejection.line,
        rejection.column,
        rejection.reason,
        rejection.raw,
      );
    this.db.transaction(() => {
      writers.startBatch(batch.records);
      for (const rejection of batch.rejections) rejected(rejection);
      counts.rejected += batch.rejections.length;
      for (const entry of batch.records) {
        const outcome = writers.apply(entry);
        const counter = this.count(outcome);
        counts[counter] += 1;
        if (typeof outcome === 'object' && 'rejected' in outcome) {
          rejected({ ...entry.origin, column: outcome.column, reason: outcome.rejected });
        } else if (typeof outcome === 'object') {
          pend.run(
            this.runId,
            batch.file.key,
            outcome.pending,
            entry.kind,
            JSON.stringify(entry.record),
            entry.origin.file,
            entry.origin.line,
            entry.origin.raw,
          );
        }
      }
      this.applyPending(writers, batch.file.key, counts);
      derived.afterBatch(writers.touched);
      this.db
        .prepare(
          `UPDATE import_files SET rows_done = ?, done = ?,
             ${COUNTERS.map((counter) => `${counter} = ${counter} + ?`).join(', ')}
           WHERE run_id = ? AND file_key = ?`,
        )
        .run(
          batch.rowsDone,
          batch.fileDone ? 1 : 0,
          ...COUNTERS.map((counter) => counts[counter]),
          this.runId,
          batch.file.key,
        );
    })();
    return Promise.resolve(counts);
  }

  private count(outcome: Outcome): Counter {
    if (typeof outcome === 'string') return outcome;
    return 'rejected' in outcome ? 'rejected' : 'pending';
  }

  /**
   * Rows waiting for a manifest, handler or waste line that this batch stored: applied now, in the order
   * they were read. Applying one may let another through (a waste code waiting for its line), so this
   * repeats until nothing new arrives.
   */
  private applyPending(writers: SqliteWriters, batchFile: string, counts: FileCounts): void {
    const find = this.db.prepare(
      'SELECT * FROM import_pending WHERE wait_key IN (SELECT value FROM json_each(?)) ORDER BY id',
    );
    const remove = this.db.prepare('DELETE FROM import_pending WHERE id = ?');
    let seen = 0;
    for (let round = 0; round < 4; round += 1) {
      const arrived = [...writers.touched.arrived];
      if (arrived.length === seen) return;
      const waiting = find.all(JSON.stringify(arrived.slice(seen))) as PendingRow[];
      seen = arrived.length;
      for (const row of waiting) {
        const entry = {
          kind: row.kind,
          record: JSON.parse(row.record) as unknown,
          origin: { file: row.file, line: row.line, raw: row.raw },
        } as ImportRecord;
        const outcome = writers.apply(entry);
        if (typeof outcome === 'object' && 'pending' in outcome) continue;
        remove.run(row.id);
        if (typeof outcome === 'object') {
          this.db
            .prepare(
              'INSERT INTO import_rejections (run_id, file, line, column_name, reason, raw) VALUES (?, ?, ?, ?, ?, ?)',
            )
            .run(this.runId, row.file, row.line, outcome.column, outcome.rejected, row.raw);
        }
        const counter = this.count(outcome);
        if (row.run_id !== this.runId) {
          this.appliedFromEarlierRuns += 1;
        } else if (row.file_key === batchFile) {
          counts.pending -= 1;
          counts[counter] += 1;
        } else {
          this.db
            .prepare(
              `UPDATE import_files SET pending = pending - 1, ${counter} = ${counter} + 1
               WHERE run_id = ? AND file_key = ?`,
            )
            .run(this.runId, row.file_key);
        }
      }
    }
  }

  finish(onPhase?: (phase: string) => void): Promise<RunFinish> {
    const { writers } = this.ready;
    if (this.mode === 'bulk') {
      onPhase?.('totals of each manifest');
      this.db.transaction(() => this.db.exec(ALL_MANIFEST_AGGREGATES_SQL))();
      onPhase?.('indexes, search and lookup indexes');
      finalize(this.db);
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
    this.db
      .prepare("UPDATE import_runs SET state = 'done', finished_at = ? WHERE id = ?")
      .run(new Date().toISOString(), this.runId);
    const counts = new Map<string, FileCounts>();
    for (const row of this.db
      .prepare(`SELECT file_key, ${COUNTERS.join(', ')} FROM import_files WHERE run_id = ?`)
      .all(this.runId) as (Record<Counter, number> & { file_key: string })[]) {
      counts.set(
        row.file_key,
        Object.fromEntries(COUNTERS.map((counter) => [counter, row[counter]])) as unknown as FileCounts,
      );
    }
    const pendingByFile = new Map(
      this.db
        .prepare('SELECT file_key, count(*) FROM import_pending WHERE run_id = ? GROUP BY file_key')
        .raw()
        .all(this.runId) as [string, number][],
    );
    return Promise.resolve({
      counts,
      pendingByFile,
      appliedFromEarlierRuns: this.appliedFromEarlierRuns,
      generatorsFromManifests: writers.generatorsFromManifests,
    });
  }

  async *reportRows(): AsyncIterable<Rejection> {
    const rejected = this.db
      .prepare(
        `SELECT file, line, column_name AS column, reason, raw FROM import_rejections
         WHERE run_id = ? ORDER BY file, line`,
      )
      .iterate(this.runId) as IterableIterator<Rejection>;
    for (const row of rejected) yield row;
    const pending = this.db
      .prepare(
        `SELECT file, line, '' AS column, kind, wait_key, raw FROM import_pending
         WHERE run_id = ? ORDER BY file, line`,
      )
      .iterate(this.runId) as IterableIterator<
      Omit<Rejection, 'reason'> & { kind: string; wait_key: string }
    >;
    for (const row of pending) {
      const owner = row.kind === 'naics' ? 'handler' : row.kind === 'wasteCode' ? 'waste line' : 'manifest';
      yield {
        file: row.file,
        line: row.line,
        column: row.column,
        raw: row.raw,
        reason: `pending: no ${owner} ${row.wait_key} yet; kept and applied when it arrives`,
      };
    }
    await Promise.resolve();
  }

  close(): Promise<void> {
    if (this.db.open) {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
      this.db.close();
    }
    return Promise.resolve();
  }
}
