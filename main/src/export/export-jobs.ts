/**
 * Running exports: each has an id, its own AbortController, and reports progress, done or failed as events.
 * Rows come page by page from a source (the API through the session, or chunks the renderer sends from an
 * offline pack); the file is written beside its target under a temporary name and renamed into place only
 * when complete, so a cancel or a failure leaves no file behind and any existing file untouched.
 *
 * An export is a caller of its own: it never shares or cancels the grid's requests, and asks for the next
 * page while the current one is being written so the network and the disk overlap. The rows are read and
 * written in threads of their own (writer-thread.ts); main fetches pages and owns the file.
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { LIMITS } from '../../../shared/api/index.ts';
import type { Result } from '../../../shared/ipc/contract.ts';
import { temporaryPathFor, writeAtomically } from './atomic-file.ts';
import type { GridFile, WriteOptions, WriteProgress } from './grid-writer.ts';
import type { PageCount, SourcePage } from './writer-protocol.ts';
import { PartNotes, spillNameFor } from './leftovers.ts';
import { writeGridFileInThread, type SourcePages } from './writer-thread.ts';

/** Rows per page asked of the API (shared/ipc/exports.ts `exportPageRequest`): its largest page. */
const PAGE_ROWS = LIMITS.pageSizeMax;

/** One page of rows (or the API's bytes of it), or why there is none; `page` is 0-based. */
export type FetchPage = (page: number, signal: AbortSignal) => Promise<Result<SourcePage>>;

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
  /** Replaceable so tests can simulate a full disk. */
  open?: WriteOptions['open'];
  /** Rows a sheet may hold: Excel's limit unless a test lowers it. */
  sheetRows?: number;
}

/** A failure whose message is for the user as it stands. */
export class ExportFailure extends Error {}

/** The server could not be reached (no network, nothing answering, a timeout) while the rows were read. */
export class NetworkLost extends ExportFailure {}

/**
 * Rows past the total the first page gave: a server whose pages never end, or data that changed under the
 * export. Either way the file would not be the query's rows as counted at its start.
 */
export function moreRowsThanCounted(total: number): string {
  return `The rows kept coming past the ${total.toLocaleString('en-US')} counted when the export started, so it stopped; no file was written. Export again; if this happens again, the server is at fault.`;
}

/** Progress events at most this often: a fast export must not flood IPC with thousands of them. */
const PROGRESS_INTERVAL_MS = 100;

/** What the user reads when they cancel an export. */
export const CANCELLED_MESSAGE = 'The export was cancelled; no file was written.';

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
      return launch(spec.target, (temporary, signal, report) =>
        writeGridFileInThread(
          temporary,
          spec.file,
          spec.pages(signal, () => report.waiting()),
          {
            signal,
            spillPath: join(deps.spillFolder, spillNameFor(temporary)),
            ...(deps.open ? { open: deps.open } : {}),
            ...(deps.sheetRows ? { sheetRows: deps.sheetRows } : {}),
            onProgress: (progress) => report.progress(progress),
          },
        ),
      );
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

/**
 * Why an export failed, in the user's words: its own message, a cancel's, or a file-system failure with the
 * target named so they know which file is meant.
 */
function failureMessage(error: unknown, target: string): string {
  if (error instanceof ExportFailure) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOSPC':
      return `The disk is full; ${target} was not written. Free some space and export again.`;
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `There is no permission to write ${target}; choose another folder.`;
    case 'ENOENT':
      return `The folder of ${target} does not exist any more; choose another.`;
    case 'ENOTDIR':
      return `The folder of ${target} is not a folder; choose another.`;
    case 'EISDIR':
      return `${target} is a folder; choose a file name.`;
    default:
      return `The export could not be written to ${target}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Every page of a list from the API, the next one asked for while the current one is written. A page
 * that needs a new sign-in waits for it (`waitForSignIn` resolves false if the user signs out instead);
 * any other failure ends the export with the API's message.
 *
 * A page the export's reader thread reads (the API's bytes) is counted only once read: its count comes
 * back as the value of `next()`. Until the total is known the next page is asked for on the chance
 * that it exists, and dropped if the count says otherwise. The total is the first page's: no page is
 * asked for past it, and rows past it end the export (moreRowsThanCounted).
 */
export async function* apiPages(
  fetchPage: FetchPage,
  signal: AbortSignal,
  waitForSignIn: (signal: AbortSignal) => Promise<boolean>,
  onWaiting: () => void,
): AsyncGenerator<SourcePage, void, PageCount | undefined> {
  const fetchWithSignIn = async (page: number, pageSignal: AbortSignal): Promise<SourcePage> => {
    for (;;) {
      const answer = await fetchPage(page, pageSignal);
      pageSignal.throwIfAborted();
      if (answer.ok) return answer.data;
      if (answer.error.kind === 'offline' || answer.error.kind === 'timeout') {
        throw new NetworkLost(answer.error.message);
      }
      if (answer.error.kind !== 'unauthorized') throw new ExportFailure(answer.error.message);
      onWaiting();
      if (!(await waitForSignIn(pageSignal)))
        throw new ExportFailure('You signed out, so the export stopped.');
    }
  };
  const prefetch = (page: number) => {
    const controller = new AbortController();
    const answer = fetchWithSignIn(page, AbortSignal.any([signal, controller.signal]));
    // Awaited on the next turn; a failure while this page is written must not count as unhandled.
    answer.catch(() => undefined);
    return { answer, drop: () => controller.abort() };
  };
  let next = prefetch(0);
  let seen = 0;
  let total: number | undefined;
  for (let page = 0; ; page += 1) {
    const current = await next.answer;
    const known =
      'rows' in current ? { rows: current.rows.length, totalElements: current.totalElements } : undefined;
    const mayHaveMore = known
      ? known.rows === PAGE_ROWS && seen + known.rows < (total ?? known.totalElements)
      : total === undefined || seen + PAGE_ROWS < total;
    const following = mayHaveMore ? prefetch(page + 1) : undefined;
    const written = yield current;
    const counted = known ?? written;
    if (!counted) throw new Error('A page read by the writer came back without its count.');
    seen += counted.rows;
    total ??= counted.totalElements;
    if (seen > total) {
      following?.drop();
      throw new ExportFailure(moreRowsThanCounted(total));
    }
    if (counted.rows < PAGE_ROWS || seen >= total) {
      following?.drop();
      return;
    }
    next = following ?? prefetch(page + 1);
  }
}
