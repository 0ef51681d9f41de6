/**
 * The tracker API client: one place that knows how to talk HTTP to the server. It adds the Bearer token,
 * bounds every call by the timeout from settings, retries what is safe to retry, cancels requests a newer
 * one made pointless, reads answers with shared/api's tolerant schemas, and turns every failure into one of
 * the contract's error values. It never throws.
 */
import type { z } from 'zod';
import { Problem, type Scope } from '../../../shared/api/index.ts';
import type { Result } from '../../../shared/ipc/contract.ts';
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
   * Requests with the same method and key supersede each other: a new one aborts the one in flight, which
   * then answers `cancelled`. Without a key a request is never cancelled by another.
   */
  supersedeKey?: string;
  /** The permission the endpoint needs, named in a 403 message when the server gives no detail. */
  scope?: Scope;
  /** Retry on network errors and 502/503/504; off for calls that must not repeat. Default on. */
  retry?: boolean;
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
  send<Schema extends z.ZodType>(
    request: ApiRequest<Schema>,
    target: ApiTarget,
  ): Promise<Result<z.output<Schema>>>;
}

const TIMED_OUT = { reason: 'timeout' } as const;
const SUPERSEDED = { reason: 'superseded' } as const;
const RETRYABLE_STATUSES = new Set([502, 503, 504]);

interface Attempt<Data> {
  result: Result<Data>;
  retryable: boolean;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const fetchImpl = options.fetch ?? fetch;
  const maxAttempts = options.maxAttempts ?? 3;
  const backoffBaseMs = options.backoffBaseMs ?? 200;
  const random = options.random ?? Math.random;
  const inFlight = new Map<string, AbortController>();

  async function send<Schema extends z.ZodType>(
    request: ApiRequest<Schema>,
    target: ApiTarget,
  ): Promise<Result<z.output<Schema>>> {
    let url: URL;
    try {
      url = endpointUrl(target.baseUrl, request.path, request.query);
    } catch {
      return failure('bad-request', 'The server address in the settings is not a valid URL.');
    }
    const context: FailureContext = {
      server: url.origin,
      ...(request.scope ? { scope: request.scope } : {}),
    };
    const timeoutMs = options.timeoutMs();
    const deadline = Date.now() + timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(TIMED_OUT), timeoutMs);
    const key = request.supersedeKey === undefined ? undefined : `${request.method} ${request.supersedeKey}`;
    if (key !== undefined) {
      inFlight.get(key)?.abort(SUPERSEDED);
      inFlight.set(key, controller);
    }
    try {
      const init = requestInit(request, target.token, controller.signal);
      for (let attempt = 0; ; attempt += 1) {
        const outcome = await attemptOnce(fetchImpl, url, init, request.response, context, timeoutMs);
        const lastAttempt = attempt + 1 >= maxAttempts || request.retry === false;
        if (!outcome.retryable || lastAttempt) return redacted(outcome.result, [target.token]);
        const delay = backoffBaseMs * 2 ** attempt * (0.5 + random());
        // A retry that could not finish before the deadline only turns a clear error into a timeout.
        if (Date.now() + delay >= deadline) return redacted(outcome.result, [target.token]);
        await pause(delay, controller.signal);
        if (controller.signal.aborted) return abortFailure(controller.signal, context, timeoutMs);
      }
    } finally {
      clearTimeout(timer);
      if (key !== undefined && inFlight.get(key) === controller) inFlight.delete(key);
    }
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
  const headers: Record<string, string> = { accept: 'application/json, application/problem+json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const init: RequestInit = { method: request.method, headers, signal, redirect: 'manual' };
  if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(request.body);
  }
  return init;
}

async function attemptOnce<Schema extends z.ZodType>(
  fetchImpl: typeof fetch,
  url: URL,
  init: RequestInit,
  schema: Schema,
  context: FailureContext,
  timeoutMs: number,
): Promise<Attempt<z.output<Schema>>> {
  let status: number;
  let headers: Headers;
  let text: string;
  try {
    const response = await fetchImpl(url, init);
    status = response.status;
    headers = response.headers;
    text = await response.text();
  } catch (error) {
    const signal = init.signal;
    if (signal?.aborted) return { result: abortFailure(signal, context, timeoutMs), retryable: false };
    return { result: networkFailure(error, context), retryable: true };
  }
  if (status >= 200 && status < 300) return { result: readBody(text, schema), retryable: false };
  if (status >= 300 && status < 400) {
    // Following a redirect could carry the token to another host; the user should fix the address instead.
    return { result: redirectFailure(headers.get('location'), url, context), retryable: false };
  }
  const problem = readProblem(text);
  const retryAfterSeconds = readRetryAfter(headers.get('retry-after'));
  return {
    result: httpFailure({ status, problem, retryAfterSeconds }, context),
    retryable: RETRYABLE_STATUSES.has(status),
  };
}

function readBody<Schema extends z.ZodType>(text: string, schema: Schema): Result<z.output<Schema>> {
  let value: unknown = null;
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      return failure('invalid-response', 'The server answered with something that is not JSON.');
    }
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return success(parsed.data);
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return failure(
    'invalid-response',
    `The server's answer does not match the tracker API${where}: ${issue?.message ?? 'unexpected shape'}.`,
  );
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
  return failure(
    'server',
    `The server at ${context.server} redirects${target}; put the address it redirects to in the settings.`,
  );
}

function abortFailure(signal: AbortSignal, context: FailureContext, timeoutMs: number) {
  if (signal.reason === SUPERSEDED) return failure('cancelled', 'A newer request replaced this one.');
  const limit = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
  return failure('timeout', `The server at ${context.server} did not answer within ${limit}.`);
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
