/**
 * Ties the saved data to the session: the database of the signed-in server and user is opened as soon as
 * main says who is signed in (before any view asks for data), kept while a session has only expired, and
 * closed, with its downloads stopped, when the user signs out or another signs in. Downloads cut short
 * resume when their user's data opens and whenever the app comes back online.
 */
import { useSession } from '../data/session.ts';
import { followBrowserConnectivity, isOffline, useConnectivity } from './connectivity.ts';
import { resumeInterrupted, stopAllDownloads } from './downloads.ts';
import { activateOfflineStore } from './offline-store.ts';

function who(): { baseUrl: string; username: string } | null {
  const { status } = useSession.getState();
  return status?.signedIn && status.username ? { baseUrl: status.baseUrl, username: status.username } : null;
}

/** Follows the session and the browser's connectivity; returns the function that stops following. */
export function followSessionForOffline(): () => void {
  let last = JSON.stringify(who());
  const apply = () => {
    const next = who();
    const key = JSON.stringify(next);
    if (key === last) return;
    last = key;
    void stopAllDownloads();
    activateOfflineStore(next);
    void resumeInterrupted();
  };
  activateOfflineStore(who());
  void resumeInterrupted();
  const unsubscribe = useSession.subscribe(apply);
  const stopConnectivity = followBrowserConnectivity();
  const stopResuming = useConnectivity.subscribe((state, previous) => {
    if (isOffline(previous) && !isOffline(state)) void resumeInterrupted();
  });
  return () => {
    unsubscribe();
    stopConnectivity();
    stopResuming();
  };
}
