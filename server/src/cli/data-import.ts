/**
 * npm run data:import -- --db FILE|postgres://… [--report FILE] [--restart] [--batch-rows N] <files or folders…>
 *
 * Imports EPA e-Manifest (EM_*) and RCRAInfo handler (HD_*) CSV files, zipped or not, and e-Manifest JSON
 * into a tracker database, new or served (docs/import.md): a SQLite file, or PostgreSQL (--db postgres://…,
 * or TRACKER_DATABASE_URL when --db is not given; docs/deploy.md). Progress on standard error; the summary per
 * file at the end; rejected and pending rows in the report. Exit code 2 for bad arguments, 1 when a file
 * could not be read at all or the import failed. Ctrl-C (or SIGTERM) stops it after the batch it is writing,
 * saying how far it got, with 128 + the signal's number; the same command run again resumes there. A second
 * Ctrl-C stops it at once (the batch being written is rolled back; resuming works the same), and so does
 * the first during the finish.
 */
import { dirname, join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import type { ImportFilesResult } from '../import/import-files.ts';
import { COUNTERS, batchRowsProblem } from '../import/model/sink.ts';
import { isPostgresUrl, redactUrl } from '../postgres/pg-url.ts';
import { DatabaseError } from '../db/database-error.ts';
import { isFolder, readArguments, usageError } from './arguments.ts';
import { count, duration, importProgress } from './import-progress.ts';

const USAGE =
  'usage: npm run data:import -- --db FILE|postgres://… [--report FILE] [--restart] [--batch-rows N] <files or folders…>';

const fail: (message: string) => never = usageError(USAGE);

/** The signal that asked the import to stop, once one has. */
let stoppedBy: NodeJS.Signals | undefined;

/**
 * Stops the import after its batch at the first Ctrl-C or SIGTERM, at once at the second; `release` gives
 * the signals back to Node, which ends the process at once: the finish runs long statements during which
 * no handler here could run.
 */
function stopOnSignals(): { signal: AbortSignal; release: () => void } {
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (stoppedBy) process.exit(128 + constants.signals[signal]);
    stoppedBy = signal;
    stop.abort();
    console.error(
      `\n${signal === 'SIGINT' ? 'Ctrl-C' : signal}: stopping after the batch being written (Ctrl-C again stops at once)…`,
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: stop.signal,
    release: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/**
 * The importer, loaded once the arguments are read: a refusal of them does not wait for it (about 0.4 s
 * of loading).
 */
async function loadImporter() {
  const [files, run, postgres, sqlite, sources, zip] = await Promise.all([
    import('../import/import-files.ts'),
    import('../import/run.ts'),
    import('../import/postgres/pg-sink.ts'),
    import('../import/sqlite/sqlite-sink.ts'),
    import('../import/sources.ts'),
    import('../import/zip.ts'),
  ]);
  return {
    importFiles: files.importFiles,
    FINISHING: run.FINISHING,
    ImportStopped: run.ImportStopped,
    /** What refused, said in a sentence: its message alone is printed. */
    refusals: [
      postgres.PostgresSinkError,
      sqlite.SinkError,
      DatabaseError,
      sources.SourceError,
      zip.ZipError,
    ],
  };
}

/** The summary: each file's counts, the totals, and what else the run did. */
function printResult(result: ImportFilesResult, shown: string): void {
  console.error(`\nImported into ${shown} in ${duration(result.seconds)}:`);
  const header = ['file', 'table', ...COUNTERS];
  const rows = result.files.map((file) => [
    file.path,
    file.refused ? `${file.table === '?' ? '' : `${file.table} `}(not read)` : file.table,
    ...COUNTERS.map((counter) => count(file.counts[counter])),
  ]);
  rows.push(['all files', '', ...COUNTERS.map((counter) => count(result.totals[counter]))]);
  const widths = header.map((name, index) =>
    Math.max(name.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, index) => (index < 2 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0)))
      .join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  if (result.generatorsFromManifests > 0) {
    console.error(
      `${count(result.generatorsFromManifests)} generator(s) created from manifests (no handler file named them)`,
    );
  }
  if (result.appliedFromEarlierRuns > 0) {
    console.error(
      `${count(result.appliedFromEarlierRuns)} row(s) kept pending by earlier imports were applied`,
    );
  }
  if (result.reportPath) {
    console.error(`${count(result.reportRows)} rejected or pending row(s) listed in ${result.reportPath}`);
  }
}

async function main(): Promise<void> {
  const parsed = readArguments(
    USAGE,
    {
      db: { type: 'string' },
      report: { type: 'string' },
      restart: { type: 'boolean', default: false },
      'batch-rows': { type: 'string' },
    },
    true,
  );
  if (!parsed) return;
  const { values, positionals } = parsed;
  const named = values.db ?? process.env.TRACKER_DATABASE_URL;
  if (!named) fail('--db FILE|postgres://… is required (or TRACKER_DATABASE_URL)');
  if (positionals.length === 0) fail('name at least one file or folder to import');
  const postgres = isPostgresUrl(named);
  const db = postgres ? named : resolve(named);
  if (!postgres && !existsSync(dirname(db))) fail(`the folder ${dirname(db)} does not exist`);
  if (!postgres && isFolder(db))
    fail(`${db} is a folder: --db names the database file (such as ${join(db, 'tracker.db')})`);
  const report = values.report === undefined ? undefined : resolve(values.report);
  if (report !== undefined && !existsSync(dirname(report)))
    fail(`the folder ${dirname(report)} for the report does not exist`);
  if (report !== undefined && isFolder(report))
    fail(`${report} is a folder: --report names the file the report is written to`);
  let batchRows: number | undefined;
  if (values['batch-rows'] !== undefined) {
    batchRows = Number(values['batch-rows']);
    const problem = batchRowsProblem(batchRows);
    if (problem) fail(`--batch-rows ${problem}`);
  }

  const importer = await loadImporter();
  const stopping = stopOnSignals();
  const show = importProgress(process.stderr, importer.FINISHING);
  let result: ImportFilesResult;
  try {
    result = await importer.importFiles({
      db,
      paths: positionals,
      report,
      restart: values.restart,
      batchRows,
      onEvent: (event) => {
        if (event.kind === 'phase' && event.phase === importer.FINISHING) stopping.release();
        show.onEvent(event);
      },
      signal: stopping.signal,
    });
  } catch (error) {
    show.end();
    if (error instanceof importer.ImportStopped) {
      console.error(
        `Stopped after ${count(error.rows)} rows of this run, all of them kept. ` +
          'Run the same command again to resume where it stopped.',
      );
      process.exit(128 + constants.signals[stoppedBy ?? 'SIGINT']);
    }
    if (importer.refusals.some((refusal) => error instanceof refusal)) {
      console.error((error as Error).message);
      process.exit(1);
    }
    throw error;
  }
  show.end();
  printResult(result, postgres ? redactUrl(db) : db);
  if (result.files.some((file) => file.refused)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
