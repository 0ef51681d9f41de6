/**
 * A pack download's progress bar (rows done of total, rate, time left) with pause and resume, and, for the
 * refresh of a complete pack, cancel (which drops the new copy and keeps the old; a first download is
 * dropped with its pack's Delete). While the server keeps a request waiting (the app doubts it is reachable,
 * and finds out within seconds) the line says so instead of a rate and a time left that no longer hold.
 */
import { formatCount } from '../base/format.ts';
import type { PackRecord } from './database.ts';
import { isOffline, useConnectivity } from '../data/connectivity.ts';
import {
  cancelDownload,
  cannotDownload,
  pauseDownload,
  secondsLeft,
  startDownload,
  useDownloads,
  type LiveDownload,
} from './downloads.ts';
import { formatDuration } from './relative-time.ts';

/** What each part counts, in full after its count and short after its rate. */
const PART_WORDS = {
  rows: { count: 'rows', rate: 'rows' },
  generators: { count: 'generators', rate: 'generators' },
  details: { count: 'generator profiles', rate: 'profiles' },
} as const;

function describe(live: LiveDownload | undefined, pack: PackRecord, waiting: boolean): string {
  if (!live) return `${formatCount(pack.rowsDone)} of ${formatCount(pack.total)} rows stored`;
  if (live.part === 'indexes') return 'Every row stored · preparing offline search';
  const total = live.total === undefined ? '…' : formatCount(live.total);
  const words = [`${formatCount(live.done)} / ${total} ${PART_WORDS[live.part].count}`];
  if (live.running && waiting) return [...words, 'waiting for the server to answer'].join(' · ');
  if (live.running && live.rate)
    words.push(`${formatCount(Math.round(live.rate))} ${PART_WORDS[live.part].rate}/s`);
  const left = live.running ? secondsLeft(live) : undefined;
  if (left !== undefined) words.push(`${formatDuration(left)} left`);
  return words.join(' · ');
}

/**
 * One of Pause and Resume: Pause while it runs or waits to resume by itself (stopped by a lost connection,
 * or by closing the app), Resume once the user paused it or it stopped for a reason only the user can fix.
 * Offline, Resume says why it cannot download.
 */
export function PackProgress({ pack, cancel }: { pack: PackRecord; cancel?: string }) {
  const live = useDownloads((state) => state.live[pack.id]);
  // Read again whenever the app goes on or offline, for Resume's state.
  const offline = useConnectivity(isOffline);
  const refused = offline ? cannotDownload() : undefined;
  // A request has waited past the short wait: the count stands still until the server answers or the app
  // finds it out of reach (then the download stops and says why).
  const waiting = useConnectivity((state) => state.reach === 'doubtful');
  const isRunning = live?.running ?? false;
  // Cut short by a lost connection or by closing the app: it resumes by itself unless paused.
  const resumesItself = !isRunning && (pack.status === 'interrupted' || pack.status === 'downloading');
  const stopped = live?.stopped ?? pack.stopped;
  const max = live?.total ?? pack.total;
  const value = live?.done ?? pack.rowsDone;
  return (
    <div className="pack-progress">
      {live?.part === 'indexes' ? (
        // No count to show while the stored pack is indexed: the bar moves without a value.
        <progress aria-label={`Download of ${pack.title}`} />
      ) : (
        <progress
          aria-label={`Download of ${pack.title}`}
          max={max > 0 ? max : 1}
          value={max > 0 ? Math.min(value, max) : 0}
        />
      )}
      <span>{describe(live, pack, waiting)}</span>
      {!isRunning && stopped && <span role="alert">{stopped}</span>}
      {(isRunning || resumesItself) && (
        <button type="button" onClick={() => void pauseDownload(pack.id)}>
          Pause
        </button>
      )}
      {!isRunning && !resumesItself && (
        <button
          type="button"
          disabled={refused !== undefined}
          title={refused}
          onClick={() => void startDownload(pack.id)}
        >
          Resume
        </button>
      )}
      {cancel && (
        <button type="button" onClick={() => void cancelDownload(pack.id)}>
          {cancel}
        </button>
      )}
    </div>
  );
}
