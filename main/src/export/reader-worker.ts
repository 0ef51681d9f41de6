/**
 * An export's reader thread: reads each page main hands it (an API page's JSON is parsed and checked here,
 * offline rows are converted) into cells, packs them (pack-page.ts) and moves them, not copied, straight
 * to the writer thread; main only hears what the page held. It runs beside the writer thread, so reading
 * page N+1 overlaps writing page N: measured on 100,000 manifests with their waste lines, reading in the
 * writer's thread was about a fifth of its time. It holds nothing but the page at hand, and its heap is
 * capped (export-threads.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { packSourcePage, packedBuffers } from './pack-page.ts';
import type { FromReader, ReadPage, ReaderSetup, ToReader } from './thread-messages.ts';

const port = parentPort;
if (!port) throw new Error('reader-worker.ts runs only as a worker thread');
const { shape, pages } = workerData as ReaderSetup;

/** A failure whose message is for the user as it stands (a page that did not read). */
class PageFailure extends Error {}

const post = (message: FromReader, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

port.on('message', (message: ToReader) => {
  try {
    const { page, counted } = packSourcePage(message.page, shape, (text) => new PageFailure(text));
    // Sent on before main hears of it, so a page main counts is on its way to the writer.
    const read: ReadPage = { type: 'page', page };
    pages.postMessage(read, packedBuffers(page));
    post({ type: 'read', counted });
  } catch (error) {
    post({
      type: 'failed',
      message: error instanceof Error ? error.message : String(error),
      expected: error instanceof PageFailure,
    });
  }
});
