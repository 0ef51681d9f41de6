/**
 * The exports the user started in this window: what each is, how far it got, and how it ended. Main owns
 * the work; this store only mirrors its events for the progress panel. The view on screen also registers
 * here what "Export" means for it, so the menu's File → Export… and Ctrl+E export what the user sees.
 */
import { create } from 'zustand';
import { sessionUser } from '../../../shared/ipc/contract.ts';
import type { ExportGridInput } from '../../../shared/ipc/exports.ts';
import {
  doneOf,
  notePace,
  perSecond,
  secondsLeft,
  startPace,
  type Pace,
  type Progress,
} from '../../../shared/pace.ts';
import type { ExportEvent } from '../data/exports.ts';
import { SLOW_MS, serverSlow } from '../data/connectivity.ts';
import { useSession } from '../data/session.ts';

export type ExportState = 'running' | 'waiting' | 'done' | 'failed';

const clock = () => Date.now() / 1000;

export interface ExportEntry {
  id: string;
  /** "Manifests to Excel" */
  title: string;
  state: ExportState;
  rowsWritten: number;
  total: number;
  /** Once every row is written: the Waste lines sheet's progress. */
  wasteLines?: { written: number; total: number };
  /** The pace of its phase (rows, then waste lines written), from its progress events (shared/pace.ts). */
  pace: Pace<Progress>;
  fileName?: string;
  message?: string;
  /** The failure was a lost connection to the server. */
  networkLost?: boolean;
  /** The grid's query, for an export from the server: what an offline copy would have to cover. */
  grid?: ExportGridInput;
  /** Who started it (sessionOwner), so another user who signs in next never sees it. */
  owner: string | null;
}

/** The signed-in server and user (online or on this computer alone), as one key; null when nobody is. */
export function sessionOwner(status = useSession.getState().status): string | null {
  const user = sessionUser(status);
  return user ? JSON.stringify([user.baseUrl, user.username]) : null;
}

type ExportsState = {
  entries: ExportEntry[];
  /** The visible view's export, if it has one. */
  current: (() => void) | undefined;
  started: (id: string, title: string, grid?: ExportGridInput) => void;
  apply: (event: ExportEvent) => void;
  dismiss: (id: string) => void;
  /**
   * Someone signed in after a sign-out: exports another user or server started leave the panel (main
   * stopped them at sign-out, and the one who signed out read why on the sign-in screen).
   */
  signedIn: (owner: string) => void;
  setCurrent: (action: (() => void) | undefined) => void;
};

/**
 * Events for exports this window has not recorded yet: main may report progress, or even the end of a
 * small export, before the answer to "start" arrives. They are applied when it does.
 */
const early = new Map<string, ExportEvent[]>();
/** Exports the user dismissed: their late events (a cancelled export's end) are not kept for later. */
const dismissed = new Set<string>();

export const useExports = create<ExportsState>()((set, get) => ({
  entries: [],
  current: undefined,
  started: (id, title, grid) => {
    set((state) => ({
      entries: [
        ...state.entries.filter((entry) => entry.id !== id),
        {
          id,
          title,
          state: 'running',
          rowsWritten: 0,
          total: 0,
          pace: startPace({ seconds: clock(), done: 0 }),
          ...(grid ? { grid } : {}),
          owner: sessionOwner(),
        },
      ],
    }));
    const waiting = early.get(id) ?? [];
    early.delete(id);
    for (const event of waiting) get().apply(event);
    // Main pages the server for it; one that has not heard of a first page by now may be on a network that
    // hangs, which the connectivity's probe finds out (and the panel then offers an offline copy).
    if (grid)
      setTimeout(() => {
        const entry = get().entries.find((one) => one.id === id);
        if (entry?.state === 'running' && entry.total === 0) serverSlow();
      }, SLOW_MS);
  },
  apply: (event) => {
    if (dismissed.has(event.payload.id)) return;
    if (!get().entries.some((entry) => entry.id === event.payload.id)) {
      early.set(event.payload.id, [...(early.get(event.payload.id) ?? []), event]);
      return;
    }
    set((state) => ({
      entries: state.entries.map((entry) => {
        if (entry.id !== event.payload.id) return entry;
        switch (event.kind) {
          case 'progress': {
            const lines = event.payload.wasteLines;
            const sample = { seconds: clock(), done: lines ? lines.written : event.payload.rowsWritten };
            return {
              ...entry,
              state: event.payload.waiting ? 'waiting' : 'running',
              rowsWritten: event.payload.rowsWritten,
              total: event.payload.total,
              ...(lines ? { wasteLines: { written: lines.written, total: lines.total } } : {}),
              // The waste lines' phase has a pace of its own, from where it starts.
              pace: lines && !entry.wasteLines ? startPace(sample) : notePace(entry.pace, sample),
            };
          }
          case 'done':
            return {
              ...entry,
              state: 'done',
              rowsWritten: event.payload.rows,
              total: event.payload.rows,
              fileName: event.payload.fileName,
            };
          case 'failed':
            return {
              ...entry,
              state: 'failed',
              message: event.payload.message,
              ...(event.payload.cause === 'network' ? { networkLost: true } : {}),
            };
        }
      }),
    }));
  },
  dismiss: (id) => {
    dismissed.add(id);
    set((state) => ({ entries: state.entries.filter((entry) => entry.id !== id) }));
  },
  signedIn: (owner) => set((state) => ({ entries: state.entries.filter((entry) => entry.owner === owner) })),
  setCurrent: (current) => set({ current }),
}));

/**
 * Rows (or, in their phase, waste lines) per second over the last half minute, counted to `now` (ms), and the
 * seconds left at that rate; undefined while there is no rate to tell.
 */
export function pace(entry: ExportEntry, now: number): { rate: number; secondsLeft: number } | undefined {
  const { written, total } = entry.wasteLines ?? { written: entry.rowsWritten, total: entry.total };
  const rate = perSecond(entry.pace, doneOf, now / 1000);
  const left = secondsLeft(entry.pace, doneOf, total - written, now / 1000);
  if (rate === undefined || left === undefined) return undefined;
  return { rate, secondsLeft: left };
}
