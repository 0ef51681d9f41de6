/**
 * An import's pace as its progress line tells it: rows and bytes per second over the last
 * PACE_WINDOW_SECONDS, not since the start. A run's batches differ in cost: into a served database the
 * waste lines and transporters read before their manifests are held at ~35,000 rows/s, and the manifests
 * that take them in go at ~700 (bench:import's append), so the rate since the start told "18 s left" of
 * what took 100 s more. The rows a resumed run reads again to skip them leave the window with its first
 * 30 s; the files an earlier run finished are left out by the caller (PaceSample.bytes).
 */

/** How far back the rate looks: several batches, so that one slow commit does not swing it. */
const PACE_WINDOW_SECONDS = 30;

export interface PaceSample {
  /** Seconds since the run started. */
  seconds: number;
  /** Bytes of the files this run has read and written (files finished by an earlier run left out). */
  bytes: number;
  rows: number;
}

export interface Rate {
  rowsPerSecond: number;
  bytesPerSecond: number;
}

export class Pace {
  private readonly window: number;
  /** The sample the rate is measured from: the last one at least the window's length before the newest. */
  private anchor: PaceSample;
  /** The samples since the anchor, oldest first. */
  private readonly recent: PaceSample[] = [];

  constructor(start: PaceSample, window = PACE_WINDOW_SECONDS) {
    this.window = window;
    this.anchor = start;
  }

  note(sample: PaceSample): void {
    this.recent.push(sample);
    for (;;) {
      const next = this.recent[0];
      if (next === undefined || next === sample || next.seconds > sample.seconds - this.window) break;
      this.anchor = next;
      this.recent.shift();
    }
  }

  /** The rate over the window; undefined until time has passed since the first sample. */
  rate(): Rate | undefined {
    const last = this.recent.at(-1) ?? this.anchor;
    const seconds = last.seconds - this.anchor.seconds;
    if (seconds <= 0) return undefined;
    return {
      rowsPerSecond: (last.rows - this.anchor.rows) / seconds,
      bytesPerSecond: (last.bytes - this.anchor.bytes) / seconds,
    };
  }

  /** Seconds until `bytesLeft` more are done at the window's rate; undefined while there is no rate. */
  secondsLeft(bytesLeft: number): number | undefined {
    const rate = this.rate();
    if (!rate || rate.bytesPerSecond <= 0) return undefined;
    return Math.max(0, bytesLeft) / rate.bytesPerSecond;
  }
}
