import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration, relativeTime } from '../../../renderer/src/offline/relative-time.ts';

const NOW = Date.UTC(2026, 10, 23, 12);
const ago = (seconds: number) => NOW - seconds * 1000;

describe('how old saved data is, in words', () => {
  it.each([
    [0, 'just now'],
    [44, 'just now'],
    [60, '1 minute ago'],
    [5 * 60, '5 minutes ago'],
    [60 * 60, '1 hour ago'],
    [3 * 60 * 60 + 600, '3 hours ago'],
    [24 * 60 * 60, '1 day ago'],
    [9 * 24 * 60 * 60, '9 days ago'],
  ])('%i s ago is "%s"', (seconds, words) => {
    expect(relativeTime(ago(seconds), NOW)).toBe(words);
  });

  it('a fetch time after now (a clock moved back) is just now, never negative', () => {
    expect(relativeTime(NOW + 60_000, NOW)).toBe('just now');
  });

  it('sizes and times left read as people say them', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5.3 * 1024 * 1024)).toBe('5.3 MB');
    expect(formatBytes(300 * 1024 * 1024)).toBe('300 MB');
    expect(formatDuration(40.2)).toBe('41 s');
    expect(formatDuration(125)).toBe('2 min 5 s');
    expect(formatDuration(3 * 3600 + 120)).toBe('3 h 2 min');
  });
});
