/**
 * What main does for each method of the IPC contract: plain async functions of (parsed input, context),
 * transport-agnostic. The Electron IPC adapter and any other adapter (a loopback bridge for browser tests)
 * call these same functions; the contract's types keep each one honest about its input and output.
 */
import type { Group, MethodOf, OutputOf, ParsedInputOf } from '../../../shared/ipc/contract.ts';
import { MESSAGES } from '../../../shared/ipc/messages.ts';
import { endpoints } from '../api/endpoints.ts';
import { failure, success } from '../api/errors.ts';
import type { ExportService } from '../export/export-service.ts';
import { isAllowedExternalUrl } from '../security/policy.ts';
import type { Session } from '../session/session.ts';
import type { SettingsStore } from '../settings/settings-store.ts';
import { generatorDetails } from './generator-details.ts';
import type { SenderRequests } from './requests.ts';

/** Main's services, the same for every call. */
export interface HandlerContext {
  session: Session;
  settings: SettingsStore;
  /** Opens a URL in the user's browser; given only https: URLs. */
  openExternal: (url: string) => Promise<void>;
  exports: ExportService;
  /** Removes what main keeps for the user who signed out: export scratch files, undelivered downloads. */
  removeUserFiles: () => Promise<void>;
}

/** One call: the services, the calling sender's requests, and this request's own signal if it has an id. */
export interface CallContext extends HandlerContext {
  requests: SenderRequests;
  /** Aborts when the caller cancels this request. */
  signal?: AbortSignal | undefined;
}

export type Handler<G extends Group, M extends MethodOf<G>> = (
  input: ParsedInputOf<G, M>,
  context: CallContext,
) => Promise<OutputOf<G, M>>;

export type Handlers = { [G in Group]: { [M in MethodOf<G>]: Handler<G, M> } };

export const handlers: Handlers = {
  session: {
    signIn: (input, { session, signal }) => session.signIn(input, signal),
    signOut: async (_input, { session, settings, removeUserFiles }) => {
      const removeData = settings.get().removeDataOnSignOut;
      const signedOut = await session.signOut({ removeData });
      if (removeData) await removeUserFiles();
      return signedOut;
    },
    signOutAndRemoveData: async (_input, { session, removeUserFiles }) => {
      const signedOut = await session.signOut({ removeData: true });
      await removeUserFiles();
      return signedOut;
    },
    status: (_input, { session }) => Promise.resolve(success(session.status())),
    probe: (_input, { session }) => session.probe(),
  },
  settings: {
    get: (_input, { settings }) => Promise.resolve(success(settings.get())),
    set: async (input, { settings, session }) => {
      const updated = await settings.update(input);
      if (!updated.ok) return failure('bad-request', updated.message);
      await session.serverChanged(updated.settings.apiBaseUrl);
      return success(updated.settings);
    },
    testConnection: (input, { session }) => session.checkServer(input.baseUrl),
  },
  generators: {
    aggregate: (input, { session, signal }) => session.call(endpoints.generatorsAggregate(input), signal),
    list: (input, { session, signal }) => session.call(endpoints.generatorsList(input), signal),
    lookup: (input, { session, signal }) => session.call(endpoints.generatorsLookup(input), signal),
    detail: (input, { session, signal }) => session.call(endpoints.generatorDetail(input), signal),
    details: (input, { session, signal }) => generatorDetails(session, input, signal),
  },
  manifests: {
    aggregate: (input, { session, signal }) => session.call(endpoints.manifestsAggregate(input), signal),
    list: (input, { session, signal }) => session.call(endpoints.manifestsList(input), signal),
    lookup: (input, { session, signal }) => session.call(endpoints.manifestsLookup(input), signal),
  },
  requests: {
    cancel: ({ id }, { requests }) => {
      requests.cancel(id);
      return Promise.resolve(success(null));
    },
  },
  exports: {
    grid: (input, { exports }) => exports.grid(input),
    profile: (input, { exports }) => exports.profile(input),
    cancel: ({ id }, { exports }) => {
      exports.cancel(id);
      return Promise.resolve(success(null));
    },
    offlineStart: (input, { exports }) => exports.offlineStart(input),
    offlineChunk: (input, { exports }) => exports.offlineChunk(input),
    offlineEnd: (input, { exports }) => Promise.resolve(exports.offlineEnd(input)),
  },
  shell: {
    openExternal: async ({ url }, { openExternal }) => {
      if (!isAllowedExternalUrl(url)) return failure('bad-request', MESSAGES.onlyHttpsLinks);
      await openExternal(url);
      return success(null);
    },
  },
};
