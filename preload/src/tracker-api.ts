/**
 * Builds `window.tracker` from the IPC contract's names: one function per method, forwarding its input and
 * options to main over its channel, and `on(event, listener)` for main's events. Nothing is hand-listed, so
 * the exposed surface is exactly the contract. It reads the zod-free name list (shared/ipc/methods.ts), so
 * the preload bundle carries no schema; main parses everything anyway. It takes ipcRenderer- and
 * contextBridge-like objects so Node tests, and a browser shim speaking another transport, can reuse it.
 */
import type { TrackerApi } from '../../shared/ipc/contract.ts';
import { EVENT_NAMES, METHOD_NAMES, channelOf, eventChannelOf } from '../../shared/ipc/methods.ts';

/** The part of Electron's ipcRenderer the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export interface ContextBridgeLike {
  exposeInMainWorld(apiKey: string, api: unknown): void;
}

export const API_KEY = 'tracker';

export function buildTrackerApi(ipcRenderer: IpcRendererLike): TrackerApi {
  const api: Record<string, unknown> = {};
  for (const [group, methods] of Object.entries(METHOD_NAMES)) {
    const forwarders: Record<string, (input?: unknown, options?: unknown) => Promise<unknown>> = {};
    for (const method of methods) {
      const channel = channelOf(group, method);
      forwarders[method] = (input?: unknown, options?: unknown) =>
        ipcRenderer.invoke(channel, input, options);
    }
    api[group] = Object.freeze(forwarders);
  }
  api.on = (event: string, listener: (payload: unknown) => void): (() => void) => {
    if (!(EVENT_NAMES as readonly string[]).includes(event))
      throw new TypeError(`There is no event named ${JSON.stringify(event)}.`);
    if (typeof listener !== 'function') throw new TypeError('The listener must be a function.');
    const channel = eventChannelOf(event);
    // The IPC event object stays here: it carries a sender the renderer must not get hold of.
    const forward = (_event: unknown, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  };
  // The loops above build, generically, exactly the shape TrackerApi derives from the same contract.
  return Object.freeze(api) as unknown as TrackerApi;
}

export function exposeTrackerApi(bridge: {
  contextBridge: ContextBridgeLike;
  ipcRenderer: IpcRendererLike;
}): TrackerApi {
  const api = buildTrackerApi(bridge.ipcRenderer);
  bridge.contextBridge.exposeInMainWorld(API_KEY, api);
  return api;
}
