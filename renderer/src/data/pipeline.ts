/**
 * The one way the renderer asks for tracker data: normalise the request to its canonical form → saved data
 * (./cache-hook.ts) → IPC under a request id of its own → on 401, wait for sign-in and ask again → an answer
 * that says where it came from (`network` or `cache`) and when it was fetched.
 *
 * Saved data, online: a caller that can take a later answer (`onUpdate`) gets a saved answer at once, and
 * the pipeline asks the network in the background and hands the caller the fresh answer
 * (stale-while-revalidate). A request the server has not answered within SLOW_MS (a network that hangs) is
 * answered from an offline pack or a saved page if one holds it, labelled, and the network's answer follows
 * through `onUpdate`; with nothing saved it waits for the network until the app finds the server out of
 * reach. Offline (the user's "Work offline", the browser offline, or the server found out of reach): the
 * answer comes from an offline pack or the page cache at once, or the error says what is missing, and the
 * network is not asked (connectivity.ts probes for its return). Offline, no request waits for
 * sign-in: that is asked for only once the server answers again.
 *
 * Every round trip's outcome tells the connectivity whether the server answered.
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
import {
  outOfReach,
  type GeneratorDetails,
  type GeneratorDetailsInput,
  type Group,
  type IpcError,
  type MethodOf,
  type OutputOf,
  type RequestOptions,
  type Result,
  type TrackerApi,
} from '../../../shared/ipc/contract.ts';
import { MESSAGES } from '../../../shared/ipc/messages.ts';
import { noCache, type CachedAnswer, type CacheHook } from './cache-hook.ts';
import { waitForSignIn } from './session.ts';
import {
  SLOW_MS,
  networkSkipped,
  probeSoon,
  serverOutOfReach,
  serverReached,
  serverSlow,
  serverUnreachable,
  whenOffline,
} from './connectivity.ts';

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
  /** Saved data that holds only part of the answer: the slice it is from (an offline pack's title). */
  within?: string;
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

/**
 * One IPC round trip under a fresh request id, cancelled in main when the signal aborts. Its outcome tells
 * the connectivity whether the server answered, and one that waits past SLOW_MS has it ask why.
 */
function invoke(
  name: TrackerRequestName | 'generators.details',
  input: object,
  signal?: AbortSignal,
): Promise<Result<unknown>> {
  const [group, method] = name.split('.') as [keyof TrackerApi, string];
  const call = (tracker()[group] as unknown as Record<string, Cancellable>)[method]!;
  const requestId = `${idPrefix}-${(requestCount += 1)}`;
  const askedAt = performance.now();
  const slow = setTimeout(serverSlow, SLOW_MS);
  return new Promise((resolve, reject) => {
    const cancel = () => {
      clearTimeout(slow);
      reject(abortError(signal));
      // A cancel that cannot reach main has nothing left to stop there.
      tracker()
        .requests.cancel({ id: requestId })
        .catch(() => undefined);
    };
    signal?.addEventListener('abort', cancel, { once: true });
    call(input, { requestId }).then(
      (answer) => {
        clearTimeout(slow);
        signal?.removeEventListener('abort', cancel);
        // Only this caller can cancel its request; should main still answer so, it is not an answer.
        if (!answer.ok && answer.error.kind === 'cancelled') return reject(abortError(signal));
        // The server answered, if only to refuse: the app is online, and a 401 may now ask for sign-in.
        // Main's own "sign in" (no HTTP status: it had no live token, so nothing was sent) says nothing of it.
        const unsent =
          !answer.ok && answer.error.kind === 'unauthorized' && answer.error.status === undefined;
        if (answer.ok || (!unsent && !outOfReach(answer.error))) serverReached();
        else if (!unsent) serverUnreachable(askedAt);
        resolve(answer);
      },
      (error: unknown) => {
        clearTimeout(slow);
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
  // Saved under this request's key (or answered by a pack exactly as the server would, or within its slice,
  // as `within` says), so it is what the network answered to this request.
  const { data, fetchedAt, within } = saved;
  return { ok: true, data: data as DataOf<Name>, source: 'cache', fetchedAt, ...(within ? { within } : {}) };
}

/** A network answer as the caller gets it, and the write that keeps it (done before a later answer is told). */
type NetworkAnswer<Data> = { answer: Answer<Data>; kept: Promise<void> };

/**
 * The network's answer: asked again after sign-in on a 401; a server out of reach answers from saved data
 * (when `useCache`) or with its error.
 */
async function fromNetwork<Name extends TrackerRequestName>(
  name: Name,
  input: TrackerRequests[Name],
  key: string,
  useCache: boolean,
  signal?: AbortSignal,
): Promise<NetworkAnswer<DataOf<Name>>> {
  const canonical = canonicalRequest(name, input);
  for (;;) {
    const answer = await invoke(name, canonical, signal);
    if (answer.ok) {
      const fetchedAt = Date.now();
      const kept = useCache
        ? cache.write(key, { data: answer.data, fetchedAt }).catch(() => undefined)
        : done;
      // The contract's output schema for this name is what main answered with.
      return { answer: { ok: true, data: answer.data as DataOf<Name>, source: 'network', fetchedAt }, kept };
    }
    if (outOfReach(answer.error)) {
      return {
        answer: useCache ? await fromSaved(name, input, key, answer.error, signal) : answer,
        kept: done,
      };
    }
    if (answer.error.kind !== 'unauthorized') return { answer, kept: done };
    const retry = await waitForSignIn(signal);
    signal?.throwIfAborted();
    if (!retry) return { answer, kept: done };
  }
}

const done = Promise.resolve();

/** Whether two answers' data differ. */
function differs(before: unknown, after: unknown): boolean {
  return JSON.stringify(before) !== JSON.stringify(after);
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
      const fetchedAt = Date.now();
      // Written before the caller hears: a view that asks again on a change must find the new answer.
      await cache.write(key, { data: answer.data, fetchedAt }).catch(() => undefined);
      const fresh = { ok: true as const, data: answer.data as DataOf<Name>, source: 'network' as const };
      onUpdate({ ...fresh, fetchedAt }, differs(kept.data, answer.data));
    }
    // A failure (a 401 included) shows on the next request the user makes; the saved answer stays.
  }, ignoreAbort);
}

/** Resolves with `value` after `ms`; `cancel` stops the timer. */
function after<Value>(ms: number, value: Value): { promise: Promise<Value>; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<Value>((resolve) => {
    timer = setTimeout(() => resolve(value), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

const SLOW = Symbol('slow');
const OUT_OF_REACH = Symbol('out of reach');

/**
 * The network's answer, or, when it has not come within SLOW_MS, a saved answer (a pack or a saved page)
 * with the network's following through `onUpdate`; with nothing saved, the network's answer unless the app
 * finds the server out of reach first. A request given up on so goes on: its answer is saved when it comes.
 */
async function withinReach<Name extends TrackerRequestName>(
  network: Promise<NetworkAnswer<DataOf<Name>>>,
  request: { name: Name; input: TrackerRequests[Name]; key: string },
  onUpdate: ((answer: Answer<DataOf<Name>>, changed: boolean) => void) | undefined,
  signal?: AbortSignal,
): Promise<Answer<DataOf<Name>>> {
  const { name, input, key } = request;
  const slow = after(SLOW_MS, SLOW);
  const first = await Promise.race([network, slow.promise]).finally(slow.cancel);
  if (first !== SLOW) return first.answer;
  // Whichever comes first: saved data (a pack may take a moment to open) or the network after all.
  const fromDisk = fromSaved(name, input, key, undefined, signal);
  fromDisk.catch(ignoreAbort);
  const next = await Promise.race([network, fromDisk.then((saved) => ({ saved }))]);
  if (!('saved' in next)) return next.answer;
  const { saved } = next;
  if (saved.ok) {
    network.then(async ({ answer, kept }) => {
      if (!answer.ok || answer.source !== 'network' || signal?.aborted) return;
      await kept;
      onUpdate?.(answer, differs(saved.data, answer.data));
    }, ignoreAbort);
    return saved;
  }
  const offline = whenOffline(OUT_OF_REACH);
  const last = await Promise.race([network, offline.promise]).finally(offline.cancel);
  if (last !== OUT_OF_REACH) return last.answer;
  network.catch(ignoreAbort);
  return saved;
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
  const key = requestKey(name, input);
  if (useCache && (networkSkipped() || serverOutOfReach())) {
    // The user asked for something: a server that may be back is asked at once.
    probeSoon();
    return fromSaved(name, input, key, undefined, signal);
  }
  if (useCache && onUpdate) {
    const kept = await cache.read(key).catch(() => undefined);
    signal?.throwIfAborted();
    if (kept) {
      const fresh = Date.now() - kept.fetchedAt < FRESH_MS && kept.fetchedAt > refreshedAt;
      if (!fresh) revalidate(name, canonicalRequest(name, input), key, kept, onUpdate, signal);
      // A fresh one is the server's answer of a moment ago, asked for again (the grid asks again for a page
      // its revalidation found changed): as current as the network's, and labelled so, not "Saved".
      return {
        ok: true,
        data: kept.data as DataOf<Name>,
        source: fresh ? 'network' : 'cache',
        fetchedAt: kept.fetchedAt,
      };
    }
  }
  const network = fromNetwork(name, input, key, useCache, signal);
  if (!useCache) return (await network).answer;
  cache.prepare(name, input);
  return withinReach(network, { name, input, key }, onUpdate, signal);
}

/**
 * Many generator details in one round trip (a pack download's batch), never saved here: the pack stores
 * them. As `request` does, it tells the connectivity whether the server was reached and, on 401, waits for
 * sign-in and asks again; the caller's signal cancels it in main too.
 */
export async function requestGeneratorDetails(
  input: GeneratorDetailsInput,
  signal?: AbortSignal,
): Promise<Result<GeneratorDetails>> {
  for (;;) {
    // Main answered with the contract's output for generators.details.
    const answer = (await invoke('generators.details', input, signal)) as Result<GeneratorDetails>;
    if (answer.ok || answer.error.kind !== 'unauthorized') return answer;
    const retry = await waitForSignIn(signal);
    signal?.throwIfAborted();
    if (!retry) return answer;
  }
}
