/**
 * A view's freshness label: "Up to date" for an answer the server just gave, "Saved 5 minutes ago" for one
 * from this machine's saved data (the page cache or an offline pack), so a view never passes saved data
 * off as current. While the app is offline the server's answers still on screen are saved data too (the
 * server can no longer vouch for them): they say when they were fetched, as saved ones do, and the Offline
 * banner above them does not sit over an "Up to date" of an hour ago. The labels of saved data on screen
 * are also what the Offline banner tells the age of: the oldest of them, by the same clock (./clock.ts), so
 * the banner and the views agree.
 */
import { createContext, useContext, useEffect, useId } from 'react';
import { create } from 'zustand';
import { isOffline, useConnectivity } from '../data/connectivity.ts';
import type { Provenance } from '../data/pipeline.ts';
import { formatTimestamp } from '../base/format.ts';
import { useNow } from './clock.ts';
import { relativeTime } from './relative-time.ts';

/** False inside a view kept mounted but not shown (a workspace under a profile, or another workspace). */
export const ViewShown = createContext(true);

/** The fetch times of the saved data each label on screen shows, by label. */
const useShownSaved = create<{ shown: Readonly<Record<string, number>> }>()(() => ({ shown: {} }));

/** The oldest saved data on screen, when any is: the age the Offline banner tells. */
export function useOldestShownSaved(): number | null {
  return useShownSaved((state) => {
    const times = Object.values(state.shown);
    return times.length === 0 ? null : Math.min(...times);
  });
}

export function Freshness({ provenance, what }: { provenance: Provenance | null; what: string }) {
  const now = useNow();
  const id = useId();
  const shown = useContext(ViewShown);
  const offline = useConnectivity(isOffline);
  const saved = provenance !== null && (provenance.source === 'cache' || offline);
  const savedAt = provenance && saved && shown ? provenance.fetchedAt : null;
  useEffect(() => {
    if (savedAt === null) return undefined;
    useShownSaved.setState((state) => ({ shown: { ...state.shown, [id]: savedAt } }));
    return () =>
      useShownSaved.setState((state) => {
        const rest = { ...state.shown };
        delete rest[id];
        return { shown: rest };
      });
  }, [id, savedAt]);
  if (!provenance) return null;
  return (
    <span
      className={saved ? 'freshness saved' : 'freshness'}
      role="note"
      aria-label={`Freshness of the ${what}`}
      title={formatTimestamp(provenance.fetchedAt)}
    >
      {saved ? `Saved ${relativeTime(provenance.fetchedAt, now)}` : 'Up to date'}
    </span>
  );
}
