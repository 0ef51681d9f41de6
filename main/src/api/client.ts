/**
 * The tracker API client: one place that knows how to talk HTTP to the server. It adds the Bearer token,
 * bounds every call by the timeout from settings, retries what is safe to retry, stops a request when its
 * caller's signal aborts, shares one fetch between identical requests in flight, reads answers with
 * shared/api's tolerant schemas, and turns every failure into one of the contract's error values. It never
 * throws.
 */
import type { z } from 'zod';
import { LIMITS, Problem, type Scope } from '../../../shared/api/index.ts';
import type { Result } from '../../../shared/ipc/contract.ts';
import { MESSAGES } from '../../../shared/ipc/messages.ts';
import { AnswerTooLarge, discardAnswer, readAnswer } from './answer-limit.ts';
import { failure, httpFailure, networkFailure, redacted, success, type FailureContext } from './errors.ts';

export interface ApiRequest<Schema extends z.ZodType> {
  method: 'GET' | 'POST';
  /** Path below the base URL, trailing slash exactly as the API spells it. */
  path: string;
  query?: Readonly<Record<string, string>>;
  body?: unknown;
  /** Schema of the 2xx body; an empty body (204) is read as null. */
  response: Schema;
  /**
   * Requests with the same key (and method, server and token) get the same answer, so callers that ask while
   * one is in flight share its fetch. Only the canonical request key (shared/query/canonical.ts) is fit for
   * this; a request without a key is never shared.
   */
  shareKey?: string;
  /** The permission the endpoint needs, named in a 403 message when the server gives no detail. */
  scope?: Scope;
  /** Retry on network errors and 502/503/504; off for calls that must not repeat. Default on. */
  retry?: boolean;
  /**
   * How a 2xx body reaches `response`: parsed as JSON (the default), or as its bytes, unread, for a caller
   * that reads it elsewhere (an export reads its pages in its writer's thread, keeping main's heap small).
   */
  read?: 'json' | 'bytes';
  /**
   * Bytes of a 2xx body read at most (LIMITS.answerBytesMax); past it the call fails as too large and is not
   * retried. Default: the limit for small answers.
   */
  limitBytes?: number;
  /** A bound of its own instead of the settings' request timeout (a reachability probe is short). */
  timeoutMs?: number;
}

export interface ApiTarget {
  baseUrl: string;
  token?: string;
}

export interface ApiClientOptions {
  /** Read on every call, so a changed setting applies to the next request. */
  timeoutMs: () => number;
  fetch?: typeof fetch;
  maxAttempts?: number;
  backoffBaseMs?: number;
  /** In [0, 1); the jitter source, replaceable so tests are deterministic. */
  random?: () => number;
}

export interface ApiClient {
  /**
   * Sends a request. When `signal` aborts, the caller gets a `cancelled` failure at once and the fetch stops,
   * unless other callers still share it.
   */
  send<Schema extends z.ZodType>(
    request: ApiRequest<Schema>,
    target: ApiTarget,
    signal?: AbortSignal,
  ): Promise<Result<z.output<Schema>>>;
}

const TIMED_OUT = { reason: 'timeout' } as const;
const CANCELLED = { reason: 'cancelled' } as const;
const RETRYABLE_STATUSES = new Set([502, 503, 504]);

interface Attempt<Data> {
  result: Result<Data>;
  retryable: boolean;
}

/** One fetch in flight and the callers waiting for it; it stops only when every caller has left. */
interface Flight {
  controller: AbortController;
  callers: number;
  answer: Promise<Result<unknown>>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const fetchImpl = options.fetch ?? fetch;
  const maxAttempts = options.maxAttempts ?? 3;
  const backoffBaseMs = options.backoffBaseMs ?? 200;
  const random = options.random ?? Math.random;
  const flights = new Map<string, Flight>();

  async function run<Schema extends z.ZodType>(
    request: ApiRequest<Schema>,
    target: ApiTarget,
    cancel: AbortSignal | undefined,
  ): Promise<Result<z.output<Schema>>> {
    let url: URL;
    try {
      url = endpointUrl(target.baseUrl, request.path, request.query);
    } catch {
      return failure('bad-request', MESSAGES.invalidServerAddress);
    }
    const context: FailureContext = {
      server: url.origin,
      ...(request.scope ? { scope: request.scope } : {}),
    };
    const timeoutMs = request.timeoutMs ?? options.timeoutMs();
    const deadline = Date.now() + timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(TIMED_OUT), timeoutMs);
    const cancelled = () => controller.abort(CANCELLED);
    if (cancel?.aborted) cancelled();
    cancel?.addEventListener('abort', cancelled);
    try {
      const init = requestInit(request, target.token, controller.signal);
      for (let attempt = 0; ; attempt += 1) {
        if (controller.signal.aborted) return abortFailure(controller.signal, context, timeoutMs);
        const outcome = await attemptOnce(fetchImpl, url, init, request, context, timeoutMs);
        const lastAttempt = attempt + 1 >= maxAttempts || request.retry === false;
        if (!outcome.retryable || lastAttempt) return redacted(outcome.result, [target.token]);
        const delay = backoffBaseMs * 2 ** attempt * (0.5 + random());
        // A retry that could not finish before the deadline only turns a clear error into a timeout.
        if (Date.now() + delay >= deadline) return redacted(outcome.result, [target.token]);
        await pause(delay, controller.signal);
      }
    } finally {
      clearTimeout(timer);
      cancel?.removeEventListener('abort', cancelled);
    }
  }

  function send<Schema extends z.ZodType>(
    request: ApiRequest<Schema>,
    target: ApiTarget,
    signal?: AbortSignal,
  ): Promise<Result<z.output<Schema>>> {
    if (request.shareKey === undefined) return run(request, target, signal);
    if (signal?.aborted) return Promise.resolve(failure('cancelled', MESSAGES.cancelled));
    // The token is part of the key: an answer fetched with one user's token is never handed to another.
    const key = JSON.stringify([request.method, target.baseUrl, target.token ?? '', request.shareKey]);
    let flight = flights.get(key);
    if (!flight) {
      const controller = new AbortController();
      const started: Flight = {
        controller,
        callers: 0,
        answer: run(request, target, controller.signal).finally(() => {
          if (flights.get(key) === started) flights.delete(key);
        }),
      };
      flights.set(key, started);
      flight = started;
    }
    const shared = flight;
    shared.callers += 1;
    return new Promise((resolve) => {
      let settled = false;
      const leave = () => {
        if (settled) return;
        settled = true;
        shared.callers -= 1;
        if (shared.callers === 0) {
          // Nobody is left to read the answer: stop the fetch, and let the next caller start afresh.
          if (flights.get(key) === shared) flights.delete(key);
          shared.controller.abort(CANCELLED);
        }
        resolve(failure('cancelled', MESSAGES.cancelled));
      };
      signal?.addEventListener('abort', leave, { once: true });
      void shared.answer.then((answer) => {
        signal?.removeEventListener('abort', leave);
        if (settled) return;
        settled = true;
        shared.callers -= 1;
        // Every caller asked with the same schema: the key holds the request name.
        resolve(answer as Result<z.output<Schema>>);
      });
    });
  }

  return { send };
}

function endpointUrl(baseUrl: string, path: string, query: ApiRequest<z.ZodType>['query']): URL {
  const url = new URL(baseUrl.trim().replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
  return url;
}

function requestInit(
  request: ApiRequest<z.ZodType>,
  token: string | undefined,
  signal: AbortSignal,
): RequestInit {
  // Spec 4.0 rule 1: every request carries Content-Type: application/json, a GET without a body included.
  const headers: Record<string, string> = {
    accept: 'application/json, application/problem+json',
    'content-type': 'application/json',
  };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const init: RequestInit = { method: request.method, headers, signal, redirect: 'manual' };
  if (request.body !== undefined) init.body = JSON.stringify(request.body);
  return init;
}

async function attemptOnce<Schema extends z.ZodType>(
  fetchImpl: typeof fetch,
  url: URL,
  init: RequestInit,
  { response: schema, read, limitBytes = LIMITS.answerBytesMax.small }: ApiRequest<Schema>,
  context: FailureContext,
  timeoutMs: number,
): Promise<Attempt<z.output<Schema>>> {
  let status: number;
  let headers: Headers;
  let body: Uint8Array | undefined;
  try {
    const response = await fetchImpl(url, init);
    status = response.status;
    headers = response.headers;
    if (status >= 300 && status < 400) discardAnswer(response);
    else {
      // An error's problem body is small; one that is not is read no further and its detail dropped.
      const ok = status >= 200 && status < 300;
      body = await readAnswer(response, ok ? limitBytes : LIMITS.answerBytesMax.small).catch(
        (error: unknown) => {
          if (ok || !(error instanceof AnswerTooLarge)) throw error;
          return undefined;
        },
      );
    }
  } catch (error) {
    const signal = init.signal;
    if (signal?.aborted) return { result: abortFailure(signal, context, timeoutMs), retryable: false };
    // Asking again would only read as much again.
    if (error instanceof AnswerTooLarge) {
      return {
        result: failure('invalid-response', MESSAGES.answerTooLarge(context.server, error.limitBytes)),
        retryable: false,
      };
    }
    return { result: networkFailure(error, context), retryable: true };
  }
  if (status >= 200 && status < 300) {
    const bytes = body ?? new Uint8Array(0);
    const result = read === 'bytes' ? readParsed(bytes, schema) : readBody(decode(bytes), schema);
    return { result, retryable: false };
  }
  if (status >= 300 && status < 400) {
    // Following a redirect could carry the token to another host; the user should fix the address instead.
    return { result: redirectFailure(headers.get('location'), url, context), retryable: false };
  }
  const problem = body === undefined ? undefined : readProblem(decode(body));
  const retryAfterSeconds = readRetryAfter(headers.get('retry-after'));
  return {
    result: httpFailure({ status, problem, retryAfterSeconds }, context),
    retryable: RETRYABLE_STATUSES.has(status),
  };
}

/** UTF-8 as Response.text() reads it: a byte-order mark dropped, a bad sequence replaced. */
function decode(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** A 2xx body read as JSON and checked by its schema; exported for the thread that reads export pages. */
export function readBody<Schema extends z.ZodType>(text: string, schema: Schema): Result<z.output<Schema>> {
  let value: unknown = null;
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      return failure('invalid-response', MESSAGES.notJson);
    }
  }
  return readParsed(value, schema);
}

function readParsed<Schema extends z.ZodType>(value: unknown, schema: Schema): Result<z.output<Schema>> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return success(parsed.data);
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return failure('invalid-response', MESSAGES.unexpectedShape(where, issue?.message));
}

function readProblem(text: string): Problem | undefined {
  try {
    const parsed = Problem.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 10.2.3). */
function readRetryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function redirectFailure(location: string | null, url: URL, context: FailureContext) {
  let target = '';
  try {
    if (location) target = ` to ${new URL(location, url).origin}`;
  } catch {
    target = '';
  }
  return failure('server', MESSAGES.redirects(context.server, target));
}

function abortFailure(signal: AbortSignal, context: FailureContext, timeoutMs: number) {
  if (signal.reason === CANCELLED) return failure('cancelled', MESSAGES.cancelled);
  return failure('timeout', MESSAGES.timedOut(context.server, timeoutMs));
}

/** Resolves after `ms`, or at once when the signal aborts (the caller checks which). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
