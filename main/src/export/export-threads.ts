/**
 * Main's side of an export's two threads. main's thread only fetches pages and writes the bytes that come
 * back to the file: a reader (reader-worker.ts) reads each page into packed cells and moves them straight
 * to the writer (writer-worker.ts), which writes them with ExcelJS. Page N+1 is read while page N is
 * written, so the writer's thread does little but ExcelJS's own work. An export of 100,000 manifests
 * allocates gigabytes over its life; V8 sizes a thread's young generation to its allocation rate, so in
 * main's thread that grew to 128 MB and the process to 370–400 MB. In workers the heaps are capped
 * (`resourceLimits`), and main's heap stays as it was.
 *
 * Main keeps the file, the source of pages and the Query sheet's lines: the writer asks main for each page
 * (which is how the file's and the writer's backpressure reach the source; the next page is read ahead, one
 * at most), reports progress, and hands back the workbook's bytes. The messages (thread-messages.ts):
 *
 *   writer ── next ──► main ── page (bytes or rows) ──► reader ── packed page ──► writer
 *                      main ◄── read (rows, total) ─── reader
 *   writer ── output ──► main ── written ──► writer          (the file took the bytes)
 *   writer ── taken ──► main: every page sent is taken, the reader is ended
 *   main ── end (pages sent, Query lines) ──► writer ── output-end ──► main ── closed ──► writer ── done
 *
 * One export's states:
 *
 *                 source has no more pages            writer: done
 *     reading ─────────────────────────────► ending ──────────────────► ended (rows)
 *        │                                     │
 *        │  abort, the file fails, a page      │
 *        │  does not read, the reader dies     │
 *        └──────────────┬──────────────────────┘
 *                       ▼          writer: done | failed | exit, or STOP_GRACE_MS
 *                   stopping ──────────────────────────────────────────► ended (the stop's reason)
 *
 *     A failure of the writer's own (a file-system error, its thread dying) in reading or ending
 *     ends the export at once with that failure. In `ended` both threads are terminated; on a failure the
 *     file is closed before the promise rejects (so no write lands after the caller removes it) and the
 *     spill file is removed.
 */
import { rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { ExportFailure } from './errors.ts';
import type { GridFile, PageCount, SourcePages, WriteProgress } from './grid-file.ts';
import type {
  FromReader,
  FromWriter,
  ReaderSetup,
  ToReader,
  ToWriter,
  WriterSetup,
} from './thread-messages.ts';

/**
 * The writer thread's heap. Left to itself V8 let the old generation grow to 76 MB of mostly garbage and
 * the process to 346 MB. Measured on 100,000 manifests with their waste lines, main built as the app ships
 * it (bench:export; peaks vary by ±15 MB from run to run at any setting). When the writer also parsed the
 * pages, 16 MB young / 64 MB old spent 5 s of 19 in scavenges and a 48 MB old generation made the
 * collector thrash. With the reader thread beside it, run from the TypeScript sources (each thread then
 * also holds a type stripper of about 14 MB), writer 16 and reader 4 young peaked at 289-297 MB in 10-12 s.
 * Bundled: writer 16 / reader 16 peaked at 261-290 MB in 6.4-6.7 s, 32 / 16 at 278-295 MB in 6.7-7.2 s,
 * 48 / 8 at 294-304 MB in 6.9 s, 24 / 12 at 265-292 MB in 6.0-8.0 s over 15 runs (load 0.3-2.7). Larger
 * young generations did not make the export faster. Most of the peak is not these heaps: main's own thread
 * collects so rarely that the fetched pages' dead buffers pile up to about 60 MB before it does (with a
 * 1 MB semi-space in main the peak was 225 MB).
 */
const YOUNG_GENERATION_MB = 24;
const OLD_GENERATION_MB = 64;

/**
 * The reader thread's heap: it holds one page (about 0.7 MB of JSON, a few MB parsed) at a time, but
 * parsing allocates fast: its collections took 2.4 s at 4 MB young, 1.1 s at 8 and 0.4 s at 16, CPU the
 * writer competes for on two cores; 4 MB young made the reader the export's bottleneck (above). The old
 * generation's cap is room, not a reservation: a page may be as large as LIMITS.answerBytesMax.page
 * (16 MB), and 13 MB of manifests with 60 waste lines each took 31 MB of heap once parsed, before its cells.
 */
const READER_YOUNG_GENERATION_MB = 12;
const READER_OLD_GENERATION_MB = 96;

/** How long a writer asked to stop may take to clean up before it is terminated. */
const STOP_GRACE_MS = 5_000;

/**
 * The writer's module beside this one: the TypeScript source when run from source (tests, benchmarks),
 * the built file when bundled (electron.vite.config.ts builds the worker as an entry of its own).
 */
const SOURCE = import.meta.url.endsWith('.ts');
const WRITER_FILE = SOURCE ? './writer-worker.ts' : './writer-worker.js';
const READER_FILE = SOURCE ? './reader-worker.ts' : './reader-worker.js';

/** One of the export's threads, given its setup and its end of the reader-to-writer channel, heap capped. */
function startThread(
  file: string,
  setup: WriterSetup | ReaderSetup,
  port: MessagePort,
  youngMb: number,
  oldMb: number,
): Worker {
  return new Worker(new URL(file, import.meta.url), {
    workerData: setup,
    transferList: [port],
    resourceLimits: { maxYoungGenerationSizeMb: youngMb, maxOldGenerationSizeMb: oldMb },
  });
}

export interface ThreadOptions {
  signal: AbortSignal;
  onProgress: (progress: WriteProgress) => void;
  /** Where the writer keeps the waste lines while the first sheet is written; removed when done. */
  spillPath: string;
  /** Rows a sheet may hold, the header included: Excel's limit unless a test lowers it. */
  sheetRows: number;
}

type State = 'reading' | 'ending' | 'stopping' | 'ended';

/**
 * Writes every page of `pages` into `output` in the export's threads; answers the number of rows, or rejects
 * with the failure (the abort's reason when `signal` aborted) once `output` is closed.
 */
export function writeInThreads(
  file: GridFile,
  pages: SourcePages,
  output: Writable,
  options: ThreadOptions,
): Promise<number> {
  return new Promise((resolve, reject) => {
    new ExportThreads(file, pages, output, options, resolve, reject);
  });
}

class ExportThreads {
  private state: State = 'reading';
  /** Why main stopped the export: it wins over what the writer says afterwards. */
  private stopReason: unknown;
  private grace: NodeJS.Timeout | undefined;
  private rows = 0;
  /** Pages the reader has sent on to the writer. */
  private sent = 0;
  /** What the previous page held, passed to the source when the next page is asked for. */
  private counted: PageCount | undefined;
  /** The page being read while the writer writes the one before. */
  private ahead: Promise<boolean> | undefined;
  /** The writer's asks for pages, answered in turn. */
  private asked = Promise.resolve();
  /** The reader answers one page at a time; this takes its answer to the page in hand. */
  private readAnswered: ((message: FromReader) => void) | undefined;
  private readerEnded = false;
  private readonly writer: Worker;
  private readonly reader: Worker;
  private readonly onAbort = () => this.stop(this.options.signal.reason);
  private readonly file: GridFile;
  private readonly pages: SourcePages;
  private readonly output: Writable;
  private readonly options: ThreadOptions;
  private readonly resolve: (rows: number) => void;
  private readonly reject: (error: Error) => void;

  constructor(
    file: GridFile,
    pages: SourcePages,
    output: Writable,
    options: ThreadOptions,
    resolve: (rows: number) => void,
    reject: (error: Error) => void,
  ) {
    this.file = file;
    this.pages = pages;
    this.output = output;
    this.options = options;
    this.resolve = resolve;
    this.reject = reject;
    const { describe: _describe, ...shape } = file;
    const { spillPath, sheetRows } = options;
    const channel = new MessageChannel();
    const setup: WriterSetup = { file: shape, spillPath, sheetRows, pages: channel.port1 };
    this.writer = startThread(WRITER_FILE, setup, channel.port1, YOUNG_GENERATION_MB, OLD_GENERATION_MB);
    const readerSetup: ReaderSetup = {
      shape: { columns: file.columns, wasteLines: file.wasteLines },
      pages: channel.port2,
    };
    this.reader = startThread(
      READER_FILE,
      readerSetup,
      channel.port2,
      READER_YOUNG_GENERATION_MB,
      READER_OLD_GENERATION_MB,
    );
    options.signal.addEventListener('abort', this.onAbort, { once: true });
    output.on('error', (error) => this.stop(error));
    this.writer.on('message', (message: FromWriter) => this.fromWriter(message));
    this.writer.on('error', (error: Error) => this.writerEnded(error));
    this.writer.on('exit', (code) =>
      this.writerEnded(new Error(`The export's writer stopped unexpectedly (exit code ${code}).`)),
    );
    this.reader.on('message', (message: FromReader) => this.readAnswered?.(message));
    this.reader.on('error', (error) => this.stop(error));
    this.reader.on('exit', (code) => {
      if (!this.readerEnded)
        this.stop(new Error(`The export's reader stopped unexpectedly (exit code ${code}).`));
    });
  }

  private toWriter(message: ToWriter): void {
    this.writer.postMessage(message);
  }

  private fromWriter(message: FromWriter): void {
    switch (message.type) {
      case 'next':
        // One at a time: the reader sends a page on before main hears it was read, so the writer may ask
        // for the next before main has finished answering the last ask.
        this.asked = this.asked.then(() => this.nextPage());
        break;
      case 'taken':
        // Its heap is given back for the rest of the export: the Waste lines sheet is written from disk.
        this.readerEnded = true;
        void this.reader.terminate();
        break;
      case 'progress':
        this.options.onProgress(message.progress);
        break;
      case 'output':
        if (this.output.write(message.bytes)) this.toWriter({ type: 'written' });
        else this.output.once('drain', () => this.toWriter({ type: 'written' }));
        break;
      case 'output-end':
        this.output.once('close', () => this.toWriter({ type: 'closed' }));
        this.output.end();
        break;
      case 'done':
        void this.settle(this.state === 'stopping' ? { error: this.stopReason } : { rows: message.rows });
        break;
      case 'failed':
        this.writerEnded(Object.assign(new Error(message.message), { code: message.code }));
        break;
    }
  }

  /** The writer failed or is gone: the export ends with that, unless main had stopped it first. */
  private writerEnded(error: Error): void {
    void this.settle({ error: this.state === 'stopping' ? this.stopReason : error });
  }

  /** Answers the writer's ask for a page: the one read ahead, or the end of the pages. */
  private async nextPage(): Promise<void> {
    try {
      const more = await (this.ahead ?? this.readNext());
      this.ahead = undefined;
      if (this.state !== 'reading') return;
      if (!more) {
        this.state = 'ending';
        this.toWriter({ type: 'end', pages: this.sent, query: this.file.describe(this.rows) });
        return;
      }
      this.ahead = this.readNext();
      // Awaited when the writer asks for the next page; a failure meanwhile must not count as unhandled.
      this.ahead.catch(() => undefined);
    } catch (error) {
      this.stop(error);
    }
  }

  /** Reads the source's next page and has the reader send it to the writer; false when there are no more. */
  private async readNext(): Promise<boolean> {
    const next = await (this.counted ? this.pages.next(this.counted) : this.pages.next());
    if (this.state !== 'reading' || next.done) return false;
    const page = next.value;
    const answer = new Promise<FromReader>((answered) => {
      this.readAnswered = answered;
    });
    // Moved, not copied, when the bytes are a whole buffer of their own (a fetched body is).
    const movable = !('rows' in page) && page.json.byteLength === page.json.buffer.byteLength;
    const message: ToReader = { type: 'page', page };
    this.reader.postMessage(message, movable ? [page.json.buffer as ArrayBuffer] : []);
    const read = await answer;
    this.readAnswered = undefined;
    if (read.type === 'failed')
      throw read.expected ? new ExportFailure(read.message) : new Error(read.message);
    this.counted = read.counted;
    this.rows += read.counted.rows;
    this.sent += 1;
    return true;
  }

  /** Main stops the export: the writer is asked to clean up, and given STOP_GRACE_MS to. */
  private stop(reason: unknown): void {
    if (this.state === 'stopping' || this.state === 'ended') return;
    this.state = 'stopping';
    this.stopReason = reason;
    this.readAnswered?.({ type: 'failed', message: String(reason), expected: false });
    this.toWriter({ type: 'abort' });
    this.grace = setTimeout(() => void this.settle({ error: reason }), STOP_GRACE_MS);
  }

  private async settle(outcome: { rows: number } | { error: unknown }): Promise<void> {
    if (this.state === 'ended') return;
    this.state = 'ended';
    clearTimeout(this.grace);
    this.options.signal.removeEventListener('abort', this.onAbort);
    await Promise.all([this.writer.terminate(), this.reader.terminate()]);
    if ('rows' in outcome) {
      this.resolve(outcome.rows);
      return;
    }
    // Closed before the caller removes the file, so no write still in flight lands after the removal.
    if (!this.output.closed) {
      const closed = new Promise((done) => this.output.once('close', done));
      this.output.destroy();
      await closed;
    }
    // The writer removes its spill file itself, unless it had to be terminated.
    await rm(this.options.spillPath, { force: true });
    void this.pages.return?.(undefined).catch(() => undefined);
    // An abort's reason is thrown as it is; it is an Error unless a caller chose otherwise.
    const { error } = outcome;
    this.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
