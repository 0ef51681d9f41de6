/**
 * The data layer: the only module that calls window.tracker. Views ask it for pages, boxes and lookups;
 * a local cache can later wrap these functions without the views noticing.
 */
import type { Result, SessionStatus, SignInInput, TrackerApi } from '../../../shared/ipc/contract.ts';
import type {
  GeneratorFilterFields,
  GeneratorList,
  GeneratorLookupField,
  GeneratorTotals,
  LookupResult,
} from '../../../shared/api/index.ts';

export type GeneratorQuery = { filterFields: GeneratorFilterFields; searchKey: string };

/** Resolved lazily so tests can install a fake tracker before the first call. */
function tracker(): TrackerApi {
  return window.tracker;
}

export function generatorTotals(query: GeneratorQuery): Promise<Result<GeneratorTotals>> {
  return tracker().generators.aggregate(query);
}

export function generatorPage(
  query: GeneratorQuery,
  page: number,
  pageSize: number,
  sort?: string,
): Promise<Result<GeneratorList>> {
  return tracker().generators.list({ ...query, pageInfo: { page, pageSize, ...(sort ? { sort } : {}) } });
}

export function generatorLookup(
  field: GeneratorLookupField,
  search: string,
  page: number,
): Promise<Result<LookupResult>> {
  return tracker().generators.lookup({ field, search, page });
}

export function signIn(input: SignInInput): Promise<Result<SessionStatus>> {
  return tracker().session.signIn(input);
}

export function signOut(): Promise<Result<SessionStatus>> {
  return tracker().session.signOut();
}

export function sessionStatus(): Promise<Result<SessionStatus>> {
  return tracker().session.status();
}

/** Main announces sign-in, sign-out and expiry; the shell follows it so an expired session asks to sign in. */
export function onSessionChanged(listener: (status: SessionStatus) => void): () => void {
  return tracker().on('session.changed', (payload) => listener(payload.status));
}
