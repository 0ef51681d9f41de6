/**
 * What data:import says while it runs, on a terminal and in a log: the time left names what it measures (the
 * reading), and each step of the finish says how long it took once it ends, so the minutes after the last
 * row are never silent.
 */
import { describe, expect, it } from 'vitest';
import { importProgress } from '../../../server/src/cli/import-progress.ts';
import type { ImportEvent } from '../../../server/src/import/run.ts';
import { FINISHING } from '../../../server/src/import/run.ts';

const FILE = '/data/EM_MANIFEST.csv';

/** The events of a short import, each at its time in seconds. */
const RUN: readonly (readonly [number, ImportEvent])[] = [
  [0, { kind: 'start', files: 1, bytes: 3 * 2 ** 20, resumed: false, runId: 1 }],
  [0, { kind: 'file', path: FILE, table: 'EM_MANIFEST', resumeAfterRows: 0, unknownColumns: ['STATUS X'] }],
  [
    6,
    {
      kind: 'progress',
      path: FILE,
      fileBytesRead: 2 ** 20,
      fileBytes: 3 * 2 ** 20,
      rows: 5000,
      rowsPerSecond: 1000,
      secondsLeft: 12,
    },
  ],
  [
    18,
    {
      kind: 'progress',
      path: FILE,
      fileBytesRead: 3 * 2 ** 20,
      fileBytes: 3 * 2 ** 20,
      rows: 15000,
      rowsPerSecond: 1000,
      secondsLeft: 0,
    },
  ],
  [18, { kind: 'phase', phase: FINISHING }],
  [18, { kind: 'phase', phase: 'totals of each manifest' }],
  [21, { kind: 'phase', phase: 'query indexes' }],
  [55.5, { kind: 'phase', phase: 'tallies' }],
];

function printed(tty: boolean): string {
  let text = '';
  let clock = 0;
  const progress = importProgress(
    {
      write: (chunk) => {
        text += chunk;
      },
      isTTY: tty,
    },
    FINISHING,
    () => clock * 1000,
  );
  for (const [at, event] of RUN) {
    clock = at;
    progress.onEvent(event);
  }
  clock = 57;
  progress.end();
  return text;
}

describe('data:import progress', () => {
  it('in a log: a line every 5 s, the time left to read, then each finishing step with its time', () => {
    expect(printed(false).split('\n')).toEqual([
      'Importing 1 file(s), 3.0 MB (run 1)',
      '/data/EM_MANIFEST.csv (EM_MANIFEST)',
      '  columns not read: STATUS X',
      '  1.0 MB of 3.0 MB, 5,000 rows (1,000 rows/s, 12 s left to read)',
      '  3.0 MB of 3.0 MB, 15,000 rows (1,000 rows/s, 0 s left to read)',
      'finishing, every row read:',
      '  totals of each manifest… 3 s',
      '  query indexes… 35 s',
      '  tallies… 2 s',
      '',
    ]);
  });

  it('on a terminal: one progress line rewritten in place, and the finish on lines of its own', () => {
    const text = printed(true);
    const progress = (rows: string, left: string) =>
      `\r${`  ${rows} (1,000 rows/s, ${left} left to read)`.padEnd(78)}`;
    expect(text).toBe(
      'Importing 1 file(s), 3.0 MB (run 1)\n' +
        '/data/EM_MANIFEST.csv (EM_MANIFEST)\n' +
        '  columns not read: STATUS X\n' +
        progress('1.0 MB of 3.0 MB, 5,000 rows', '12 s') +
        progress('3.0 MB of 3.0 MB, 15,000 rows', '0 s') +
        '\nfinishing, every row read:\n' +
        '  totals of each manifest… 3 s\n' +
        '  query indexes… 35 s\n' +
        '  tallies… 2 s\n',
    );
  });

  it('ends a step left open only once', () => {
    let text = '';
    const progress = importProgress({ write: (chunk) => (text += chunk) }, FINISHING, () => 0);
    progress.onEvent({ kind: 'phase', phase: 'tallies' });
    progress.end();
    progress.end();
    expect(text).toBe('  tallies… 0 s\n');
  });
});
