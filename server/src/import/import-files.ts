/**
 * An import into a tracker database, a SQLite file or PostgreSQL (a postgres:// URL): the sink opened, the
 * run, the report written beside the database file (or where asked), the sink closed whatever happens.
 * What `npm run data:import` and the benchmark call.
 */
import { basename, dirname, join } from 'node:path';
import { isPostgresUrl } from '../postgres/pg-url.ts';
import type { ImportSink } from './model/sink.ts';
import { PostgresSink } from './postgres/pg-sink.ts';
import { writeReport } from './report.ts';
import { runImport, type ImportEvent, type ImportResult } from './run.ts';
import { discoverSources } from './sources.ts';
import { SqliteSink } from './sqlite/sqlite-sink.ts';

export interface ImportFilesOptions {
  /** A SQLite file's path or a postgres:// URL. */
  db: string;
  paths: readonly string[];
  /**
   * The report's path; default `<db>.import-<run>.csv` beside a database file, `tracker-import-<run>.csv` in
   * the current folder for PostgreSQL.
   */
  report?: string;
  restart?: boolean;
  batchRows?: number;
  onEvent?: (event: ImportEvent) => void;
  /** Stops the import after the batch being written (runImport's ImportStopped); the report is not written. */
  signal?: AbortSignal;
}

export interface ImportFilesResult extends ImportResult {
  /** Where the report was written, when any row was rejected or left pending. */
  reportPath: string | undefined;
  reportRows: number;
}

export async function importFiles(options: ImportFilesOptions): Promise<ImportFilesResult> {
  const postgres = isPostgresUrl(options.db);
  // Found before the database is opened: a wrong path or an empty folder leaves no new database behind.
  const sources = await discoverSources(options.paths);
  const sink: ImportSink = postgres ? await PostgresSink.open(options.db) : new SqliteSink(options.db);
  try {
    const result = await runImport({
      sink,
      sources,
      restart: options.restart,
      batchRows: options.batchRows,
      onEvent: options.onEvent,
      signal: options.signal,
    });
    const path =
      options.report ??
      (postgres
        ? `tracker-import-${result.runId}.csv`
        : join(dirname(options.db), `${basename(options.db)}.import-${result.runId}.csv`));
    const reportRows = await writeReport(path, sink.reportRows());
    return { ...result, reportPath: reportRows > 0 ? path : undefined, reportRows };
  } finally {
    await sink.close();
  }
}
