/**
 * Runs the grid writer in a thread of its own (writer-worker.ts) while main's thread only fetches pages and
 * writes the bytes that come back to the file. An export of 100,000 manifests allocates gigabytes over its
 * life; V8 sizes a thread's young generation to its allocation rate, so in main's thread that grew to 128 MB
 * and the process to 370–400 MB. In a worker the young generation is capped (`resourceLimits`), and main's
 * heap stays as it was.
 *
 * Main keeps the file, the source of pages and the Query sheet's lines: the writer asks for each page
 * (which is how the file's and the writer's backpressure reach the source), reports progress, and hands
 * back the workbook's bytes. A failure on either side stops both, and the writer removes its spill file.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { ExportFailure } from './export-jobs.ts';
import type { GridFile, WriteOptions } from './grid-writer.ts';
import type { FromWorker, PageCount, SourcePage, ToWorker, WriterSetup } from './writer-protocol.ts';

/**
 * The writer thread's heap. Left to itself V8 let the old generation grow to 76 MB of mostly garbage and
 * the process to 346 MB. Measured on 100,000 manifests with their waste lines (the process holds 145 MB
 * before the export starts; peaks vary by ±20 MB from run to run): 16 MB young / 64 MB old peaked at
 * 250-300 MB but spent 5 s of 19 in scavenges; 24 / 64 at 260-295 MB; 32 / 64 at 265-300 MB with 2 s less
 * CPU than 16; a 48 MB old generation made the collector thrash (three times the CPU).
 */
const YOUNG_GENERATION_MB = 24;
const OLD_GENERATION_MB = 64;

/** How long a writer asked to stop may take to clean up before it is terminated. */
const STOP_GRACE_MS = 5_000;

/**
 * The writer's module beside this one: the TypeScript source when run from source (tests, benchmarks),
 * the built file when bundled (electron.vite.config.ts builds the worker as an entry of its own).
 */
const WORKER_FILE = import.meta.url.endsWith('.ts') ? './writer-worker.ts' : './writer-worker.js';

/** Pages as the export's source gives them; the writer tells it what each page held. */
export type SourcePages = AsyncIterable<SourcePage, unknown, PageCount | undefined>;

/** Writes every page to `path` in the writer thread; as writeGridFile, but pages may be unread API pages. */
export async function writeGridFileInThread(
  path: string,
  { describe, ...file }: GridFile,
  pages: SourcePages,
  { signal, onProgress, spillPath, open = createWriteStream }: WriteOptions,
): Promise<number> {
  signal.throwIfAborted();
  const output = open(path);
  const iterator = pages[Symbol.asyncIterator]();
  const setup: WriterSetup = { file, spillPath };
  const worker = new Worker(new URL(WORKER_FILE, import.meta.url), {
    workerData: setup,
    resourceLimits: {
      maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
      maxOldGenerationSizeMb: OLD_GENERATION_MB,
    },
  });
  const send = (message: ToWorker, transfer: ArrayBuffer[] = []) => worker.postMessage(message, transfer);

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
      await worker.terminate();
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
    const stop = (reason: unknown) => {
      if (stopped || settled) return;
      stopped = { reason };
      send({ type: 'abort' });
      grace = setTimeout(() => void settle({ error: reason }), STOP_GRACE_MS);
    };
    const onAbort = () => stop(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    output.on('error', stop);

    const nextPage = async (counted: PageCount | undefined) => {
      if (counted) rows += counted.rows;
      try {
        const next = await iterator.next(counted);
        if (stopped) return;
        if (next.done) {
          send({ type: 'end', query: describe(rows) });
          return;
        }
        const page = next.value;
        // Moved, not copied, when the bytes are a whole buffer of their own (a fetched body is).
        const movable = !('rows' in page) && page.json.byteLength === page.json.buffer.byteLength;
        send({ type: 'page', page }, movable ? [page.json.buffer as ArrayBuffer] : []);
      } catch (error) {
        stop(error);
      }
    };

    worker.on('message', (message: FromWorker) => {
      switch (message.type) {
        case 'next':
          void nextPage(message.counted);
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
          const { message: text, code, expected } = message;
          const error = expected ? new ExportFailure(text) : Object.assign(new Error(text), { code });
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
  });
}
