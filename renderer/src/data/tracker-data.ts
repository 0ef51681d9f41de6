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
import { request, type Answer, type DataOf } from './pipeline.ts';
import { sessionChanged } from './session.ts';

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

export function generatorTotals(
  query: GeneratorQuery,
  signal?: AbortSignal,
  onUpdate?: Update<DataOf<'generators.aggregate'>>,
): Promise<Answer<DataOf<'generators.aggregate'>>> {
  return request('generators.aggregate', query, { signal, onUpdate });
}

export function generatorPage(
  query: GeneratorQuery,
  page: PageRequest,
  signal?: AbortSignal,
  onUpdate?: Update<DataOf<'generators.list'>>,
): Promise<Answer<DataOf<'generators.list'>>> {
  return request('generators.list', { ...query, pageInfo: page }, { signal, onUpdate });
}

export function generatorLookup(
  field: GeneratorLookupField,
  search: string,
  page: number,
  signal?: AbortSignal,
  onUpdate?: Update<DataOf<'generators.lookup'>>,
): Promise<Answer<DataOf<'generators.lookup'>>> {
  return request('generators.lookup', { field, search, page }, { signal, onUpdate });
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
  return request('manifests.aggregate', query, { signal, onUpdate });
}

export function manifestPage(
  query: ManifestQuery,
  page: PageRequest,
  signal?: AbortSignal,
  onUpdate?: Update<DataOf<'manifests.list'>>,
): Promise<Answer<DataOf<'manifests.list'>>> {
  return request('manifests.list', { ...query, pageInfo: page }, { signal, onUpdate });
}

export function manifestLookup(
  field: ManifestLookupField,
  search: string,
  page: number,
  signal?: AbortSignal,
  onUpdate?: Update<DataOf<'manifests.lookup'>>,
): Promise<Answer<DataOf<'manifests.lookup'>>> {
  return request('manifests.lookup', { field, search, page }, { signal, onUpdate });
}

/** Asks main to open an https: link in the user's browser; main refuses anything else. */
export function openExternal(url: string): Promise<Result<null>> {
  return tracker().shell.openExternal({ url });
}

export async function signIn(input: SignInInput): Promise<Result<SessionStatus>> {
  const answer = await tracker().session.signIn(input);
  if (answer.ok) sessionChanged(answer.data, 'signed-in');
  return answer;
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
      if (answer.ok) sessionChanged(answer.data);
    });
  return tracker().on('session.changed', (payload) =>
    sessionChanged(payload.status, payload.reason, payload.removeData === true),
  );
}
