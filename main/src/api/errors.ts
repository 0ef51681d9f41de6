/**
 * Every way a call can fail, as the typed error values of the IPC contract. The wording is in
 * shared/ipc/messages.ts with the rest of what the user reads; here are the decisions of which applies.
 */
import type { Problem, Scope } from '../../../shared/api/index.ts';
import type { ErrorKind, IpcError, Result } from '../../../shared/ipc/contract.ts';
import { MESSAGES } from '../../../shared/ipc/messages.ts';

export type Failure = { ok: false; error: IpcError };

export function success<Data>(data: Data): { ok: true; data: Data } {
  return { ok: true, data };
}

export function failure(kind: ErrorKind, message: string, status?: number): Failure {
  return { ok: false, error: status === undefined ? { kind, message } : { kind, message, status } };
}

/** What the API answered when it did not answer 2xx: the status, its problem body if any, and Retry-After. */
export interface HttpFailure {
  status: number;
  problem: Problem | undefined;
  retryAfterSeconds: number | undefined;
}

/** How to name the request in a message when the server did not explain itself. */
export interface FailureContext {
  /** The origin of the server, e.g. http://127.0.0.1:4010; never a full URL with a query. */
  server: string;
  /** The permission the endpoint needs, to name in a 403 without a problem detail. */
  scope?: Scope;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** The problem's detail; its title is only the status's reason phrase, which the fallbacks say better. */
function problemText(problem: Problem | undefined): string | undefined {
  const detail = problem?.detail?.trim();
  return detail ? sentence(detail) : undefined;
}

export function httpFailure(
  { status, problem, retryAfterSeconds }: HttpFailure,
  context: FailureContext,
): Failure {
  const said = problemText(problem);
  if (status === 400) return failure('bad-request', said ?? MESSAGES.badRequest, status);
  if (status === 401) return failure('unauthorized', said ?? MESSAGES.signInRefused, status);
  if (status === 403) {
    // The reference server's detail names the missing scope; another server may say nothing.
    const message = said ? MESSAGES.notAllowed(said) : MESSAGES.lacksPermission(context.scope);
    return failure('forbidden', message, status);
  }
  if (status === 404) return failure('not-found', said ?? MESSAGES.noSuchRecord, status);
  if (status === 429) {
    return failure('rate-limited', said ?? MESSAGES.tooManyAttempts(retryAfterSeconds), status);
  }
  if (status >= 500) return failure('server', MESSAGES.serverProblem(context.server, status, said), status);
  return failure('bad-request', said ?? MESSAGES.refused(status), status);
}

/** Network-level failures carry a system error code on `cause` (undici's fetch wraps them in a TypeError). */
export function networkFailure(error: unknown, context: FailureContext): Failure {
  const code = errorCode(error);
  if (code === 'ECONNREFUSED') return failure('offline', MESSAGES.nothingAnswers(context.server));
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return failure('offline', MESSAGES.cannotFind(context.server));
  }
  return failure('offline', MESSAGES.connectionFailed(context.server, code));
}

function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    if (typeof current !== 'object') return undefined;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Replaces every occurrence of a secret in a failure's message; results of success pass unchanged. */
export function redacted<Data>(result: Result<Data>, secrets: readonly (string | undefined)[]): Result<Data> {
  if (result.ok) return result;
  let message = result.error.message;
  for (const secret of secrets) {
    if (secret) message = message.replaceAll(secret, '[token hidden]');
  }
  return message === result.error.message ? result : { ok: false, error: { ...result.error, message } };
}
