/**
 * What main does for each method of the IPC contract: plain async functions of (parsed input, context),
 * transport-agnostic. The Electron IPC adapter and any other adapter (a loopback bridge for browser tests)
 * call these same functions; the contract's types keep each one honest about its input and output.
 */
import type { Group, MethodOf, OutputOf, ParsedInputOf } from '../../../shared/ipc/contract.ts';
import { endpoints } from '../api/endpoints.ts';
import { failure, success } from '../api/errors.ts';
import { isAllowedExternalUrl } from '../security/policy.ts';
import type { Session } from '../session/session.ts';
import type { SettingsStore } from '../settings/settings-store.ts';

export interface HandlerContext {
  session: Session;
  settings: SettingsStore;
  /** Opens a URL in the user's browser; given only https: URLs. */
  openExternal: (url: string) => Promise<void>;
}

export type Handler<G extends Group, M extends MethodOf<G>> = (
  input: ParsedInputOf<G, M>,
  context: HandlerContext,
) => Promise<OutputOf<G, M>>;

export type Handlers = { [G in Group]: { [M in MethodOf<G>]: Handler<G, M> } };

export const handlers: Handlers = {
  session: {
    signIn: (input, { session }) => session.signIn(input),
    signOut: (_input, { session }) => session.signOut(),
    status: (_input, { session }) => Promise.resolve(success(session.status())),
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
    aggregate: (input, { session }) => session.call(endpoints.generatorsAggregate(input)),
    list: (input, { session }) => session.call(endpoints.generatorsList(input)),
    lookup: (input, { session }) => session.call(endpoints.generatorsLookup(input)),
    detail: (input, { session }) => session.call(endpoints.generatorDetail(input)),
  },
  manifests: {
    aggregate: (input, { session }) => session.call(endpoints.manifestsAggregate(input)),
    list: (input, { session }) => session.call(endpoints.manifestsList(input)),
    lookup: (input, { session }) => session.call(endpoints.manifestsLookup(input)),
  },
  shell: {
    openExternal: async ({ url }, { openExternal }) => {
      if (!isAllowedExternalUrl(url))
        return failure('bad-request', 'Only https:// links can be opened outside the app.');
      await openExternal(url);
      return success(null);
    },
  },
};
