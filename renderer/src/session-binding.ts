/**
 * Ties the saved data to the session: the database of the signed-in server and user is opened as soon as
 * main says who is signed in (before any view asks for data), kept while a session has only expired, and,
 * when the user signs out or another signs in, let go of at once and closed once its downloads have
 * stopped and recorded that they were set aside; the UI state kept per
 * user (filters, sort, columns, place: ../state/user-storage.ts) follows the same way, and after a sign-out
 * the exports panel shows only the next user's exports. Downloads cut short
 * resume when their user's data opens and whenever the app comes back online. The connectivity's probe
 * starts here too, so a server out of reach shows before any view asks.
 */
import { sessionUser } from '../../shared/ipc/contract.ts';
import { useSession } from './data/session.ts';
import { probeServer } from './data/tracker-data.ts';
import { followServerReach, isOffline, useConnectivity } from './data/connectivity.ts';
import { interruptDownloads, resumeInterrupted, stopAllDownloads } from './offline/downloads.ts';
import { setStateOwner } from './state/user-storage.ts';
import { activateOfflineStore } from './offline/offline-store.ts';
import { sessionOwner, useExports } from './exports/export-store.ts';

function who(): { baseUrl: string; username: string } | null {
  return sessionUser(useSession.getState().status) ?? null;
}

/** Follows the session and the server's reach; returns the function that stops following. */
export function followSessionForOffline(): () => void {
  let last = JSON.stringify(who());
  const apply = () => {
    const next = who();
    const key = JSON.stringify(next);
    if (key === last) return;
    const afterSignOut = last === 'null';
    last = key;
    const stopping = stopAllDownloads();
    // After a sign-out the one who left read why their export stopped; whoever signs in next never sees
    // it. Over an expired session, the one at the keyboard signed in as someone else and reads why.
    const owner = sessionOwner();
    if (owner && afterSignOut) useExports.getState().signedIn(owner);
    setStateOwner(next);
    activateOfflineStore(next, { closeAfter: stopping });
    void resumeInterrupted();
  };
  setStateOwner(who());
  activateOfflineStore(who());
  void resumeInterrupted();
  const unsubscribe = useSession.subscribe(apply);
  const stopConnectivity = followServerReach(probeServer);
  // Downloads under way when the app goes offline stop at once and say why, rather than wait out each
  // request's timeout; they resume by themselves when it is back.
  const stopResuming = useConnectivity.subscribe((state, previous) => {
    if (isOffline(previous) && !isOffline(state)) void resumeInterrupted();
    if (!isOffline(previous) && isOffline(state)) {
      const cause = state.workOffline
        ? 'workOffline'
        : state.browserOffline
          ? 'browserOffline'
          : 'serverOutOfReach';
      void interruptDownloads(cause);
    }
  });
  return () => {
    unsubscribe();
    stopConnectivity();
    stopResuming();
  };
}
