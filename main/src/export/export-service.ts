/**
 * Main's side of the export contract: asks the user where to save (the adapter's dialog; the renderer never
 * sends a path), starts the job, and turns the job's progress into the contract's events. A grid's rows come
 * from the API, or, for an export of offline data, in chunks from the renderer's offline pack, each checked
 * here before it is written (./offline-rows.ts). Profile exports are small and written in one go, through
 * the same temporary-file-and-rename path. Every export belongs to the session that started it
 * (./export-owner.ts): signing out ends it, another user's sign-in fails it.
 */
import { basename, join } from 'node:path';
import type { z } from 'zod';
import type { EventPayload, Result } from '../../../shared/ipc/contract.ts';
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
import { apiPages, type FetchPage } from './api-pages.ts';
import { ENDED_MESSAGE, ExportFailure } from './errors.ts';
import { createExports } from './export-jobs.ts';
import { OWNER_MESSAGES, endedBy, refusedSession, type ExportOwner } from './export-owner.ts';
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
  /** Told of each export that ended without a file, with the target it was to write. */
  onFailed?: (id: string, target: string) => void;
  /** Rows a sheet may hold: Excel's limit unless a test lowers it. */
  sheetRows?: number;
}

export interface ExportService {
  grid(input: z.output<typeof ExportGridInput>): Promise<Result<{ id: string } | null>>;
  profile(input: z.output<typeof ExportProfileInput>): Promise<Result<{ id: string } | null>>;
  offlineStart(input: z.output<typeof ExportOfflineInput>): Promise<Result<{ id: string } | null>>;
  offlineChunk(input: z.output<typeof ExportChunkInput>): Promise<Result<null>>;
  offlineEnd(input: z.output<typeof ExportEndInput>): Result<null>;
  cancel(id: string): void;
  /** Cancels every export; settles once each has removed what it wrote (the app quits). */
  cancelAll(): Promise<void>;
  /** Main's session event: ends the exports it takes from their owner. */
  sessionChanged(change: EventPayload<'session.changed'>): void;
}

export function createExportService(deps: ExportServiceDeps): ExportService {
  const { session, emit } = deps;
  const now = deps.now ?? (() => new Date());
  /** Running exports of offline data, by id: where their chunks go. */
  const feeds = new Map<string, ChunkFeed>();
  /** Whose each running export is, and the file it writes, by id. */
  const owners = new Map<string, { owner: ExportOwner; target: string }>();
  /** An export ended: a chunk still on its way is refused, and later ones find no export. */
  const ended = (id: string) => {
    feeds.get(id)?.fail(new ExportFailure(ENDED_MESSAGE));
    feeds.delete(id);
    owners.delete(id);
  };
  const jobs = createExports({
    spillFolder: deps.spillFolder,
    ...(deps.sheetRows ? { sheetRows: deps.sheetRows } : {}),
    events: {
      progress: (id, progress) => emit('export.progress', { id, ...progress }),
      done: (id, { path, rows }) => {
        ended(id);
        deps.onSaved?.(id, path);
        emit('export.done', { id, fileName: basename(path), rows });
      },
      failed: (id, message, cause) => {
        const target = owners.get(id)?.target;
        ended(id);
        if (target !== undefined) deps.onFailed?.(id, target);
        emit('export.failed', { id, message, ...(cause ? { cause } : {}) });
      },
    },
  });
  /** Records whose export `id` is and what it writes; a session change may end it from now on. */
  const owned = (id: string, owner: ExportOwner, target: string) => {
    owners.set(id, { owner, target });
    return success({ id });
  };
  const notRunning = () =>
    failure('not-found', 'This export is no longer running: it finished, failed or was cancelled.');
  const waitForSignIn = (signal: AbortSignal) => deps.waiters.wait(() => session.status().signedIn, signal);
  /** The owner's pages only: a page asked for while another user is signed in ends the export. */
  const ownersPages = (owner: ExportOwner, fetchPage: FetchPage): FetchPage => {
    return (page, signal) => {
      const refused = refusedSession(owner, session.status());
      if (refused !== undefined) return Promise.reject(new ExportFailure(refused));
      return fetchPage(page, signal);
    };
  };

  return {
    async grid(input) {
      const owner = session.owner();
      if (!owner) return failure('unauthorized', OWNER_MESSAGES.noOwner);
      const plan = planGridExport(input, session, owner, now());
      const target = await deps.chooseSaveTarget(plan.suggestedName, input.format);
      if (target === undefined) return success(null);
      const fetchPage = ownersPages(owner, plan.fetchPage);
      const id = jobs.start({
        target,
        file: plan.file,
        pages: (signal, onWaiting) => apiPages(fetchPage, signal, waitForSignIn, onWaiting),
      });
      return owned(id, owner, target);
    },
    async profile({ handler_id }) {
      const owner = session.owner();
      if (!owner) return failure('unauthorized', OWNER_MESSAGES.noOwner);
      // Read first, so a generator that cannot be read never opens a save dialog.
      const detail = await session.call(endpoints.generatorDetail({ handler_id }));
      if (!detail.ok) return detail;
      // The id is the server's data: it may carry separators, `..` or a device name.
      const target = await deps.chooseSaveTarget(safeFileName(`Generator ${handler_id}`, 'xlsx'), 'xlsx');
      if (target === undefined) return success(null);
      const id = jobs.startSingle(target, (temporary, signal) =>
        writeProfileWorkbook(
          temporary,
          detail.data,
          { server: owner.baseUrl, user: owner.username, exportedAt: now() },
          signal,
        ),
      );
      return owned(id, owner, target);
    },
    async offlineStart({ query, savedAt }) {
      const owner = session.owner();
      if (!owner) return failure('unauthorized', OWNER_MESSAGES.noOwner);
      const origin = { from: 'offline', savedAt: new Date(savedAt) } as const;
      const plan = planGridExport(query, session, owner, now(), origin);
      const target = await deps.chooseSaveTarget(plan.suggestedName, query.format);
      if (target === undefined) return success(null);
      const feed = new ChunkFeed(query.list);
      const id = jobs.start({ target, file: plan.file, pages: (signal) => feed.pages(signal) });
      feeds.set(id, feed);
      return owned(id, owner, target);
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
    sessionChanged(change) {
      for (const [id, { owner }] of owners) {
        const message = endedBy(owner, change);
        if (message !== undefined) jobs.stop(id, message);
      }
    },
  };
}

/** The spill folder inside main's user-data folder. */
export function spillFolderIn(userDataDir: string): string {
  return join(userDataDir, 'exports');
}
