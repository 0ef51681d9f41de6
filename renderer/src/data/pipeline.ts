/**
 * The one way the renderer asks for tracker data: normalise the request to its canonical form → saved data
 * (./cache-hook.ts) → IPC under a request id of its own → on 401, wait for sign-in and ask again → an answer
 * that says where it came from (`network` or `cache`) and when it was fetched.
 *
 * Saved data, online: a caller that can take a later answer (`onUpdate`) gets a saved answer at once, and
 * the pipeline asks the network in the background and hands the caller the fresh answer
 * (stale-while-revalidate). Offline (the user's "Work offline", the browser offline, or the server not
 * reached): the answer comes from an offline pack or the page cache, or the error says what is missing.
 * Offline, no request waits for sign-in: that is asked for only once the server answers again.
 *
 * The caller owns the request: its AbortSignal cancels it in main too (`requests.cancel`), also while it
 * waits for sign-in, and the promise then rejects with an AbortError that views ignore (`ignoreAbort`).
 * A cancellation is never an answer, so "cancelled" never reaches the screen.
 */
import {
  canonicalRequest,
  requestKey,
  type TrackerRequestName,
  type TrackerRequests,
} from '../../../shared/query/canonical.ts';
import type {
  GeneratorDetails,
  GeneratorDetailsInput,
  Group,
  IpcError,
  MethodOf,
  OutputOf,
  RequestOptions,
  Result,
  TrackerApi,
} from '../../../shared/ipc/contract.ts';
import { MESSAGES } from '../../../shared/ipc/messages.ts';
import { noCache, type CachedAnswer, type CacheHook } from './cache-hook.ts';
import { waitForSignIn } from './session.ts';
import {
  isOffline,
  networkSkipped,
  useConnectivity,
  savedAnswerShown,
  serverReached,
  serverUnreachable,
} from '../offline/connectivity.ts';

type OutputOfName<Name extends TrackerRequestName> = Name extends `${infer G extends Group}.${infer M}`
  ? M extends MethodOf<G>
    ? OutputOf<G, M>
    : never
  : never;
/** What a successful request of this name holds. */
export type DataOf<Name extends TrackerRequestName> =
  OutputOfName<Name> extends Result<infer Data> ? Data : never;

export interface Provenance {
  source: 'network' | 'cache';
  /** Epoch milliseconds. */
  fetchedAt: number;
}
export type Answer<Data> = ({ ok: true; data: Data } & Provenance) | { ok: false; error: IpcError };

export interface RequestControl<Data = unknown> {
  /** Aborts the request here and in main. */
  signal?: AbortSignal | undefined;
  /**
   * The caller can show a later answer: a saved one is given at once, and the network's answer follows
   * here, with whether its data differs from what was given.
   */
  onUpdate?: ((answer: Answer<Data>, changed: boolean) => void) | undefined;
  /** false: neither read nor keep saved answers (a pack download stores its own pages). */
  cache?: boolean;
}

/**
 * A saved answer younger than this is given without asking the network again: long enough that a view
 * asking again for what just changed does not start another round, short enough that coming back to a
 * view asks the server.
 */
export const FRESH_MS = 2_000;

/** When the user last asked to refresh: answers saved before it are asked again, however young. */
let refreshedAt = 0;

/** The user asked for fresh data (Refresh, F5): every saved answer shown from now on is checked again. */
export function refreshSaved(): void {
  refreshedAt = Date.now();
}

let cache: CacheHook = noCache;

/** Installs the local cache the pipeline reads and writes. */
export function setCacheHook(hook: CacheHook): void {
  cache = hook;
}

/** Resolved lazily so tests can install a fake tracker before the first call. */
function tracker(): TrackerApi {
  return window.tracker;
}

// Ids are unique per page: a random prefix (the bridge's one table may serve several tabs) and a counter.
const idPrefix = crypto.randomUUID().replaceAll('-', '').slice(0, 16);
let requestCount = 0;

function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('The request was aborted.', 'AbortError');
}

/** True for the rejection of a request its caller aborted (by name: a DOMException may come from another realm). */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/** For a view's `.then(answer, ignoreAbort)`: an aborted request was not wanted; anything else is a bug. */
export function ignoreAbort(error: unknown): void {
  if (!isAbortError(error)) throw error;
}

/** A method seen generically: each data method takes its input and the request options. */
type Cancellable = (input: unknown, options: RequestOptions) => Promise<Result<unknown>>;

/** One IPC round trip under a fresh request id, cancelled in main when the signal aborts. */
function invoke(
  name: TrackerRequestName | 'generators.details',
  input: object,
  signal?: AbortSignal,
): Promise<Result<unknown>> {
  const [group, method] = name.split('.') as [keyof TrackerApi, string];
  const call = (tracker()[group] as unknown as Record<string, Cancellable>)[method]!;
  const requestId = `${idPrefix}-${(requestCount += 1)}`;
  return new Promise((resolve, reject) => {
    const cancel = () => {
      reject(abortError(signal));
      // A cancel that cannot reach main has nothing left to stop there.
      tracker()
        .requests.cancel({ id: requestId })
        .catch(() => undefined);
    };
    signal?.addEventListener('abort', cancel, { once: true });
    call(input, { requestId }).then(
      (answer) => {
        signal?.removeEventListener('abort', cancel);
        // Only this caller can cancel its request; should main still answer so, it is not an answer.
        if (!answer.ok && answer.error.kind === 'cancelled') reject(abortError(signal));
        else resolve(answer);
      },
      (error: unknown) => {
        signal?.removeEventListener('abort', cancel);
        resolve({
          ok: false,
          error: {
            kind: 'server',
            message: MESSAGES.mainUnreachable(error instanceof Error ? error.message : String(error)),
          },
        });
      },
    );
  });
}

/** The network or the server failed to answer at all. */
function outOfReach(error: IpcError): boolean {
  return error.kind === 'offline' || error.kind === 'timeout';
}

function offlineError(kind: 'offline' | 'timeout', said: string | undefined, missing: string): IpcError {
  return { kind, message: said ? `${said} ${missing}` : missing };
}

/** The answer saved data gives, or an error that says what is missing. */
async function fromSaved<Name extends TrackerRequestName>(
  name: Name,
  input: TrackerRequests[Name],
  key: string,
  failure: IpcError | undefined,
  signal?: AbortSignal,
): Promise<Answer<DataOf<Name>>> {
  const saved = await cache.offline(name, input, key).catch((error: unknown) => ({
    ok: false as const,
    missing: `The saved data could not be read: ${error instanceof Error ? error.message : String(error)}`,
  }));
  signal?.throwIfAborted();
  if (!saved.ok) {
    const kind = failure?.kind === 'timeout' ? 'timeout' : 'offline';
    return { ok: false, error: offlineError(kind, failure?.message, saved.missing) };
  }
  savedAnswerShown(saved.fetchedAt);
  // Saved under this request's key, so it is what the network answered to this request.
  return { ok: true, data: saved.data as DataOf<Name>, source: 'cache', fetchedAt: saved.fetchedAt };
}

/** Asks the network behind a saved answer and hands the caller the result; failures keep the saved one. */
function revalidate<Name extends TrackerRequestName>(
  name: Name,
  canonical: object,
  key: string,
  kept: CachedAnswer,
  onUpdate: (answer: Answer<DataOf<Name>>, changed: boolean) => void,
  signal?: AbortSignal,
): void {
  invoke(name, canonical, signal).then(async (answer) => {
    if (answer.ok) {
      serverReached();
      const fetchedAt = Date.now();
      // Written before the caller hears: a view that asks again on a change must find the new answer.
      await cache.write(key, { data: answer.data, fetchedAt }).catch(() => undefined);
      const changed = JSON.stringify(answer.data) !== JSON.stringify(kept.data);
      onUpdate({ ok: true, data: answer.data as DataOf<Name>, source: 'network', fetchedAt }, changed);
    } else if (outOfReach(answer.error)) {
      serverUnreachable();
      savedAnswerShown(kept.fetchedAt);
    } else serverReached();
    // Any other failure (a 401 included) shows on the next request the user makes; the saved answer stays.
  }, ignoreAbort);
}

/** Asks for tracker data through the pipeline; see the file's opening comment. */
export async function request<Name extends TrackerRequestName>(
  name: Name,
  input: TrackerRequests[Name],
  control: RequestControl<DataOf<Name>> = {},
): Promise<Answer<DataOf<Name>>> {
  const start = performance.now();
  const answer = await answerOf(name, input, control);
  // A user timing per answer ("tracker cache", "tracker network"), read by npm run bench:offline.
  performance.measure(`tracker ${answer.ok ? answer.source : 'failure'}`, { start, detail: name });
  return answer;
}

async function answerOf<Name extends TrackerRequestName>(
  name: Name,
  input: TrackerRequests[Name],
  { signal, onUpdate, cache: useCache = true }: RequestControl<DataOf<Name>>,
): Promise<Answer<DataOf<Name>>> {
  signal?.throwIfAborted();
  const canonical = canonicalRequest(name, input);
  const key = requestKey(name, input);
  if (useCache && networkSkipped()) return fromSaved(name, input, key, undefined, signal);
  if (useCache && onUpdate) {
    const kept = await cache.read(key).catch(() => undefined);
    signal?.throwIfAborted();
    if (kept) {
      if (isOffline(useConnectivity.getState())) savedAnswerShown(kept.fetchedAt);
      if (Date.now() - kept.fetchedAt >= FRESH_MS || kept.fetchedAt <= refreshedAt) {
        revalidate(name, canonical, key, kept, onUpdate, signal);
      }
      return { ok: true, data: kept.data as DataOf<Name>, source: 'cache', fetchedAt: kept.fetchedAt };
    }
  }
  for (;;) {
    const answer = await invoke(name, canonical, signal);
    if (answer.ok) {
      serverReached();
      const fetchedAt = Date.now();
      if (useCache) void cache.write(key, { data: answer.data, fetchedAt }).catch(() => undefined);
      // The contract's output schema for this name is what main answered with.
      return { ok: true, data: answer.data as DataOf<Name>, source: 'network', fetchedAt };
    }
    if (outOfReach(answer.error)) {
      serverUnreachable();
      return useCache ? fromSaved(name, input, key, answer.error, signal) : answer;
    }
    // The server answered, if only to refuse: the app is online, and a 401 may now ask for sign-in.
    serverReached();
    if (answer.error.kind !== 'unauthorized') return answer;
    const retry = await waitForSignIn(signal);
    signal?.throwIfAborted();
    if (!retry) return answer;
  }
}

/**
 * Many generator details in one round trip (a pack download's batch), never saved here: the pack stores
 * them. As `request` does, it notes whether the server was reached and, on 401, waits for sign-in and asks
 * again; the caller's signal cancels it in main too.
 */
export async function requestGeneratorDetails(
  input: GeneratorDetailsInput,
  signal?: AbortSignal,
): Promise<Result<GeneratorDetails>> {
  for (;;) {
    // Main answered with the contract's output for generators.details.
    const answer = (await invoke('generators.details', input, signal)) as Result<GeneratorDetails>;
    if (!answer.ok && outOfReach(answer.error)) {
      serverUnreachable();
      return answer;
    }
    serverReached();
    if (answer.ok || answer.error.kind !== 'unauthorized') return answer;
    const retry = await waitForSignIn(signal);
    signal?.throwIfAborted();
    if (!retry) return answer;
  }
}
