/**
 * What main does when the window's page dies or hangs: reload it, so the user lands where they were (the
 * renderer restores filters, sort, scroll and the open profile from its own storage). A page that keeps
 * dying would reload forever, so after a few recoveries in a short time it is left alone and logged.
 * Plain functions of the event; main/src/electron/recovery.ts only applies the decision.
 */

/** Why the page's process ended, as Electron's render-process-gone reports it. */
export type GoneReason =
  | 'clean-exit'
  | 'abnormal-exit'
  | 'killed'
  | 'crashed'
  | 'oom'
  | 'launch-failed'
  | 'integrity-failure'
  | 'memory-eviction';

export type PageTrouble = { kind: 'gone'; reason: GoneReason } | { kind: 'unresponsive' };

export type Recovery =
  /** Load the page again in a new process. */
  | { action: 'reload'; log: string }
  /** The process still runs but hangs: end it first, then reload (Electron's documented way out). */
  | { action: 'end-and-reload'; log: string }
  | { action: 'leave'; log: string };

export interface RecoveryOptions {
  /** Recoveries allowed within `periodMs` before giving up; default 3. */
  limit?: number;
  /** default one minute */
  periodMs?: number;
  now?: () => number;
}

export function createRecoveryPolicy(options: RecoveryOptions = {}): (trouble: PageTrouble) => Recovery {
  const limit = options.limit ?? 3;
  const periodMs = options.periodMs ?? 60_000;
  const now = options.now ?? Date.now;
  const recent: number[] = [];
  // Ending a hung page makes Electron report its process gone; that report is the recovery's own doing.
  let endingHungPage = false;

  return (trouble) => {
    const what =
      trouble.kind === 'gone'
        ? `The app page's process ended (${trouble.reason})`
        : 'The app page stopped responding';
    // A clean exit is the window closing or navigating away, not a failure.
    if (trouble.kind === 'gone' && trouble.reason === 'clean-exit') return { action: 'leave', log: '' };
    if (trouble.kind === 'gone' && endingHungPage) {
      endingHungPage = false;
      return { action: 'leave', log: '' };
    }
    const at = now();
    while (recent.length > 0 && at - recent[0]! > periodMs) recent.shift();
    if (recent.length >= limit) {
      return {
        action: 'leave',
        log: `${what} again, after ${limit} reloads within ${Math.round(periodMs / 1000)} s; not reloading it.`,
      };
    }
    recent.push(at);
    if (trouble.kind === 'gone') return { action: 'reload', log: `${what}; reloading the page.` };
    endingHungPage = true;
    return { action: 'end-and-reload', log: `${what}; ending it and reloading the page.` };
  };
}
