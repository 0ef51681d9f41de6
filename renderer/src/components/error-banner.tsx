import type { Scope } from '../../../shared/api/index.ts';
import type { IpcError } from '../../../shared/ipc/contract.ts';
import { describeError } from '../../../shared/ipc/messages.ts';

/** What a failure's banner is given: the failure, what it stopped, and how to try again. */
export type FailureProps = {
  error: IpcError;
  /** What could not be loaded, as the sentence names it: "the generators", "this profile". */
  what: string;
  /** The permission this view needs, named when the server says it is missing. */
  scope?: Scope | undefined;
  /** Absent where there is nothing to try again (the user acts instead, as for an export). */
  onRetry?: (() => void) | undefined;
};

/**
 * One failure in the user's words (shared/ipc/messages.ts): what happened and what to do, the server's own
 * words behind "Details", and Retry only where a second try could answer.
 */
export function ErrorBanner({ error, what, scope, onRetry }: FailureProps) {
  const words = describeError(error, what, scope);
  return (
    <div role="alert" className="error-banner" data-kind={error.kind}>
      <div className="error-text">
        <p>{words.message}</p>
        {words.hint && <p className="error-hint">{words.hint}</p>}
        {words.details && (
          <details className="error-details">
            <summary>Details</summary>
            <p>{words.details}</p>
          </details>
        )}
      </div>
      {words.retry && onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
