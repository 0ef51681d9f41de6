/**
 * Lets work that met an expired session wait for the user to sign in again: an export that got a 401
 * midway goes on when the user signs in, and stops when they sign out instead.
 */
import type { EventPayload } from '../../../shared/ipc/contract.ts';

export interface SignInWaiters {
  /** Main's session event, as it is sent to the renderer. */
  sessionChanged(payload: EventPayload<'session.changed'>): void;
  /** True once signed in (at once if already), false on sign-out; rejects with the signal's reason. */
  wait(signedIn: () => boolean, signal: AbortSignal): Promise<boolean>;
}

export function createSignInWaiters(): SignInWaiters {
  const waiting = new Set<(signedIn: boolean) => void>();
  return {
    sessionChanged({ reason }) {
      if (reason === 'expired') return;
      for (const resume of [...waiting]) resume(reason === 'signed-in');
    },
    wait(signedIn, signal) {
      if (signedIn()) return Promise.resolve(true);
      return new Promise<boolean>((resolve, reject) => {
        const stop = () => {
          waiting.delete(resume);
          reject(signal.reason as Error);
        };
        const resume = (again: boolean) => {
          waiting.delete(resume);
          signal.removeEventListener('abort', stop);
          resolve(again);
        };
        if (signal.aborted) return stop();
        waiting.add(resume);
        signal.addEventListener('abort', stop, { once: true });
      });
    },
  };
}
