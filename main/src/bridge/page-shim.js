/* global document, window */
/**
 * Runs in the page, before the preload: Electron's `contextBridge` and `ipcRenderer`, spoken over the
 * loopback bridge. Invocations are POSTs to ./invoke, main's events arrive on the ./events WebSocket. The
 * bridge serves this file with the real preload bundle after it, whose `require('electron')` gets this.
 * Plain JavaScript because it is sent to the browser as it is written.
 */

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- called by the wrapper the bridge appends
function createBridgeElectron() {
  const base = new URL('.', document.currentScript.src);
  const socketUrl = new URL('events', base);
  socketUrl.protocol = 'ws:';
  const listeners = new Map();
  const socket = new WebSocket(socketUrl);
  // Calls wait for the event socket, so no event that a call causes can be sent before the page listens.
  const connected = new Promise((resolve) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('close', resolve, { once: true });
  });
  socket.addEventListener('message', (message) => {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    // A finished export: the bridge's stand-in for Electron's save dialog is the browser's own download.
    if (event.channel === 'bridge:download') {
      const link = document.createElement('a');
      link.href = new URL(event.payload.url, base).href;
      link.download = event.payload.fileName;
      link.hidden = true;
      document.body.append(link);
      link.click();
      link.remove();
      return;
    }
    // Electron hands listeners an IpcRendererEvent first; the preload drops it, so an empty one stands in.
    for (const listener of [...(listeners.get(event.channel) ?? [])]) listener({}, event.payload);
  });

  const ipcRenderer = {
    async invoke(channel, input, options) {
      await connected;
      const response = await fetch(new URL('invoke', base), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channel, input, options }),
        cache: 'no-store',
      });
      // Like Electron's invoke, a call main cannot answer rejects; answers themselves are always values.
      if (!response.ok)
        throw new Error(`Error invoking remote method '${channel}': ${await response.text()}`);
      return response.json();
    },
    on(channel, listener) {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel).add(listener);
      return ipcRenderer;
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
      return ipcRenderer;
    },
  };

  const contextBridge = {
    exposeInMainWorld(key, api) {
      Object.defineProperty(window, key, {
        value: api,
        enumerable: true,
        writable: false,
        configurable: false,
      });
    },
  };
  return { contextBridge, ipcRenderer };
}
