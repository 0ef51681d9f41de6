/**
 * An export's writer thread: writes the packed pages the reader thread sends it with the grid writer, and
 * passes the file's bytes back to main, which owns the file. It runs with a small young generation
 * (export-threads.ts), so what the export allocates stays small and the heap of main's own thread is not
 * grown by it.
 */
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { PackedPage } from './cell-batch.ts';
import type { QueryLine } from './grid-file.ts';
import { writeGridFile } from './grid-writer.ts';
import type { FromWriter, ReadPage, ToWriter, WriterSetup } from './thread-messages.ts';

const port = parentPort;
if (!port) throw new Error('writer-worker.ts runs only as a worker thread');
const { file, spillPath, pages, sheetRows } = workerData as WriterSetup;
const post = (message: FromWriter, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const controller = new AbortController();
/** Pages from the reader not yet taken, in the order it read them. */
const arrived: PackedPage[] = [];
/** How many pages main had read when it said there were no more; undefined until it does. */
let lastPage: number | undefined;
let wake: (() => void) | undefined;
const wakeUp = () => {
  const waiting = wake;
  wake = undefined;
  waiting?.();
};
let query: readonly QueryLine[] = [];
let outputTaken: ((error?: Error) => void) | undefined;
let outputClosed: ((error?: Error) => void) | undefined;

pages.on('message', (message: ReadPage) => {
  arrived.push(message.page);
  wakeUp();
});

port.on('message', (message: ToWriter) => {
  switch (message.type) {
    case 'end':
      query = message.query;
      lastPage = message.pages;
      wakeUp();
      break;
    case 'written':
      outputTaken?.();
      break;
    case 'closed':
      outputClosed?.();
      break;
    case 'abort':
      controller.abort(new Error('aborted'));
      break;
  }
});

/**
 * Pages from the reader one at a time, the next asked of main as the writer starts on one: it is then
 * read meanwhile and waits here when the writer wants it, rather than the writer waiting for messages to
 * go round (measured: 0.85-1 s over 200 pages when asked for only once the previous page was written).
 * Main's `end` may overtake the reader's last pages, so the pages are counted.
 */
async function* pagesFromReader() {
  let taken = 0;
  post({ type: 'next' });
  for (;;) {
    while (arrived.length === 0 && lastPage !== taken) {
      await abortable(
        new Promise<void>((resolve) => {
          wake = resolve;
        }),
      );
    }
    const page = arrived.shift();
    if (!page) break;
    taken += 1;
    post({ type: 'next' });
    yield page;
  }
  pages.close();
  post({ type: 'taken' });
}

/** Waits for `promise`, or throws when main asks to abort. */
async function abortable<T>(promise: Promise<T>): Promise<T> {
  const { signal } = controller;
  signal.throwIfAborted();
  let stop: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    stop = () => reject(signal.reason as Error);
    signal.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/** Bytes sent to main at once: one message per zip chunk (about 11 KB) cost more than the writing. */
const BATCH_BYTES = 256 * 1024;

/**
 * The file as the writer sees it: bytes go to main in batches, and a batch counts as written once main's
 * file took it, so the file's backpressure reaches the writer.
 */
function outputToMain(): Writable {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const send = (callback: (error?: Error) => void) => {
    // One fresh buffer, moved rather than copied: a chunk may be a view into a larger pooled buffer,
    // all of which a message would copy.
    const batch = new Uint8Array(pendingBytes);
    let offset = 0;
    for (const chunk of pending) {
      batch.set(chunk, offset);
      offset += chunk.length;
    }
    pending = [];
    pendingBytes = 0;
    outputTaken = callback;
    post({ type: 'output', bytes: batch }, [batch.buffer]);
  };
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes < BATCH_BYTES) callback();
      else send(callback);
    },
    final(callback) {
      const end = () => {
        outputClosed = callback;
        post({ type: 'output-end' });
      };
      if (pendingBytes === 0) end();
      else send(end);
    },
  });
}

try {
  const rows = await writeGridFile({ ...file, describe: () => query }, pagesFromReader(), outputToMain(), {
    signal: controller.signal,
    spillPath,
    sheetRows,
    onProgress: (progress) => post({ type: 'progress', progress }),
  });
  post({ type: 'done', rows });
} catch (error) {
  const code = (error as { code?: unknown } | null)?.code;
  post({
    type: 'failed',
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  });
}
