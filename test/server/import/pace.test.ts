import { describe, expect, it } from 'vitest';
import { Pace } from '../../../server/src/import/pace.ts';

describe("an import's pace", () => {
  it('has no rate before time has passed', () => {
    const pace = new Pace({ seconds: 0, bytes: 0, rows: 0 });
    expect(pace.rate()).toBeUndefined();
    expect(pace.secondsLeft(100)).toBeUndefined();
  });

  it('tells the time left from the last window, not from the start', () => {
    // Held rows go in fast (10 MB in 10 s), then the manifests that take them slowly (1 MB in 40 s).
    const pace = new Pace({ seconds: 0, bytes: 0, rows: 0 }, 30);
    pace.note({ seconds: 10, bytes: 10_000_000, rows: 200_000 });
    expect(pace.secondsLeft(20_000_000)).toBeCloseTo(20);
    for (let second = 20; second <= 50; second += 10) {
      pace.note({
        seconds: second,
        bytes: 10_000_000 + (second - 10) * 25_000,
        rows: 200_000 + second * 100,
      });
    }
    // The rate since the start (11 MB in 50 s) would say 41 s for 9 MB; the last 30 s say 360 s.
    expect(pace.rate()).toEqual({ bytesPerSecond: 25_000, rowsPerSecond: 100 });
    expect(pace.secondsLeft(9_000_000)).toBeCloseTo(360);
  });

  it('measures over at least the window once the run is that long', () => {
    const pace = new Pace({ seconds: 0, bytes: 0, rows: 0 }, 30);
    pace.note({ seconds: 25, bytes: 2500, rows: 25 });
    pace.note({ seconds: 40, bytes: 2600, rows: 26 });
    // The sample at 25 s is within 30 s of the newest: the rate runs from the start, 2600 bytes in 40 s.
    expect(pace.rate()?.bytesPerSecond).toBeCloseTo(65);
    pace.note({ seconds: 60, bytes: 2800, rows: 28 });
    // Now from 25 s: 300 bytes in 35 s.
    expect(pace.rate()?.bytesPerSecond).toBeCloseTo(300 / 35);
  });

  it('says nothing is left when the bytes are all done, and no time while nothing moves', () => {
    const pace = new Pace({ seconds: 0, bytes: 0, rows: 0 }, 30);
    pace.note({ seconds: 5, bytes: 500, rows: 5 });
    expect(pace.secondsLeft(0)).toBe(0);
    pace.note({ seconds: 100, bytes: 500, rows: 5 });
    expect(pace.secondsLeft(10)).toBeUndefined();
  });
});
