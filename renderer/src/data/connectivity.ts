/**
 * Whether the app works offline, and why: the one owner of "is the server reachable". It is fed by every
 * request's outcome (the data pipeline reports each) and by a light probe (`session.probe`: a guarded lookup
 * without a token, answered by a working server in milliseconds, given up after 3 s), and read by the banner,
 * the pipeline, the downloads and the exports. docs/offline.md draws the state machine.
 *
 * - `online`: requests go to the server.
 * - `doubtful`: a request has waited past SLOW_MS. Saved data answers what it can at once (the pipeline),
 *   and a probe asks whether the server answers at all.
 * - `offline`: a request found no server (refused, or no answer within its timeout), or the probe found none.
 *   Requests are answered from saved data at once and the network is not asked; the probe asks again after
 *   1 s, then twice as long each time, up to 2 s while the window is shown (so the app is back online within
 *   a couple of seconds of the server answering, for the price of one small request every few seconds) and
 *   up to 30 s while it is hidden; and at once (at most every second) when the user asks for something, the
 *   window comes back into view or the system says the network is back.
 *
 * Any answer from the server (a refusal included) makes the app `online` again, and a failure counts only if
 * nothing answered since it was asked, so a late failure never undoes a newer answer. The user's "Work
 * offline" (kept across restarts) and the browser saying it has no network skip the network altogether, and
 * no probe runs while they do. Each time the app comes back online, `backOnline` moves on: views that show
 * saved data or a failure ask again, and so do those showing a server's answer from before the app went
 * offline (saved data too from then on, as their freshness label says).
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** How long a request waits for the server before saved data answers it (and a probe asks why). */
export const SLOW_MS = 1_500;
/** The probe's first wait after a failed probe, its longest while the window is shown, and while hidden. */
export const PROBE_FIRST_MS = 1_000;
export const PROBE_SHOWN_MAX_MS = 2_000;
export const PROBE_MAX_MS = 30_000;
/** Asking for something while offline probes at once, but not more often than this. */
const PROBE_AT_MOST_EVERY_MS = 1_000;

export type Reach = 'online' | 'doubtful' | 'offline';

type ConnectivityState = {
  /** The user chose "Work offline". */
  workOffline: boolean;
  /** navigator.onLine said false. */
  browserOffline: boolean;
  /** What the requests and the probe found of the server. */
  reach: Reach;
  /** Moves on each time the app comes back online, so views that showed saved data ask again. */
  backOnline: number;
  /** When (Date.now()) the app last went from online to offline; 0 if it has not since it started. */
  wentOffline: number;
  setWorkOffline: (workOffline: boolean) => void;
};

export function isOffline(state: Pick<ConnectivityState, 'workOffline' | 'browserOffline' | 'reach'>) {
  return state.workOffline || state.browserOffline || state.reach === 'offline';
}

/** Every change goes through here: coming back online moves `backOnline` on, going offline notes when. */
function update(change: Partial<Omit<ConnectivityState, 'setWorkOffline'>>): void {
  const before = useConnectivity.getState();
  const after = { ...before, ...change };
  const returned = isOffline(before) && !isOffline(after);
  const left = !isOffline(before) && isOffline(after);
  useConnectivity.setState({
    ...change,
    ...(returned ? { backOnline: before.backOnline + 1 } : {}),
    ...(left ? { wentOffline: Date.now() } : {}),
  });
  if (probing && (returned || !isOffline(after))) probing.delay = PROBE_FIRST_MS;
  if (!networkSkipped() && before.workOffline && !after.workOffline) probeSoon();
}

export const useConnectivity = create<ConnectivityState>()(
  persist(
    (): ConnectivityState => ({
      workOffline: false,
      browserOffline: typeof navigator !== 'undefined' && navigator.onLine === false,
      reach: 'online',
      backOnline: 0,
      wentOffline: 0,
      setWorkOffline: (workOffline) => update({ workOffline }),
    }),
    {
      name: 'waste-tracker.connectivity',
      version: 1,
      partialize: ({ workOffline }) => ({ workOffline }),
    },
  ),
);

/** Resolves with `value` once the app is offline (the server found out of reach, or the user's choice). */
export function whenOffline<Value>(value: Value): { promise: Promise<Value>; cancel: () => void } {
  let stop = () => {};
  const promise = new Promise<Value>((resolve) => {
    if (isOffline(useConnectivity.getState())) return resolve(value);
    stop = useConnectivity.subscribe((state) => {
      if (isOffline(state)) resolve(value);
    });
  });
  return { promise, cancel: () => stop() };
}

/** True when requests should not try the network at all: the user or the system said so. */
export function networkSkipped(): boolean {
  const { workOffline, browserOffline } = useConnectivity.getState();
  return workOffline || browserOffline;
}

/** True when the server was found out of reach: requests answer from saved data until a probe succeeds. */
export function serverOutOfReach(): boolean {
  return useConnectivity.getState().reach === 'offline';
}

/** The probe while the app follows the server's reach: how it asks main, the one in flight, the next one. */
interface Probing {
  ask: () => Promise<boolean>;
  inFlight: boolean;
  lastAt: number;
  delay: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}
let probing: Probing | undefined;

/** When the server last answered anything (performance.now()); a failure asked before it does not count. */
let answeredAt = -Infinity;

/** The server answered, if only to refuse: the app is online again. */
export function serverReached(): void {
  answeredAt = performance.now();
  if (probing) {
    clearTimeout(probing.timer);
    probing.timer = undefined;
  }
  if (useConnectivity.getState().reach !== 'online') update({ reach: 'online' });
}

/**
 * Something asked at `askedAt` (performance.now()) found no server: refused, or no answer in time. The app
 * is offline unless the server has answered anything since.
 */
export function serverUnreachable(askedAt: number = performance.now()): void {
  if (answeredAt > askedAt) return;
  if (useConnectivity.getState().reach !== 'offline') update({ reach: 'offline' });
  planProbe();
}

/** A request has waited SLOW_MS without an answer: the server may be out of reach; the probe asks. */
export function serverSlow(): void {
  if (useConnectivity.getState().reach === 'online') update({ reach: 'doubtful' });
  probeSoon();
}

function probe(): void {
  const mine = probing;
  if (!mine || mine.inFlight || networkSkipped()) return;
  clearTimeout(mine.timer);
  mine.timer = undefined;
  mine.inFlight = true;
  const askedAt = performance.now();
  mine.lastAt = askedAt;
  // A probe that outlives the following it belongs to (the app stopped following) reports nothing.
  const report = (reached: boolean) => {
    mine.inFlight = false;
    if (probing !== mine) return;
    if (reached) serverReached();
    else serverUnreachable(askedAt);
  };
  mine.ask().then(report, () => report(false));
}

/** The next probe after a failed one, a little later each time. */
function planProbe(): void {
  const mine = probing;
  if (!mine || mine.inFlight || mine.timer !== undefined || networkSkipped()) return;
  const longest = document.visibilityState === 'hidden' ? PROBE_MAX_MS : PROBE_SHOWN_MAX_MS;
  const delay = Math.min(mine.delay, longest);
  mine.delay = Math.min(delay * 2, PROBE_MAX_MS);
  mine.timer = setTimeout(() => {
    mine.timer = undefined;
    probe();
  }, delay);
}

/**
 * The user asked for something (or came back to the window) while the server is in doubt: probe now, unless
 * a probe ran within the last second, and start the waits between probes afresh.
 */
export function probeSoon(): void {
  if (useConnectivity.getState().reach === 'online' || !probing) return;
  probing.delay = PROBE_FIRST_MS;
  if (performance.now() - probing.lastAt >= PROBE_AT_MOST_EVERY_MS) probe();
  else planProbe();
}

/**
 * Probes the server with `ask` (true when it answered) from now on: once at once, so a dead server shows
 * as offline before any view asks, then as the state machine says; also follows the browser's network
 * events and the window coming back into view. Returns the function that stops it.
 */
export function followServerReach(ask: () => Promise<boolean>): () => void {
  const mine: Probing = { ask, inFlight: false, lastAt: -Infinity, delay: PROBE_FIRST_MS, timer: undefined };
  probing = mine;
  // What was heard before is not evidence against what the probes find from now on.
  answeredAt = -Infinity;
  probe();
  const browser = () => {
    update({ browserOffline: navigator.onLine === false });
    if (navigator.onLine !== false) probeSoon();
  };
  const shown = () => {
    if (document.visibilityState === 'visible') probeSoon();
  };
  window.addEventListener('online', browser);
  window.addEventListener('offline', browser);
  document.addEventListener('visibilitychange', shown);
  browser();
  return () => {
    window.removeEventListener('online', browser);
    window.removeEventListener('offline', browser);
    document.removeEventListener('visibilitychange', shown);
    clearTimeout(mine.timer);
    if (probing === mine) probing = undefined;
  };
}

/**
 * The user has signed in to the server after working with saved data alone (an expired session, or signed in
 * on this computer alone): views that show saved data ask again, as when the app comes back online.
 */
export function signedInToServer(): void {
  useConnectivity.setState((state) => ({ backOnline: state.backOnline + 1 }));
}

/**
 * For a view: asks again (`askAgain`) each time the app comes back online while `stale`, that is while the
 * view shows saved data or a failure, so nothing asked while offline stays unanswered by the server; or
 * while it shows a server's answer fetched (`fetchedAt`, Date.now()) before the app went offline, which
 * the offline time made saved data too. An answer that came after (the one that brought the app back) is
 * not asked for twice.
 */
export function useAskAgainWhenOnline(stale: boolean, askAgain: () => void, fetchedAt?: number): void {
  const backOnline = useConnectivity((state) => state.backOnline);
  const wentOffline = useConnectivity((state) => state.wentOffline);
  const latest = useRef(askAgain);
  useLayoutEffect(() => {
    latest.current = askAgain;
  });
  const seen = useRef(backOnline);
  useEffect(() => {
    if (backOnline === seen.current) return;
    seen.current = backOnline;
    if (stale || (fetchedAt !== undefined && fetchedAt <= wentOffline)) latest.current();
  }, [backOnline, stale, fetchedAt, wentOffline]);
}
