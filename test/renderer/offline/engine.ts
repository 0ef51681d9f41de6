/**
 * The offline engine as the app runs it, for renderer tests: its worker's host behind a MessageChannel,
 * reading the same (fake-indexeddb) databases the page writes. Returns the function that uninstalls it.
 */
import { EngineClient } from '../../../renderer/src/offline/engine-client.ts';
import { engineHost } from '../../../renderer/src/offline/engine/engine-host.ts';
import type { EngineMessage } from '../../../renderer/src/offline/engine/engine-messages.ts';
import { setOfflineEngine } from '../../../renderer/src/offline/engine-seam.ts';
import { readStoredPack, saveStoredIndexes } from '../../../renderer/src/offline/stored-pack.ts';

export function installEngine(): () => void {
  const channel = new MessageChannel();
  const reply = engineHost({ read: readStoredPack, saveIndexes: saveStoredIndexes });
  channel.port2.onmessage = (event: MessageEvent<EngineMessage>) =>
    void reply(event.data).then((answer) => channel.port2.postMessage(answer));
  setOfflineEngine(new EngineClient(channel.port1));
  return () => {
    setOfflineEngine(undefined);
    channel.port1.close();
    channel.port2.close();
  };
}
