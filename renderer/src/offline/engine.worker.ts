/**
 * The offline engine's Web Worker: reading a pack and its indexes from IndexedDB, indexing a pack and storing
 * its indexes, and scanning it for a request run here, off the page's thread, so the grid never freezes while
 * a pack opens or a request scans 100,000 rows.
 */
import { readStoredPack, saveStoredIndexes } from './stored-pack.ts';
import type { EngineMessage, EngineReply } from './engine/engine-messages.ts';
import { engineHost } from './engine/engine-host.ts';

/** The worker's global scope, as far as it is used here (the renderer is typed with the DOM's Window). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<EngineMessage>) => void) | null;
  postMessage(reply: EngineReply): void;
};

const reply = engineHost({ read: readStoredPack, saveIndexes: saveStoredIndexes });
scope.onmessage = (event) => {
  void reply(event.data).then((answer) => scope.postMessage(answer));
};
