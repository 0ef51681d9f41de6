/**
 * The data layer: the only module that calls window.tracker. Views ask it for pages, boxes, lookups and
 * details; a local cache can later wrap these functions without the views noticing. Every API call that
 * meets an expired session waits for the user to sign in again and is retried (./session.ts).
 */
import type { Result, SessionStatus, SignInInput, TrackerApi } from '../../../shared/ipc/contract.ts';
import type {
  GeneratorDetail,
  GeneratorFilterFields,
  GeneratorList,
  GeneratorLookupField,
  GeneratorTotals,
  LookupResult,
  ManifestFilterFields,
  ManifestList,
  ManifestLookupField,
  ManifestTotals,
} from '../../../shared/api/index.ts';
import { sessionChanged, waitForSignIn } from './session.ts';

export type GeneratorQuery = { filterFields: GeneratorFilterFields; searchKey: string };
export type ManifestQuery = { filterFields: ManifestFilterFields; searchKey: string };

/** One page of a list: 0-based page, `sort` as "field asc|desc", `selectedFields` comma-separated. */
export type PageRequest = { page: number; pageSize: number; sort?: string; selectedFields?: string };

/** Resolved lazily so tests can install a fake tracker before the first call. */
function tracker(): TrackerApi {
  return window.tracker;
}

/** Runs an API call; an expired session parks it until the user signs in again, then runs it once more. */
async function api<T>(call: () => Promise<Result<T>>): Promise<Result<T>> {
  for (;;) {
    const answer = await call();
    if (answer.ok || answer.error.kind !== 'unauthorized') return answer;
    if (!(await waitForSignIn())) return answer;
  }
}

function pageInfo({ page, pageSize, sort, selectedFields }: PageRequest) {
  return { page, pageSize, ...(sort ? { sort } : {}), ...(selectedFields ? { selectedFields } : {}) };
}

export function generatorTotals(query: GeneratorQuery): Promise<Result<GeneratorTotals>> {
  return api(() => tracker().generators.aggregate(query));
}

export function generatorPage(query: GeneratorQuery, request: PageRequest): Promise<Result<GeneratorList>> {
  return api(() => tracker().generators.list({ ...query, pageInfo: pageInfo(request) }));
}

export function generatorLookup(
  field: GeneratorLookupField,
  search: string,
  page: number,
): Promise<Result<LookupResult>> {
  return api(() => tracker().generators.lookup({ field, search, page }));
}

export function generatorDetail(handlerId: string): Promise<Result<GeneratorDetail>> {
  return api(() => tracker().generators.detail({ handler_id: handlerId }));
}

export function manifestTotals(query: ManifestQuery): Promise<Result<ManifestTotals>> {
  return api(() => tracker().manifests.aggregate(query));
}

export function manifestPage(query: ManifestQuery, request: PageRequest): Promise<Result<ManifestList>> {
  return api(() => tracker().manifests.list({ ...query, pageInfo: pageInfo(request) }));
}

export function manifestLookup(
  field: ManifestLookupField,
  search: string,
  page: number,
): Promise<Result<LookupResult>> {
  return api(() => tracker().manifests.lookup({ field, search, page }));
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

/** Reads main's session once and then follows its events; returns the unsubscribe function. */
export function followSession(): () => void {
  void tracker()
    .session.status()
    .then((answer) => {
      if (answer.ok) sessionChanged(answer.data);
    });
  return tracker().on('session.changed', (payload) => sessionChanged(payload.status, payload.reason));
}
