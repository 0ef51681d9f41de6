/**
 * Whether the app works offline, and why: the user's "Work offline" switch (kept across restarts), the
 * browser saying it has no network, or the server not answering the last request. The data pipeline writes
 * the last of these and reads the first two (they skip the network altogether); the banner reads them all.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

type ConnectivityState = {
  /** The user chose "Work offline". */
  workOffline: boolean;
  /** navigator.onLine said false. */
  browserOffline: boolean;
  /** The last request could not reach the server (network error or timeout). */
  unreachable: boolean;
  /** The oldest fetch time among the saved answers shown since the app went offline. */
  savedAt: number | null;
  setWorkOffline: (workOffline: boolean) => void;
};

export const useConnectivity = create<ConnectivityState>()(
  persist(
    (set) => ({
      workOffline: false,
      browserOffline: typeof navigator !== 'undefined' && navigator.onLine === false,
      unreachable: false,
      savedAt: null,
      setWorkOffline: (workOffline) => set({ workOffline, ...(workOffline ? {} : { savedAt: null }) }),
    }),
    {
      name: 'waste-tracker.connectivity',
      version: 1,
      partialize: ({ workOffline }) => ({ workOffline }),
    },
  ),
);

export function isOffline(state: Pick<ConnectivityState, 'workOffline' | 'browserOffline' | 'unreachable'>) {
  return state.workOffline || state.browserOffline || state.unreachable;
}

/** True when requests should not try the network at all. */
export function networkSkipped(): boolean {
  const { workOffline, browserOffline } = useConnectivity.getState();
  return workOffline || browserOffline;
}

/** The server answered: the app is online again (unless the user chose otherwise). */
export function serverReached(): void {
  const state = useConnectivity.getState();
  if (state.unreachable)
    useConnectivity.setState({ unreachable: false, savedAt: state.workOffline ? state.savedAt : null });
}

export function serverUnreachable(): void {
  if (!useConnectivity.getState().unreachable) useConnectivity.setState({ unreachable: true });
}

/** A saved answer fetched at `fetchedAt` is on screen because the app is offline. */
export function savedAnswerShown(fetchedAt: number): void {
  const { savedAt } = useConnectivity.getState();
  if (savedAt === null || fetchedAt < savedAt) useConnectivity.setState({ savedAt: fetchedAt });
}

/** Follows the browser's online and offline events; returns the function that stops following. */
export function followBrowserConnectivity(): () => void {
  const update = () => useConnectivity.setState({ browserOffline: navigator.onLine === false });
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
  update();
  return () => {
    window.removeEventListener('online', update);
    window.removeEventListener('offline', update);
  };
}
