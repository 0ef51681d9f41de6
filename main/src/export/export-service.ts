/**
 * Main's side of the export contract: asks the user where to save (the adapter's dialog; the renderer never
 * sends a path), starts the job, and turns the job's progress into the contract's events. A grid's rows come
 * from the API, or, for an export of offline data, in chunks from the renderer's offline pack, each checked
 * here before it is written (./offline-rows.ts). Profile exports are small and written in one go, through
 * the same temporary-file-and-rename path.
 */
import { basename, join } from 'node:path';
import type { z } from 'zod';
import type { Result } from '../../../shared/ipc/contract.ts';
import type {
  ExportChunkInput,
  ExportEndInput,
  ExportFormat,
  ExportGridInput,
  ExportOfflineInput,
  ExportProfileInput,
} from '../../../shared/ipc/exports.ts';
import { endpoints } from '../api/endpoints.ts';
import { failure, success } from '../api/errors.ts';
import type { EmitEvent, Session } from '../session/session.ts';
import type { SignInWaiters } from '../session/sign-in-waiters.ts';
import { ExportFailure, apiPages, createExports } from './export-jobs.ts';
import { planGridExport } from './grid-export.ts';
import { ChunkFeed, parseChunk } from './offline-rows.ts';
import { writeProfileWorkbook } from './profile-writer.ts';
import { safeFileName } from './safe-file-name.ts';

/** Asks where to save; undefined when the user closed the dialog. */
export type ChooseSaveTarget = (suggestedName: string, format: ExportFormat) => Promise<string | undefined>;

export interface ExportServiceDeps {
  session: Session;
  waiters: SignInWaiters;
  emit: EmitEvent;
  chooseSaveTarget: ChooseSaveTarget;
  /** A folder main owns, for the waste lines an xlsx export keeps aside while its first sheet is written. */
  spillFolder: string;
  now?: () => Date;
  /** Told of each finished file, after it is in place. */
  onSaved?: (id: string, path: string) => void;
}

export interface ExportService {
  grid(input: z.output<typeof ExportGridInput>): Promise<Result<{ id: string } | null>>;
  profile(input: z.output<typeof ExportProfileInput>): Promise<Result<{ id: string } | null>>;
  offlineStart(input: z.output<typeof ExportOfflineInput>): Promise<Result<{ id: string } | null>>;
  offlineChunk(input: z.output<typeof ExportChunkInput>): Promise<Result<null>>;
  offlineEnd(input: z.output<typeof ExportEndInput>): Result<null>;
  cancel(id: string): void;
  cancelAll(): void;
}

export function createExportService(deps: ExportServiceDeps): ExportService {
  const { session, emit } = deps;
  const now = deps.now ?? (() => new Date());
  /** Running exports of offline data, by id: where their chunks go. */
  const feeds = new Map<string, ChunkFeed>();
  /** An export ended: a chunk still on its way is refused, and later ones find no export. */
  const ended = (id: string) => {
    feeds.get(id)?.fail(new ExportFailure('The export has ended.'));
    feeds.delete(id);
  };
  const jobs = createExports({
    spillFolder: deps.spillFolder,
    events: {
      progress: (id, progress) => emit('export.progress', { id, ...progress }),
      done: (id, { path, rows }) => {
        ended(id);
        deps.onSaved?.(id, path);
        emit('export.done', { id, fileName: basename(path), rows });
      },
      failed: (id, message, cause) => {
        ended(id);
        emit('export.failed', { id, message, ...(cause ? { cause } : {}) });
      },
    },
  });
  const notRunning = () =>
    failure('not-found', 'This export is no longer running: it finished, failed or was cancelled.');
  const waitForSignIn = (signal: AbortSignal) => deps.waiters.wait(() => session.status().signedIn, signal);

  return {
    async grid(input) {
      const plan = planGridExport(input, session, now());
      const target = await deps.chooseSaveTarget(plan.suggestedName, input.format);
      if (target === undefined) return success(null);
      const id = jobs.start({
        target,
        file: plan.file,
        pages: (signal, onWaiting) => apiPages(plan.fetchPage, signal, waitForSignIn, onWaiting),
      });
      return success({ id });
    },
    async profile({ handler_id }) {
      // Read first, so a generator that cannot be read never opens a save dialog.
      const detail = await session.call(endpoints.generatorDetail({ handler_id }));
      if (!detail.ok) return detail;
      // The id is the server's data: it may carry separators, `..` or a device name.
      const target = await deps.chooseSaveTarget(safeFileName(`Generator ${handler_id}`, 'xlsx'), 'xlsx');
      if (target === undefined) return success(null);
      const id = jobs.startSingle(target, (temporary) =>
        writeProfileWorkbook(temporary, detail.data, {
          server: session.status().baseUrl,
          user: session.status().username ?? '',
          exportedAt: now(),
        }),
      );
      return success({ id });
    },
    async offlineStart({ query, savedAt }) {
      const plan = planGridExport(query, session, now(), { from: 'offline', savedAt: new Date(savedAt) });
      const target = await deps.chooseSaveTarget(plan.suggestedName, query.format);
      if (target === undefined) return success(null);
      const feed = new ChunkFeed(query.list);
      const id = jobs.start({ target, file: plan.file, pages: (signal) => feed.pages(signal) });
      feeds.set(id, feed);
      return success({ id });
    },
    async offlineChunk({ id, total, rows }) {
      const feed = feeds.get(id);
      if (!feed) return notRunning();
      const parsed = parseChunk(feed.list, rows, feed.received);
      if (!parsed.ok) {
        feed.fail(new ExportFailure(parsed.message));
        return failure('bad-request', parsed.message);
      }
      try {
        await feed.push({ totalElements: total, rows: parsed.rows });
        return success(null);
      } catch (error) {
        return failure('cancelled', (error as Error).message);
      }
    },
    offlineEnd({ id, failure: reason }) {
      const feed = feeds.get(id);
      if (!feed) return notRunning();
      if (reason === undefined) feed.end();
      else feed.fail(new ExportFailure(reason));
      return success(null);
    },
    cancel: (id) => void jobs.cancel(id),
    cancelAll: () => jobs.cancelAll(),
  };
}

/** The spill folder inside main's user-data folder. */
export function spillFolderIn(userDataDir: string): string {
  return join(userDataDir, 'exports');
}
