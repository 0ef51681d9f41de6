/**
 * Runs an export in two threads of its own while main's thread only fetches pages and writes the bytes
 * that come back to the file: a reader (reader-worker.ts) reads each page into packed cells and moves them
 * straight to the writer (writer-worker.ts), which writes them with ExcelJS. Page N+1 is read while page N
 * is written, so the writer's thread does little but ExcelJS's own work. An export of 100,000 manifests
 * allocates gigabytes over its life; V8 sizes a thread's young generation to its allocation rate, so in
 * main's thread that grew to 128 MB and the process to 370–400 MB. In workers the heaps are capped
 * (`resourceLimits`), and main's heap stays as it was.
 *
 * Main keeps the file, the source of pages and the Query sheet's lines: the writer asks main for each page
 * (which is how the file's and the writer's backpressure reach the source; the next page is read ahead,
 * one at most), reports progress, and hands back the workbook's bytes. Packed pages go from reader to
 * writer on a channel of their own, so main's thread never holds them. A failure anywhere stops all three,
 * and the writer removes its spill file.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { ExportFailure } from './export-jobs.ts';
import type { GridFile, WriteOptions } from './grid-writer.ts';
import type { PageShape } from './page-cells.ts';
import type {
  FromReader,
  FromWorker,
  PageCount,
  ReaderSetup,
  SourcePage,
  ToReader,
  ToWorker,
  WriterSetup,
} from './writer-protocol.ts';

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
const WORKER_FILE = SOURCE ? './writer-worker.ts' : './writer-worker.js';
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

/** Pages as the export's source gives them; the reader tells it what each page held. */
export type SourcePages = AsyncIterable<SourcePage, unknown, PageCount | undefined>;

/** Writes every page to `path` in the export's threads; as writeGridFile, but pages may be unread API pages. */
export async function writeGridFileInThread(
  path: string,
  { describe, ...file }: GridFile,
  pages: SourcePages,
  { signal, onProgress, spillPath, open = createWriteStream, sheetRows }: WriteOptions,
): Promise<number> {
  signal.throwIfAborted();
  const output = open(path);
  const iterator = pages[Symbol.asyncIterator]();
  const channel = new MessageChannel();
  const setup: WriterSetup = { file, spillPath, pages: channel.port1, ...(sheetRows ? { sheetRows } : {}) };
  const worker = startThread(WORKER_FILE, setup, channel.port1, YOUNG_GENERATION_MB, OLD_GENERATION_MB);
  const shape: PageShape = { columns: file.columns, wasteLines: file.wasteLines };
  const readerSetup: ReaderSetup = { shape, pages: channel.port2 };
  const reader = startThread(
    READER_FILE,
    readerSetup,
    channel.port2,
    READER_YOUNG_GENERATION_MB,
    READER_OLD_GENERATION_MB,
  );
  const send = (message: ToWorker) => worker.postMessage(message);
  const toReader = (message: ToReader, transfer: ArrayBuffer[] = []) => reader.postMessage(message, transfer);

  return new Promise<number>((resolve, reject) => {
    let rows = 0;
    let settled = false;
    /** Why main stopped the export, when it did: it wins over what the writer says afterwards. */
    let stopped: { reason: unknown } | undefined;
    let grace: NodeJS.Timeout | undefined;

    const settle = async (outcome: { rows: number } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      clearTimeout(grace);
      signal.removeEventListener('abort', onAbort);
      await Promise.all([worker.terminate(), reader.terminate()]);
      if ('error' in outcome) {
        // Closed before the caller removes the file, so no write still in flight lands after the removal.
        if (!output.closed) {
          const closed = new Promise((done) => output.once('close', done));
          output.destroy();
          await closed;
        }
        // The writer removes its spill file itself, unless it had to be terminated.
        await rm(spillPath, { force: true });
        void iterator.return?.(undefined).catch(() => undefined);
        // An abort's reason is thrown as it is, as writeGridFile does; it is an Error unless a caller chose otherwise.
        reject(outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error)));
      } else resolve(outcome.rows);
    };
    /** The reader answers one page at a time; this waits for its answer to the page in hand. */
    let readAnswered: ((message: FromReader) => void) | undefined;
    const readFailed = (reason: unknown) =>
      readAnswered?.({ type: 'failed', message: String(reason), expected: false });
    reader.on('message', (message: FromReader) => readAnswered?.(message));

    const stop = (reason: unknown) => {
      if (stopped || settled) return;
      stopped = { reason };
      readFailed(reason);
      send({ type: 'abort' });
      grace = setTimeout(() => void settle({ error: reason }), STOP_GRACE_MS);
    };
    const onAbort = () => stop(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    output.on('error', stop);

    let readerDone = false;
    /** What the previous page held, passed to the source when the next page is asked for. */
    let counted: PageCount | undefined;
    /** Pages the reader has sent on to the writer. */
    let sent = 0;
    /** Reads the source's next page and has it sent to the writer; false when there are no more. */
    const readNext = async (): Promise<boolean> => {
      const next = await iterator.next(counted);
      if (stopped || next.done) return false;
      const page: SourcePage = next.value;
      const answer = new Promise<FromReader>((answered) => {
        readAnswered = answered;
      });
      // Moved, not copied, when the bytes are a whole buffer of their own (a fetched body is).
      const movable = !('rows' in page) && page.json.byteLength === page.json.buffer.byteLength;
      toReader({ type: 'page', page }, movable ? [page.json.buffer as ArrayBuffer] : []);
      const read = await answer;
      readAnswered = undefined;
      if (read.type === 'failed')
        throw read.expected ? new ExportFailure(read.message) : new Error(read.message);
      counted = read.counted;
      rows += read.counted.rows;
      sent += 1;
      return true;
    };
    /** The page being read while the writer writes the one before. */
    let ahead: Promise<boolean> | undefined;
    /** The writer's asks for pages, answered in turn. */
    let asked = Promise.resolve();
    const nextPage = async () => {
      try {
        const more = await (ahead ?? readNext());
        ahead = undefined;
        if (stopped) return;
        if (!more) {
          send({ type: 'end', pages: sent, query: describe(rows) });
          return;
        }
        ahead = readNext();
        // Awaited when the writer asks for the next page; a failure meanwhile must not count as unhandled.
        ahead.catch(() => undefined);
      } catch (error) {
        stop(error);
      }
    };

    worker.on('message', (message: FromWorker) => {
      switch (message.type) {
        case 'next':
          // One at a time: the reader sends a page on before main hears it was read, so the writer may ask
          // for the next before main has finished answering the last ask.
          asked = asked.then(nextPage);
          break;
        case 'taken':
          // Its heap is given back for the rest of the export: the Waste lines sheet is written from disk.
          readerDone = true;
          void reader.terminate();
          break;
        case 'progress':
          onProgress(message.progress);
          break;
        case 'output':
          if (output.write(message.bytes)) send({ type: 'written' });
          else output.once('drain', () => send({ type: 'written' }));
          break;
        case 'output-end':
          output.once('close', () => send({ type: 'closed' }));
          output.end();
          break;
        case 'done':
          void settle(stopped ? { error: stopped.reason } : { rows: message.rows });
          break;
        case 'failed': {
          const error = Object.assign(new Error(message.message), { code: message.code });
          void settle({ error: stopped ? stopped.reason : error });
          break;
        }
      }
    });
    worker.on('error', (error) => void settle({ error: stopped ? stopped.reason : error }));
    worker.on('exit', (code) => {
      const error = new Error(`The export's writer stopped unexpectedly (exit code ${code}).`);
      void settle({ error: stopped ? stopped.reason : error });
    });
    reader.on('error', (error) => stop(error));
    reader.on('exit', (code) => {
      if (!readerDone) stop(new Error(`The export's reader stopped unexpectedly (exit code ${code}).`));
    });
  });
}
