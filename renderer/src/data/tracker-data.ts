/**
 * The data layer's front door: the only module besides ./pipeline.ts that calls window.tracker. Views ask
 * it for pages, boxes, lookups and details, each through the one pipeline (./pipeline.ts) with their own
 * AbortSignal, and for the session's actions.
 */
import type { Result, SessionStatus, SignInInput, TrackerApi } from '../../../shared/ipc/contract.ts';
import type {
  GeneratorFilterFields,
  GeneratorLookupField,
  ManifestFilterFields,
  ManifestLookupField,
} from '../../../shared/api/index.ts';
import type { Scope } from '../../../shared/api/index.ts';
import { request, type Answer, type DataOf } from './pipeline.ts';
import { scopeRefused } from './permissions.ts';
import { sessionChanged } from './session.ts';
import { serverReached, serverUnreachable } from './connectivity.ts';

export { ignoreAbort, isAbortError, type Answer } from './pipeline.ts';

/** Receives the network's answer after a saved one was given (stale-while-revalidate). */
export type Update<Data> = (answer: Answer<Data>, changed: boolean) => void;

export type GeneratorQuery = { filterFields: GeneratorFilterFields; searchKey: string };
export type ManifestQuery = { filterFields: ManifestFilterFields; searchKey: string };

/** One page of a list: 0-based page, `sort` as "field asc|desc", `selectedFields` comma-separated. */
export type PageRequest = { page: number; pageSize: number; sort?: string; selectedFields?: string };

/** Resolved lazily so tests can install a fake tracker before the first call. */
function tracker(): TrackerApi {
  return window.tracker;
}

/** Notes a 403 for a request that needs `scope`, so views stop offering what can only be refused. */
function noting<Data>(scope: Scope): (answer: Answer<Data>) => Answer<Data> {
  return (answer) => {
    if (!answer.ok && answer.error.kind === 'forbidden') scopeRefused(scope);
    return answer;
  };
}

export function generatorTotals(
  query: GeneratorQuery,
  signal?: AbortSignal,
  onUpdate?: Update<DataOf<'generators.aggregate'>>,
): Promise<Answer<DataOf<'generators.aggregate'>>> {
  return request('generators.aggregate', query, { signal, onUpdate }).then(noting('generators'));
}

export function generatorPage(
  query: GeneratorQuery,
  page: PageRequest,
  signal?: AbortSignal,
  onUpdate?: Update<DataOf<'generators.list'>>,
): Promise<Answer<DataOf<'generators.list'>>> {
  return request('generators.list', { ...query, pageInfo: page }, { signal, onUpdate }).then(
    noting('generators'),
  );
}

export function generatorLookup(
  field: GeneratorLookupField,
  search: string,
  page: number,
  signal?: AbortSignal,
  onUpdate?: Update<DataOf<'generators.lookup'>>,
): Promise<Answer<DataOf<'generators.lookup'>>> {
  return request('generators.lookup', { field, search, page }, { signal, onUpdate }).then(
    noting('generators'),
  );
}

export function generatorDetail(
  handlerId: string,
  signal?: AbortSignal,
  onUpdate?: Update<DataOf<'generators.detail'>>,
): Promise<Answer<DataOf<'generators.detail'>>> {
  return request('generators.detail', { handler_id: handlerId }, { signal, onUpdate });
}

export function manifestTotals(
  query: ManifestQuery,
  signal?: AbortSignal,
  onUpdate?: Update<DataOf<'manifests.aggregate'>>,
): Promise<Answer<DataOf<'manifests.aggregate'>>> {
  return request('manifests.aggregate', query, { signal, onUpdate }).then(noting('manifests'));
}

export function manifestPage(
  query: ManifestQuery,
  page: PageRequest,
  signal?: AbortSignal,
  onUpdate?: Update<DataOf<'manifests.list'>>,
): Promise<Answer<DataOf<'manifests.list'>>> {
  return request('manifests.list', { ...query, pageInfo: page }, { signal, onUpdate }).then(
    noting('manifests'),
  );
}

export function manifestLookup(
  field: ManifestLookupField,
  search: string,
  page: number,
  signal?: AbortSignal,
  onUpdate?: Update<DataOf<'manifests.lookup'>>,
): Promise<Answer<DataOf<'manifests.lookup'>>> {
  return request('manifests.lookup', { field, search, page }, { signal, onUpdate }).then(noting('manifests'));
}

/** Asks main to open an https: link in the user's browser; main refuses anything else. */
export function openExternal(url: string): Promise<Result<null>> {
  return tracker().shell.openExternal({ url });
}

/**
 * Signs in through main. When `signal` aborts (the user cancelled), main stops the request and the answer is
 * `cancelled`; an answer that still comes signs nobody in.
 */
export async function signIn(input: SignInInput, signal?: AbortSignal): Promise<Result<SessionStatus>> {
  const requestId = `sign-in-${crypto.randomUUID()}`;
  const cancel = () => {
    // A cancel that cannot reach main has nothing left to stop there.
    tracker()
      .requests.cancel({ id: requestId })
      .catch(() => undefined);
  };
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    const askedAt = performance.now();
    const answer = await tracker().session.signIn(input, { requestId });
    if (answer.ok && !signal?.aborted) {
      // Signed in on this computer alone: no server answered (or none was asked), so the saved data answers
      // until the probe finds it. Otherwise the server has just answered, whatever was found of it before.
      if (answer.data.offline) serverUnreachable(askedAt);
      else serverReached();
      sessionChanged(answer.data, 'signed-in');
    }
    return answer;
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/** Whether the session's server answers at all, within a few seconds (main's reachability probe). */
export async function probeServer(): Promise<boolean> {
  return (await tracker().session.probe()).ok;
}

export async function signOut(): Promise<Result<SessionStatus>> {
  const answer = await tracker().session.signOut();
  if (answer.ok) sessionChanged(answer.data, 'signed-out');
  return answer;
}

/** Signs out and has the user's data removed from this computer (main's event carries the removal). */
export async function signOutAndRemoveData(): Promise<Result<SessionStatus>> {
  const answer = await tracker().session.signOutAndRemoveData();
  if (answer.ok) sessionChanged(answer.data, 'signed-out');
  return answer;
}

/** Reads main's session once and then follows its events; returns the unsubscribe function. */
export function followSession(): () => void {
  void tracker()
    .session.status()
    .then((answer) => {
      if (!answer.ok) return;
      // Signed in on this computer alone (the window was reloaded): the server was out of reach, so the saved
      // data answers until the probe finds it, rather than the sign-in dialog showing until the probe fails.
      if (answer.data.offline) serverUnreachable();
      sessionChanged(answer.data);
    });
  return tracker().on('session.changed', (payload) =>
    sessionChanged(payload.status, payload.reason, payload.removeData === true),
  );
}
