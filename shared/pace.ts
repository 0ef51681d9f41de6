/**
 * How fast long work goes and how long it has left, as every progress line tells it: data:import's terminal
 * line, the export panel, an offline pack's download. Measured over the last PACE_WINDOW_SECONDS, not since
 * the start, because each of them changes speed as it goes: into a served database the waste lines and
 * transporters read before their manifests are held at ~35,000 rows/s and the manifests that take them in
 * go at ~700 (bench:import's append), so the rate since the start told "18 s left" of what took 100 s more;
 * an export that waited for the user to sign in again, or a download through a network that hung for a
 * while, would carry that pause in its rate to the end.
 *
 * A pace is a value (each note gives a new one), so that a store can hold it as it holds the rest of its
 * state. Its samples count whatever the caller counts (rows, bytes, waste lines), read by `of`.
 */

/** How far back the rate looks: several batches or pages, so that one slow one does not swing it. */
export const PACE_WINDOW_SECONDS = 30;
/** The shortest span a rate is told from: the first moments of a part say nothing of its speed. */
const MIN_SECONDS = 0.5;

export interface Timed {
  /** Seconds on one clock, from any start. */
  seconds: number;
}

/** A sample of work that counts one thing done (rows, waste lines, profiles), as progress lines note. */
export interface Progress extends Timed {
  done: number;
}

/** Reads a Progress sample's count, for perSecond and secondsLeft. */
export const doneOf = (sample: Progress): number => sample.done;

export interface Pace<S extends Timed> {
  /** The sample the rate is measured from: the last one at least the window's length before the newest. */
  readonly anchor: S;
  /** The samples since the anchor, oldest first. */
  readonly recent: readonly S[];
}

/** A pace from where the work (or its part) starts. */
export function startPace<S extends Timed>(start: S): Pace<S> {
  return { anchor: start, recent: [] };
}

/** The pace with one more sample, samples older than the window before it let go. */
export function notePace<S extends Timed>(pace: Pace<S>, sample: S, window = PACE_WINDOW_SECONDS): Pace<S> {
  const recent = [...pace.recent, sample];
  let anchor = pace.anchor;
  let first = 0;
  for (; first < recent.length - 1; first += 1) {
    const next = recent[first] as S;
    if (next.seconds > sample.seconds - window) break;
    anchor = next;
  }
  return { anchor, recent: recent.slice(first) };
}

/**
 * What `of` counts per second over the window; `now` (on the samples' clock) counts the time since the
 * last sample too, so that work that stopped moving shows its rate falling. Undefined until half a second
 * has passed.
 */
export function perSecond<S extends Timed>(
  pace: Pace<S>,
  of: (sample: S) => number,
  now?: number,
): number | undefined {
  const last = pace.recent.at(-1) ?? pace.anchor;
  const seconds = Math.max(now ?? last.seconds, last.seconds) - pace.anchor.seconds;
  if (seconds < MIN_SECONDS) return undefined;
  return (of(last) - of(pace.anchor)) / seconds;
}

/** Seconds until `left` more of what `of` counts are done at the window's rate; undefined while none moves. */
export function secondsLeft<S extends Timed>(
  pace: Pace<S>,
  of: (sample: S) => number,
  left: number,
  now?: number,
): number | undefined {
  const rate = perSecond(pace, of, now);
  if (rate === undefined || rate <= 0) return undefined;
  return Math.max(0, left) / rate;
}
