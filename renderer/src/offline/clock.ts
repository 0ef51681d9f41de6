/**
 * One clock for every relative time on screen ("saved 2 minutes ago"): each label once kept a timer of its
 * own, started when it mounted, so the banner and a view could say "2 minutes" and "1 minute" of the same
 * moment. Every label now reads this one, which ticks while anything shows a time.
 */
import { useSyncExternalStore } from 'react';

/** Minutes are the finest unit shown; a tick this often keeps them true to within a quarter. */
const TICK_MS = 15_000;

const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    // The first to look after a pause: the time is read afresh, and React reads it again on subscribing.
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const tell of listeners) tell();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The shared time, epoch milliseconds; re-renders at each tick. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}
