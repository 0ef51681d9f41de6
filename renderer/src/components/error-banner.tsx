import type { Scope } from '../../../shared/api/index.ts';
import type { IpcError } from '../../../shared/ipc/contract.ts';

/** What each kind of failure means to the user; the server's own words follow where they add something. */
export function describeError(error: IpcError, what: string, scope?: Scope): string {
  switch (error.kind) {
    case 'offline':
      return `The server could not be reached, so ${what} could not be loaded. Check the connection and retry.`;
    case 'timeout':
      return `The server took too long to answer, so ${what} could not be loaded. Retry in a moment.`;
    case 'forbidden':
      return scope
        ? `Your account does not have the “${scope}” permission needed to view ${what}. Ask your administrator to grant it.`
        : `Your account does not have permission to view ${what}. ${error.message}`;
    case 'unauthorized':
      return `You are signed out, so ${what} could not be loaded. Sign in again.`;
    case 'not-found':
      return `${what} could not be found. ${error.message}`;
    case 'bad-request':
      return `The server refused this request for ${what}: ${error.message}`;
    case 'invalid-response':
      return `The server's answer for ${what} could not be read: ${error.message}`;
    case 'server':
      return `The server failed while loading ${what}: ${error.message}`;
    case 'rate-limited':
      return error.message;
    case 'cancelled':
      return `Loading ${what} was cancelled by a newer request.`;
  }
}

/** One failure, in words, with a way to try again (a missing permission cannot be retried away). */
export function ErrorBanner({
  error,
  what,
  scope,
  onRetry,
}: {
  error: IpcError;
  what: string;
  /** The permission this view needs, named when the server says it is missing. */
  scope?: Scope;
  onRetry: () => void;
}) {
  return (
    <div role="alert" className="error-banner" data-kind={error.kind}>
      <span>{describeError(error, what, scope)}</span>
      {error.kind !== 'forbidden' && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
