/**
 * Running exports: each has an id, its own AbortController, and reports progress, done or failed as events.
 * Rows come page by page from a source (the API through the session, api-pages.ts, or chunks the renderer
 * sends from an offline pack, offline-rows.ts); the file is written beside its target under a temporary name
 * and renamed into place only when complete, so a cancel or a failure leaves no file behind and any existing
 * file untouched. The rows are read and written in threads of their own (export-threads.ts); main fetches
 * pages and owns the file.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { temporaryPathFor, writeAtomically } from './atomic-file.ts';
import { CANCELLED_MESSAGE, ExportFailure, NetworkLost, failureMessage } from './errors.ts';
import { writeInThreads } from './export-threads.ts';
import type { GridFile, SourcePages, WriteProgress } from './grid-file.ts';
import { PartNotes, spillNameFor } from './leftovers.ts';
import { EXCEL_SHEET_ROWS } from './sheet-series.ts';

export interface ExportEvents {
  progress(id: string, progress: WriteProgress & { waiting?: 'sign-in' }): void;
  done(id: string, outcome: { path: string; rows: number }): void;
  /** `cause` is 'network' when the server could not be reached, so an offline copy may be offered. */
  failed(id: string, message: string, cause?: 'network'): void;
}

export interface ExportSpec {
  /** The file the user chose. */
  target: string;
  file: GridFile;
  /** The rows; `onWaiting` tells the user the export waits for them to sign in again. */
  pages: (signal: AbortSignal, onWaiting: () => void) => SourcePages;
}

export interface ExportDeps {
  events: ExportEvents;
  /** Where waste lines wait while the first sheet is written. */
  spillFolder: string;
  /** Opens the file an export writes; replaceable so tests can simulate a full disk. */
  open?: (path: string) => Writable;
  /** Rows a sheet may hold: Excel's limit unless a test lowers it. */
  sheetRows?: number;
}

/** Progress events at most this often: a fast export must not flood IPC with thousands of them. */
const PROGRESS_INTERVAL_MS = 100;

/** What a job reports while it writes. */
interface Reporter {
  progress(progress: WriteProgress): void;
  waiting(): void;
}

type Write = (temporary: string, signal: AbortSignal, report: Reporter) => Promise<number>;

interface Running {
  controller: AbortController;
  /** Settles once the job has ended and cleaned up after itself. */
  ended: Promise<void>;
}

export function createExports(deps: ExportDeps) {
  const running = new Map<string, Running>();
  const notes = new PartNotes(deps.spillFolder);
  const open = deps.open ?? createWriteStream;
  const sheetRows = deps.sheetRows ?? EXCEL_SHEET_ROWS;

  async function run(id: string, target: string, write: Write, controller: AbortController): Promise<void> {
    let lastProgress = 0;
    let latest: WriteProgress = { rowsWritten: 0, total: 0 };
    const report: Reporter = {
      progress(progress) {
        latest = progress;
        const now = Date.now();
        const { wasteLines } = progress;
        const last = wasteLines
          ? wasteLines.written >= wasteLines.total
          : progress.rowsWritten >= progress.total;
        if (now - lastProgress < PROGRESS_INTERVAL_MS && !last) return;
        lastProgress = now;
        deps.events.progress(id, progress);
      },
      waiting: () => deps.events.progress(id, { ...latest, waiting: 'sign-in' }),
    };
    const { signal } = controller;
    let outcome: () => void;
    try {
      await mkdir(deps.spillFolder, { recursive: true });
      const temporary = temporaryPathFor(target);
      // Noted before the file exists, so a crash from here on leaves nothing the next start cannot find.
      await notes.note(id, temporary);
      const rows = await writeAtomically(target, temporary, (file) => write(file, signal, report), signal);
      outcome = () => deps.events.done(id, { path: target, rows });
    } catch (error) {
      const message = failureMessage(signal.aborted ? signal.reason : error, target);
      const network = !signal.aborted && error instanceof NetworkLost;
      outcome = () =>
        network ? deps.events.failed(id, message, 'network') : deps.events.failed(id, message);
    }
    await notes.forget(id).catch(() => undefined);
    running.delete(id);
    outcome();
  }

  function launch(target: string, write: Write): string {
    const id = randomUUID();
    const controller = new AbortController();
    running.set(id, { controller, ended: run(id, target, write, controller) });
    return id;
  }

  return {
    /** Starts a grid export; its events carry the returned id. */
    start(spec: ExportSpec): string {
      return launch(spec.target, (temporary, signal, report) => {
        // Checked before the file is opened: a cancel while the job was setting up opens nothing.
        signal.throwIfAborted();
        return writeInThreads(
          spec.file,
          spec.pages(signal, () => report.waiting()),
          open(temporary),
          {
            signal,
            spillPath: join(deps.spillFolder, spillNameFor(temporary)),
            sheetRows,
            onProgress: (progress) => report.progress(progress),
          },
        );
      });
    },
    /**
     * Starts an export written in one go (a profile); `write` answers the number of rows it wrote and stops
     * when `signal` aborts.
     */
    startSingle(target: string, write: (temporary: string, signal: AbortSignal) => Promise<number>): string {
      return launch(target, (temporary, signal) => write(temporary, signal));
    },
    /**
     * Stops a running export, which then fails with `message`; false when there is none with this id
     * (finished, or never started).
     */
    stop(id: string, message = CANCELLED_MESSAGE): boolean {
      const job = running.get(id);
      if (!job) return false;
      job.controller.abort(new ExportFailure(message));
      return true;
    },
    /** Cancels a running export; false when there is none with this id. */
    cancel(id: string): boolean {
      return this.stop(id);
    },
    /** Cancels everything (the app quits); settles once every export has removed what it wrote. */
    async cancelAll(): Promise<void> {
      const jobs = [...running.values()];
      for (const job of jobs) job.controller.abort(new ExportFailure(CANCELLED_MESSAGE));
      await Promise.all(jobs.map((job) => job.ended));
    },
  };
}

export type Exports = ReturnType<typeof createExports>;
