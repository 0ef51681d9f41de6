import { describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { channelOf, contract, eventChannelOf, events } from '../../shared/ipc/contract.ts';
import { EVENT_NAMES, METHOD_NAMES } from '../../shared/ipc/methods.ts';
import { buildTrackerApi, exposeTrackerApi, type IpcRendererLike } from '../../preload/src/tracker-api.ts';

/** Every module the file loads at run time (type-only imports are erased), followed through relative paths. */
function runtimeImports(file: string, seen = new Set<string>()): Set<string> {
  const source = readFileSync(file, 'utf8');
  for (const match of source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)) {
    const target = match[1]!;
    const key = target.startsWith('.') ? resolve(dirname(file), target) : target;
    if (seen.has(key)) continue;
    seen.add(key);
    if (target.startsWith('.')) runtimeImports(key, seen);
  }
  return seen;
}

type Listener = (event: unknown, ...args: unknown[]) => void;

/** An ipcRenderer stand-in that records invokes and lets the test play main's side of events. */
function fakeIpcRenderer() {
  const listeners = new Map<string, Set<Listener>>();
  const invoked: { channel: string; args: unknown[] }[] = [];
  const ipc: IpcRendererLike & {
    emit(channel: string, ...args: unknown[]): void;
    count(channel: string): number;
  } = {
    invoke(channel, ...args) {
      invoked.push({ channel, args });
      return Promise.resolve({ ok: true, data: channel });
    },
    on(channel, listener) {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(listener);
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
    },
    emit(channel, ...args) {
      for (const listener of listeners.get(channel) ?? []) listener({ sender: 'the IPC event' }, ...args);
    },
    count: (channel) => listeners.get(channel)?.size ?? 0,
  };
  return { ipc, invoked };
}

describe('preload: window.tracker built from the contract', () => {
  it('exposes exactly the contract: every group and method, plus on, and nothing else', () => {
    const api = buildTrackerApi(fakeIpcRenderer().ipc) as unknown as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual([...Object.keys(contract), 'on'].sort());
    for (const [group, methods] of Object.entries(contract)) {
      const exposed = api[group] as Record<string, unknown>;
      expect(Object.keys(exposed).sort()).toEqual(Object.keys(methods).sort());
      for (const method of Object.keys(methods)) expect(typeof exposed[method]).toBe('function');
    }
  });

  it("forwards every method to its channel with input and options as given, and answers main's result", async () => {
    const { ipc, invoked } = fakeIpcRenderer();
    const api = buildTrackerApi(ipc) as unknown as Record<
      string,
      Record<string, (input?: unknown, options?: unknown) => Promise<unknown>>
    >;
    for (const [group, methods] of Object.entries(contract)) {
      for (const method of Object.keys(methods)) {
        const input = { probe: `${group}.${method}` };
        const options = { requestId: `${group}-${method}` };
        await expect(api[group]![method]!(input, options)).resolves.toEqual({
          ok: true,
          data: channelOf(group, method),
        });
        expect(invoked.at(-1)).toEqual({ channel: channelOf(group, method), args: [input, options] });
      }
    }
  });

  it("the preload's plain name list is exactly the contract's methods and events", () => {
    expect(Object.keys(METHOD_NAMES).sort()).toEqual(Object.keys(contract).sort());
    for (const [group, methods] of Object.entries(contract)) {
      expect([...METHOD_NAMES[group as keyof typeof METHOD_NAMES]].sort()).toEqual(
        Object.keys(methods).sort(),
      );
    }
    expect([...EVENT_NAMES].sort()).toEqual(Object.keys(events).sort());
  });

  it('the preload loads no zod and no schema, only electron and the name list', () => {
    const loaded = [...runtimeImports(resolve(import.meta.dirname, '../../preload/src/index.ts'))];
    const packages = loaded.filter((name) => !name.startsWith('/'));
    expect(packages).toEqual(['electron']);
    const files = loaded
      .filter((name) => name.startsWith('/'))
      .map((name) => name.split('/').slice(-2).join('/'));
    expect(files.sort()).toEqual(['ipc/methods.ts', 'src/tracker-api.ts']);
  });

  it('on() hands the listener the payload only, never the IPC event, and returns an unsubscribe', () => {
    const { ipc } = fakeIpcRenderer();
    const api = buildTrackerApi(ipc);
    const listener = vi.fn();
    const channel = eventChannelOf('session.changed');
    const unsubscribe = api.on('session.changed', listener);
    const payload = { status: { signedIn: false, baseUrl: 'http://127.0.0.1:4010' }, reason: 'expired' };
    ipc.emit(channel, payload);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener.mock.calls[0]).toEqual([payload]);
    unsubscribe();
    expect(ipc.count(channel)).toBe(0);
    ipc.emit(channel, payload);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('subscribes to every event of the contract, and refuses names that are not in it', () => {
    const { ipc } = fakeIpcRenderer();
    const api = buildTrackerApi(ipc) as unknown as { on(event: string, listener: unknown): () => void };
    for (const event of Object.keys(events)) {
      api.on(event, () => undefined);
      expect(ipc.count(eventChannelOf(event))).toBe(1);
    }
    expect(() => api.on('toString', () => undefined)).toThrow(/no event named/);
    expect(() => api.on('session.changed', 'not a function')).toThrow(/must be a function/);
  });

  it('exposes the api under "tracker" in the main world, frozen', () => {
    const exposeInMainWorld = vi.fn();
    const api = exposeTrackerApi({
      contextBridge: { exposeInMainWorld },
      ipcRenderer: fakeIpcRenderer().ipc,
    });
    expect(exposeInMainWorld).toHaveBeenCalledWith('tracker', api);
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.isFrozen(api.session)).toBe(true);
  });
});
