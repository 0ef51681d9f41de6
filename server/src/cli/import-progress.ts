/**
 * What `npm run data:import` says on standard error while it runs: each file as it starts, its rows as they go
 * (one line rewritten in place on a terminal, a line every 5 s otherwise) with the time left to read them,
 * then each phase of the finish with how long it took once it ends. On a national dataset the finish (the
 * indexes, the search and lookup indexes) takes longer than reading the rows: it is never a silent wait, and
 * "time left" never stands for more than it measures.
 */
import type { ImportEvent } from '../import/run.ts';

export const count = (value: number) => Math.round(value).toLocaleString('en-US');

export function megabytes(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}

export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.ceil(seconds % 60)} s`;
}

/** Where the lines go: standard error, or a test's collector. */
export interface ProgressOutput {
  write(text: string): void;
  isTTY?: boolean;
}

/** Seconds between progress lines where they cannot be rewritten in place. */
const LINE_EVERY_MS = 5000;

/**
 * The printer of one import's events. `finishing` is the phase that starts the sink's finish (run.ts
 * FINISHING, passed in so that printing loads none of the importer); `end` closes the phase still open,
 * before the summary.
 */
export function importProgress(
  out: ProgressOutput,
  finishing: string,
  now: () => number = () => performance.now(),
): { onEvent: (event: ImportEvent) => void; end: () => void } {
  const tty = out.isTTY === true;
  let printed = Number.NEGATIVE_INFINITY;
  /** When the phase being shown started: its time is written on its line when it ends. */
  let phaseStarted: number | undefined;
  /** A progress line rewritten in place is on screen: what comes next starts on a line of its own. */
  let overwritable = false;

  const newLine = () => {
    if (overwritable) out.write('\n');
    overwritable = false;
  };
  const line = (text: string) => {
    newLine();
    out.write(`${text}\n`);
  };
  const end = () => {
    if (phaseStarted === undefined) return;
    out.write(` ${duration((now() - phaseStarted) / 1000)}\n`);
    phaseStarted = undefined;
  };

  const onEvent = (event: ImportEvent) => {
    end();
    switch (event.kind) {
      case 'start':
        line(
          `${event.resumed ? 'Resuming' : 'Importing'} ${event.files} file(s), ${megabytes(event.bytes)} (run ${event.runId})`,
        );
        return;
      case 'file': {
        const resume =
          event.resumeAfterRows > 0 ? `, resuming after row ${count(event.resumeAfterRows)}` : '';
        line(`${event.path} (${event.table}${resume})`);
        if (event.unknownColumns.length > 0) line(`  columns not read: ${event.unknownColumns.join(', ')}`);
        return;
      }
      case 'refused':
        line(`${event.path}\n  not read: ${event.reason}`);
        return;
      case 'windows-1252':
        line('  read as Windows-1252: its text is not UTF-8');
        return;
      case 'phase':
        if (event.phase === finishing) {
          line('finishing, every row read:');
          return;
        }
        newLine();
        out.write(`  ${event.phase}…`);
        phaseStarted = now();
        return;
      case 'progress': {
        const at = now();
        if (!tty && at - printed < LINE_EVERY_MS) return;
        printed = at;
        const left = event.secondsLeft === undefined ? '' : `, ${duration(event.secondsLeft)} left to read`;
        const text =
          `  ${megabytes(event.fileBytesRead)} of ${megabytes(event.fileBytes)}, ` +
          `${count(event.rows)} rows (${count(event.rowsPerSecond)} rows/s${left})`;
        if (!tty) {
          line(text);
          return;
        }
        out.write(`\r${text.padEnd(78)}`);
        overwritable = true;
        return;
      }
    }
  };
  return { onEvent, end };
}
