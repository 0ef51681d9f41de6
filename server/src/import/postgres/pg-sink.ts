/**
 * The importer's PostgreSQL writer (../model/sink.ts): the same writers and ledger as SQLite's (../writers/),
 * each batch in one transaction with its rows, their derived data (pg-derived.ts), the file's progress and
 * counts, and the rejected and pending rows. Every statement that writes a served table raises the data
 * version in its transaction (postgres/pg-schema.ts), so each server process's next answer after a batch
 * commits is read from the new rows (docs/deploy.md "Data that changes while served").
 *
 * One writer at a time (postgres/pg-writer-lock.ts): the sink holds the writers' lock on its one connection
 * for its life, and each batch's transaction first checks that its session still holds it (a connection the
 * server ended between two batches is opened again by the client, without the lock). Into a
 * database that has data, the indexes the serving queries and the writers' lookups use exist from the start
 * (created if a loaded database lacks them), and the lookup lists a run added to are written again in order
 * at its end (postgres/pg-lookup-lists.ts). Into an empty one, only the indexes the import reads exist while
 * it runs; its finish builds the others and the lookup lists, then vacuums and analyses the tables.
 */
import type { Sql, TransactionSql } from 'postgres';
import { referenceTables } from '../../data/reference.ts';
import { finalizePostgres, indexStatements } from '../../postgres/pg-finalize.ts';
import { listByBatch, rewriteUnorderedLists } from '../../postgres/pg-lookup-lists.ts';
import { connect, migrateOrRefuse } from '../../postgres/pg-store.ts';
import { redactUrl } from '../../postgres/pg-url.ts';
import { anotherWriterRuns } from '../../db/import-lock.ts';
import { holdsWriterLock, takeWriterLock } from '../../postgres/pg-writer-lock.ts';
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
import { afterBatch, computeTallies } from './pg-derived.ts';
import { methodLinesBefore } from './pg-generators.ts';
import { PostgresSteps, numbered } from './pg-steps.ts';

export class PostgresSinkError extends Error {}

/**
 * The client's codes for a connection that ended, and PostgreSQL's for one it ended (class 08, a server
 * shut down or restarting: 57P01 to 57P03) or a disk it could not write (53100).
 */
const LOST = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53100',
]);

/**
 * What a batch the database did not take says: its words, and that nothing is lost (the batch's transaction
 * did not commit; every batch before it is stored with the run's progress).
 */
function notTaken(url: string, error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !(LOST.has(code) || code.startsWith('08'))) return error;
  return new PostgresSinkError(
    `${redactUrl(url)} did not take the import's last step: ${error.message}. Every batch before is kept: ` +
      'once the database answers (with room to write), run the same command again to resume.',
  );
}

/** What an import says when its connection ended between two batches, taking its lock with it. */
function lockLost(url: string): PostgresSinkError {
  return new PostgresSinkError(
    `${redactUrl(url)} ended the import's connection between two batches, and with it the lock that keeps ` +
      'a second import out, so the import stopped. Every batch before is kept: run the same command again ' +
      'to resume.',
  );
}

/** Report rows read at a time. */
const REPORT_CHUNK = 1000;

interface Running {
  ledger: Ledger;
  writers: ImportWriters;
}

export class PostgresSink implements ImportSink {
  private readonly sql: Sql;
  private readonly url: string;
  private readonly steps = new PostgresSteps();
  private mode: RunMode = 'incremental';
  private runId = 0;
  private running: Running | undefined;

  private constructor(sql: Sql, url: string) {
    this.sql = sql;
    this.url = url;
  }

  /** Connects (one connection), migrates the schema and takes the import lock; refuses a second import. */
  static async open(url: string): Promise<PostgresSink> {
    const sql = await connect(url, { max: 1, lasting: true });
    try {
      await migrateOrRefuse(sql, url);
      if (!(await takeWriterLock(sql))) throw new PostgresSinkError(anotherWriterRuns(redactUrl(url)));
    } catch (error) {
      await sql.end({ timeout: 1 });
      throw error;
    }
    return new PostgresSink(sql, url);
  }

  async begin(files: readonly SourceFile[], options: { restart: boolean }): Promise<RunStart> {
    await this.fillReferenceTables();
    // Rows loaded by COPY (pg-load.ts) carry their ids: the rows the import adds are numbered after them.
    for (const table of ['generators', 'manifests']) {
      await this.sql.unsafe(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), coalesce((SELECT max(id) FROM ${table}), 0) + 1, false)`,
      );
    }
    const opened = await this.sql.begin((tx) => this.steps.run(tx, openRun(files, options.restart)));
    this.runId = opened.runId;
    this.mode = opened.mode;
    // Into an empty database the indexes the serving queries read are built at the finish (finalizePostgres),
    // once, where each row would otherwise go into every one of them as it is written.
    for (const statement of indexStatements(this.mode === 'bulk' ? 'import reads' : 'all')) {
      await this.sql.unsafe(statement);
    }
    // PostgreSQL keeps its derived data current batch by batch whatever the mode: nothing reads it otherwise.
    const writers = new ImportWriters(this.runId, () => undefined);
    await this.steps.run(this.sql, writers.init());
    const ledger = new Ledger(this.runId);
    await this.steps.run(this.sql, ledger.init());
    this.running = { ledger, writers };
    // Every batch brings the derived data up to date, an empty database's too (it may be served while it
    // fills): a manifest stored with its lines is brought up to date once, and never seen without them.
    return {
      runId: opened.runId,
      resumed: opened.resumed,
      progress: opened.progress,
      holdChildren: true,
      csvBatchRows: CSV_BATCH_ROWS,
    };
  }

  /** A new database's code lists (a loaded one has them from its file, pg-load.ts), as SQLite's sink fills them. */
  private async fillReferenceTables(): Promise<void> {
    const [filled] = await this.sql`SELECT EXISTS (SELECT 1 FROM naics_codes) AS any`;
    if (filled?.any) return;
    await this.sql.begin(async (tx) => {
      for (const [table, rows] of referenceTables()) {
        await tx.unsafe(
          `INSERT INTO ${table} (code, description) SELECT * FROM unnest($1::text[], $2::text[])`,
          [rows.map((row) => row.code), rows.map((row) => row.description)],
        );
      }
    });
  }

  private get ready(): Running {
    if (!this.running) throw new PostgresSinkError('begin() first');
    return this.running;
  }

  /** Refuses to go on where the session no longer holds the import lock (lockLost). */
  private async holdingLock(tx: TransactionSql): Promise<void> {
    if (!(await holdsWriterLock(tx))) throw lockLost(this.url);
  }

  /** Runs a batch's work; one the database did not take rejects with what to do about it (notTaken). */
  private async taken<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw notTaken(this.url, error);
    }
  }

  write(batch: SinkBatch): Promise<FileCounts> {
    return this.taken(() => this.writeBatch(batch));
  }

  private async writeBatch(batch: SinkBatch): Promise<FileCounts> {
    const { ledger, writers } = this.ready;
    return await this.sql.begin(async (tx) => {
      await this.holdingLock(tx);
      await listByBatch(tx);
      const before = await methodLinesBefore(tx, appliedNow(batch));
      const counts = await this.steps.run(tx, ledger.write(batch, writers));
      await afterBatch(tx, writers.touched, before);
      return counts;
    });
  }

  releaseHeld(after: number, limit: number): Promise<Released> {
    return this.taken(() => this.release(after, limit));
  }

  private async release(after: number, limit: number): Promise<Released> {
    const { ledger, writers } = this.ready;
    return await this.sql.begin(async (tx): Promise<Released> => {
      await this.holdingLock(tx);
      await listByBatch(tx);
      const rows = await this.steps.run(tx, ledger.heldRows(after, limit));
      const last = rows.at(-1);
      if (!last) return { rows: 0, after };
      const before = await methodLinesBefore(
        tx,
        rows.map((row) => row.entry),
      );
      await this.steps.run(tx, ledger.applyHeld(writers, rows));
      await afterBatch(tx, writers.touched, before);
      return { rows: rows.length, after: last.id };
    });
  }

  finish(onPhase?: (phase: string) => void): Promise<RunFinish> {
    return this.taken(() => this.finishing(onPhase));
  }

  private async finishing(onPhase?: (phase: string) => void): Promise<RunFinish> {
    const { ledger, writers } = this.ready;
    onPhase?.('tallies');
    const finished = await this.sql.begin(async (tx) => {
      await this.holdingLock(tx);
      await computeTallies(tx);
      return await this.steps.run(tx, ledger.finish(writers));
    });
    if (this.mode === 'bulk') {
      // Writes the lookup lists in order too.
      onPhase?.('indexes, lookup lists, vacuum and statistics');
      await finalizePostgres(this.sql);
    } else {
      await rewriteUnorderedLists(this.sql, (name) => onPhase?.(`lookup list ${name} in order`));
    }
    return finished;
  }

  async *reportRows(): AsyncIterable<Rejection> {
    type Row = [string, number, string, string, string];
    const read = (text: string) =>
      this.sql.unsafe(numbered(text), [this.runId]).values().cursor(REPORT_CHUNK) as AsyncIterable<Row[]>;
    for await (const rows of read(REPORT_SQL.rejected)) {
      for (const [file, line, column, reason, raw] of rows) yield { file, line, column, reason, raw };
    }
    for await (const rows of read(REPORT_SQL.pending)) {
      for (const [file, line, kind, waitKey, raw] of rows) {
        yield { file, line, column: '', raw, reason: pendingReason(kind, waitKey) };
      }
    }
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }
}
