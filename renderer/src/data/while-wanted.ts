import type { Result } from '../../../shared/ipc/contract.ts';

/** Asks again after this many cancellations, then reports the cancellation like any other failure. */
const CANCELLED_RETRIES = 5;

/**
 * Runs an API call for a view that knows whether it still wants the answer. Main cancels a request when
 * another one for the same endpoint page starts: that may be this view's own newer request (then the old
 * answer is not wanted), or another reader of the same page (then it is asked again, a bounded number of
 * times so two readers cannot cancel each other forever). Null once the answer is no longer wanted.
 */
export async function whileWanted<T>(
  call: () => Promise<Result<T>>,
  wanted: () => boolean,
): Promise<Result<T> | null> {
  for (let attempt = 0; ; attempt += 1) {
    const answer = await call();
    if (!wanted()) return null;
    if (answer.ok || answer.error.kind !== 'cancelled' || attempt === CANCELLED_RETRIES) return answer;
  }
}
