/**
 * The renderer's view of main's session. A call that comes back `unauthorized` while the user was signed
 * in does not fail: it waits here until the user signs in again (the shell shows the sign-in dialog over
 * the current view) and is then retried, so grids, boxes and open details resume where they were. A caller
 * that stops wanting its answer while it waits is let go at once.
 */
import { create } from 'zustand';
import { sessionUser, type SessionStatus } from '../../../shared/ipc/contract.ts';
import { signedInToServer } from './connectivity.ts';

type SessionState = {
  /** null until main has answered the first status request. */
  status: SessionStatus | null;
  /**
   * The session ended under the user (401 or main's expiry event), or the user signed in on this computer
   * alone (status `offline`): the view stays on saved data, and a dialog asks to sign in once the server answers.
   */
  expired: boolean;
  /**
   * A user who signed out and asked for their data to be removed from this computer, until it has been
   * (renderer/src/remove-user-data.ts clears it).
   */
  removeDataOf: { baseUrl: string; username: string } | null;
};

export const useSession = create<SessionState>()(() => ({
  status: null,
  expired: false,
  removeDataOf: null,
}));

/** Calls waiting for the user to sign in again: true to retry, false when the user signed out instead. */
let waiting: ((retry: boolean) => void)[] = [];

function release(retry: boolean): void {
  const waiters = waiting;
  waiting = [];
  for (const resume of waiters) resume(retry);
}

/**
 * Main's answer or event about the session; the only writer of the session state. `removeData`: the user
 * who signed out asked for their data to be removed from this computer.
 */
export function sessionChanged(
  status: SessionStatus,
  reason?: 'signed-in' | 'signed-out' | 'expired',
  removeData = false,
): void {
  const { status: before, expired } = useSession.getState();
  const leaving = removeData ? sessionUser(before) : undefined;
  if (status.signedIn) {
    useSession.setState({ status, expired: false });
    release(true);
    if (expired) signedInToServer();
  } else if (status.offline) {
    useSession.setState({ status, expired: true });
  } else if (reason === 'expired' || (expired && reason !== 'signed-out')) {
    // Keep who was signed in, so the dialog can name them and the shell keeps the workspace mounted.
    useSession.setState({ status: before?.signedIn ? before : status, expired: true });
  } else {
    useSession.setState({ status, expired: false });
    release(false);
  }
  // Once signed out: whoever removes the data finds the database closed.
  if (leaving) useSession.setState({ removeDataOf: leaving });
}

/**
 * Called by the data layer on an `unauthorized` answer; resolves when the user has decided, or with false
 * as soon as `signal` aborts.
 */
export function waitForSignIn(signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted || !sessionUser(useSession.getState().status)) return Promise.resolve(false);
  if (!useSession.getState().expired) useSession.setState({ expired: true });
  return new Promise((resolve) => {
    const leave = () => {
      waiting = waiting.filter((waiter) => waiter !== resume);
      resolve(false);
    };
    const resume = (retry: boolean) => {
      signal?.removeEventListener('abort', leave);
      resolve(retry);
    };
    signal?.addEventListener('abort', leave, { once: true });
    waiting.push(resume);
  });
}
