import { describe, expect, it } from 'vitest';
import { notePace, perSecond, secondsLeft, startPace, type Pace } from '../../shared/pace.ts';

interface Sample {
  seconds: number;
  bytes: number;
  rows: number;
}

const bytes = (sample: Sample) => sample.bytes;
const rows = (sample: Sample) => sample.rows;

function paced(samples: Sample[], window = 30): Pace<Sample> {
  let pace = startPace<Sample>({ seconds: 0, bytes: 0, rows: 0 });
  for (const sample of samples) pace = notePace(pace, sample, window);
  return pace;
}

describe('the pace of long work', () => {
  it('has no rate before half a second has passed', () => {
    expect(perSecond(paced([]), bytes)).toBeUndefined();
    expect(secondsLeft(paced([]), bytes, 100)).toBeUndefined();
    expect(perSecond(paced([{ seconds: 0.2, bytes: 5000, rows: 50 }]), bytes)).toBeUndefined();
    expect(perSecond(paced([{ seconds: 0.5, bytes: 5000, rows: 50 }]), bytes)).toBe(10_000);
  });

  it('tells the time left from the last window, not from the start', () => {
    // Held rows go in fast (10 MB in 10 s), then the manifests that take them slowly (1 MB in 40 s).
    const fast = paced([{ seconds: 10, bytes: 10_000_000, rows: 200_000 }]);
    expect(secondsLeft(fast, bytes, 20_000_000)).toBeCloseTo(20);
    const samples = [{ seconds: 10, bytes: 10_000_000, rows: 200_000 }];
    for (let second = 20; second <= 50; second += 10) {
      samples.push({
        seconds: second,
        bytes: 10_000_000 + (second - 10) * 25_000,
        rows: 200_000 + second * 100,
      });
    }
    const slow = paced(samples);
    // The rate since the start (11 MB in 50 s) would say 41 s for 9 MB; the last 30 s say 360 s.
    expect(perSecond(slow, bytes)).toBe(25_000);
    expect(perSecond(slow, rows)).toBe(100);
    expect(secondsLeft(slow, bytes, 9_000_000)).toBeCloseTo(360);
  });

  it('measures over at least the window once the work is that long', () => {
    const early = paced([
      { seconds: 25, bytes: 2500, rows: 25 },
      { seconds: 40, bytes: 2600, rows: 26 },
    ]);
    // The sample at 25 s is within 30 s of the newest: the rate runs from the start, 2600 bytes in 40 s.
    expect(perSecond(early, bytes)).toBeCloseTo(65);
    const later = notePace(early, { seconds: 60, bytes: 2800, rows: 28 });
    // Now from 25 s: 300 bytes in 35 s.
    expect(perSecond(later, bytes)).toBeCloseTo(300 / 35);
    expect(later.recent.map((sample) => sample.seconds)).toEqual([40, 60]);
  });

  it('leaves the pace it was given as it was', () => {
    const before = paced([{ seconds: 10, bytes: 100, rows: 1 }]);
    notePace(before, { seconds: 50, bytes: 900, rows: 9 });
    expect(before).toEqual({
      anchor: { seconds: 0, bytes: 0, rows: 0 },
      recent: [{ seconds: 10, bytes: 100, rows: 1 }],
    });
  });

  it('shows the rate falling while nothing moves, counted to now', () => {
    const pace = paced([{ seconds: 10, bytes: 1000, rows: 10 }]);
    expect(perSecond(pace, bytes, 10)).toBe(100);
    // A network that hangs for 10 s: 1000 bytes in 20 s, and twice the time left.
    expect(perSecond(pace, bytes, 20)).toBe(50);
    expect(secondsLeft(pace, bytes, 1000, 20)).toBe(20);
    // A clock read before the last sample does not count backwards.
    expect(perSecond(pace, bytes, 5)).toBe(100);
  });

  it('says nothing is left when all is done, and no time while nothing has moved', () => {
    const moving = paced([{ seconds: 5, bytes: 500, rows: 5 }]);
    expect(secondsLeft(moving, bytes, 0)).toBe(0);
    const stopped = notePace(moving, { seconds: 100, bytes: 500, rows: 5 });
    expect(secondsLeft(stopped, bytes, 10)).toBeUndefined();
  });
});
