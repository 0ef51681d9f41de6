import type { Scope } from '../../../shared/api/index.ts';
import type { IpcError } from '../../../shared/ipc/contract.ts';
import { describeError } from '../../../shared/ipc/messages.ts';

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
      {/* Offline, the message says what is missing from the saved data and how to get it. */}
      {(error.kind === 'offline' || error.kind === 'timeout') && (
        <span className="error-detail">{error.message}</span>
      )}
      {error.kind !== 'forbidden' && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
