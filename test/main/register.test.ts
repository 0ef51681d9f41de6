import { describe, expect, it, vi } from 'vitest';
import { channelOf, contract, type Result } from '../../shared/ipc/contract.ts';
import {
  handlers as realHandlers,
  type CallContext,
  type HandlerContext,
  type Handlers,
} from '../../main/src/ipc/handlers.ts';
import { channelTable, registerHandlers } from '../../main/src/ipc/register.ts';
import { createSenderRequests, type SenderRequests } from '../../main/src/ipc/requests.ts';
import { DEMO_USERS } from './support.ts';
import { isTrustedSender, type FrameLike } from '../../main/src/ipc/sender.ts';
import { APP_ENTRY_URL, trustedOrigins } from '../../main/src/security/policy.ts';

type Spy = ReturnType<typeof vi.fn<(input: unknown, context: CallContext) => Promise<Result<unknown>>>>;

/** A handler spy for every method of the contract, answering what it was given. */
function spyHandlers(): { handlers: Handlers; spies: Map<string, Spy> } {
  const spies = new Map<string, Spy>();
  const handlers: Record<string, Record<string, Spy>> = {};
  for (const [group, methods] of Object.entries(contract)) {
    handlers[group] = {};
    for (const method of Object.keys(methods)) {
      const spy = vi.fn((input: unknown) => Promise.resolve<Result<unknown>>({ ok: true, data: input }));
      handlers[group][method] = spy;
      spies.set(channelOf(group, method), spy);
    }
  }
  return { handlers: handlers as unknown as Handlers, spies };
}

const context = {} as HandlerContext;
const TOTALS = { epa_total: 1, shipped_count: 2, container_count: 3, mmc_count: 4 };
const allChannels = Object.entries(contract).flatMap(([group, methods]) =>
  Object.keys(methods).map((method) => channelOf(group, method)),
);

const signIn = { ...DEMO_USERS.inspector, remember: false };
const pageInfo = { page: 0, pageSize: 25 };
/** A well-formed export id, so a case fails on the member it names. */
const EXPORT_ID = '00000000-0000-4000-8000-000000000000';

/** For every method: inputs the contract refuses, and what the message must name. */
const invalidInputs: Record<string, [unknown, string][]> = {
  'tracker:session.signIn': [
    [undefined, 'input'],
    [{ ...signIn, username: '   ' }, 'username'],
    [{ ...signIn, password: '' }, 'password'],
    [{ username: 'inspector', password: 'x' }, 'remember'],
    [{ ...signIn, baseUrl: 'file:///etc/passwd' }, 'baseUrl'],
    [{ ...signIn, token: 'smuggled' }, 'token'],
  ],
  'tracker:session.signOut': [[{}, 'no input']],
  'tracker:session.signOutAndRemoveData': [[{ everything: true }, 'no input']],
  'tracker:session.status': [['now', 'no input']],
  'tracker:session.probe': [[{ baseUrl: 'http://127.0.0.1:9' }, 'no input']],
  'tracker:settings.get': [[{ all: true }, 'no input']],
  'tracker:settings.set': [
    [{ pageSize: 5 }, 'pageSize'],
    [{ requestTimeoutMs: 'fast' }, 'requestTimeoutMs'],
    [{ apiBaseUrl: 'javascript:alert(1)' }, 'apiBaseUrl'],
    [{ theme: 'sepia' }, 'theme'],
    [{ colour: 'dark' }, 'colour'],
    [null, 'input'],
  ],
  'tracker:settings.testConnection': [
    [undefined, 'input'],
    [{ baseUrl: 'file:///etc/passwd' }, 'baseUrl'],
    [{ baseUrl: 'https://user:secret@example.gov' }, 'baseUrl'],
    [{ baseUrl: 'http://127.0.0.1:4010', path: '/admin' }, 'path'],
  ],
  'tracker:generators.aggregate': [
    [{ searchKey: 5 }, 'searchKey'],
    [{ filterFields: { planets: ['Mars'] } }, 'planets'],
    [{ filterFields: { cities: 'Springfield' } }, 'filterFields.cities'],
  ],
  'tracker:generators.list': [
    [{}, 'pageInfo'],
    [{ pageInfo: { page: -1, pageSize: 25 } }, 'pageInfo.page'],
    [{ pageInfo: { page: 0, pageSize: 100_000 } }, 'pageInfo.pageSize'],
    [{ pageInfo: { ...pageInfo, filters: 'state=TX' } }, 'pageInfo.filters'],
    [{ pageInfo, searchKey: 'x'.repeat(201) }, 'searchKey'],
  ],
  'tracker:generators.lookup': [
    [{ field: 'password_hash', page: 1 }, 'field'],
    [{ field: 'naics', page: 0 }, 'page'],
    [{ field: 'naics', page: 1, search: 'x'.repeat(101) }, 'search'],
  ],
  'tracker:generators.detail': [
    [{ handler_id: '' }, 'handler_id'],
    [{}, 'handler_id'],
    [{ handler_id: 'TXD000000001', url: 'https://evil.example/' }, 'url'],
  ],
  'tracker:generators.details': [
    [{ ids: [] }, 'ids'],
    [{ ids: [''] }, 'ids'],
    [{ ids: ['TXD000000001'], totals: 'yes' }, 'totals'],
    [{ ids: ['TXD000000001'], url: 'https://evil.example/' }, 'url'],
  ],
  'tracker:manifests.aggregate': [
    [{ filterFields: { shipped_date_start: '2023-02-30' } }, 'shipped_date_start'],
    [
      { filterFields: { received_date_start: '2024-02-01', received_date_end: '2024-01-01' } },
      'received_date_start',
    ],
  ],
  'tracker:manifests.list': [
    [{ pageInfo: { page: 0 } }, 'pageInfo.pageSize'],
    [{ pageInfo, filterFields: { names: ['x'] } }, 'names'],
  ],
  'tracker:manifests.lookup': [
    [{ field: 'generator_city', page: 1 }, 'field'],
    [{ field: 'transporter_name', page: 'first' }, 'page'],
  ],
  'tracker:requests.cancel': [
    [undefined, 'input'],
    [{ id: '' }, 'id'],
    [{ id: 'x'.repeat(65) }, 'id'],
    [{ id: '../other-window' }, 'id'],
    [{ id: 'a', sender: 2 }, 'sender'],
  ],
  'tracker:exports.grid': [
    [{ list: 'generators', format: 'xlsx', fields: [] }, 'choose at least one column'],
    [{ list: 'generators', format: 'pdf', fields: ['generator_name'] }, 'format'],
    [{ list: 'manifests', format: 'csv', fields: ['waste_lines'] }, 'fields'],
    [{ list: 'manifests', format: 'csv', fields: ['generator_name'], path: '/etc/passwd' }, 'path'],
    [{ list: 'facilities', format: 'csv', fields: ['generator_name'] }, 'list'],
  ],
  'tracker:exports.profile': [
    [{}, 'handler_id'],
    [{ handler_id: 'CAD1', path: '/tmp/x.xlsx' }, 'path'],
  ],
  'tracker:exports.cancel': [
    [{ id: 'not-an-export' }, 'id'],
    [{}, 'id'],
  ],
  'tracker:exports.offlineStart': [
    [{ query: { list: 'generators', format: 'xlsx', fields: ['generator_name'] } }, 'savedAt'],
    [{ query: { list: 'generators', format: 'xlsx', fields: [] }, savedAt: 1 }, 'choose at least one column'],
    [{ query: { list: 'generators', format: 'xlsx', fields: ['generator_name'] }, savedAt: -1 }, 'savedAt'],
    [
      { query: { list: 'manifests', format: 'csv', fields: ['generator_name'] }, savedAt: 1, path: '/tmp/x' },
      'path',
    ],
  ],
  'tracker:exports.offlineChunk': [
    [{ id: 'not-an-export', total: 0, rows: [] }, 'id'],
    [{ id: EXPORT_ID, total: 0 }, 'rows'],
    [{ id: EXPORT_ID, total: -1, rows: [] }, 'total'],
    [{ id: EXPORT_ID, total: 251, rows: Array.from({ length: 251 }, () => ({})) }, 'rows'],
  ],
  'tracker:exports.offlineEnd': [
    [{}, 'id'],
    [{ id: EXPORT_ID, failure: '' }, 'failure'],
    [{ id: EXPORT_ID, failure: 'x'.repeat(1001) }, 'failure'],
  ],
  'tracker:shell.openExternal': [
    [{}, 'url'],
    [{ url: 5 }, 'url'],
    [{ url: 'https://example.gov/', target: '_blank' }, 'target'],
  ],
};

describe('IPC registration core', () => {
  it('has a channel for every method of the contract, named by channelOf', () => {
    expect([...channelTable(realHandlers).keys()].sort()).toEqual([...allChannels].sort());
  });

  it('has invalid-input cases for every method (a new method must bring its own)', () => {
    expect(Object.keys(invalidInputs).sort()).toEqual([...allChannels].sort());
  });

  const cases = Object.entries(invalidInputs).flatMap(([channel, inputs]) =>
    inputs.map(([input, names]) => ({ channel, input, names })),
  );
  it.each(cases)(
    '$channel refuses $input with bad-request naming "$names"',
    async ({ channel, input, names }) => {
      const { handlers, spies } = spyHandlers();
      const result = await channelTable(handlers).get(channel)!.invoke(input, context);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.kind).toBe('bad-request');
        expect(result.error.message).toContain(names);
      }
      expect(spies.get(channel)).not.toHaveBeenCalled();
    },
  );

  it('hands the handler the parsed input, defaults applied', async () => {
    const { handlers, spies } = spyHandlers();
    const channel = channelOf('generators', 'aggregate');
    await channelTable(handlers).get(channel)!.invoke({}, context);
    expect(spies.get(channel)).toHaveBeenCalledWith(
      { filterFields: {}, searchKey: '' },
      expect.objectContaining({ signal: undefined }),
    );
  });

  it.each([
    [
      'a cancellable method given a bad request id',
      'generators',
      'aggregate',
      { requestId: 'a b' },
      'requestId',
    ],
    [
      'a cancellable method given unknown options',
      'generators',
      'list',
      { requestId: 'r1', priority: 1 },
      'priority',
    ],
    ['a method that takes no options', 'session', 'status', { requestId: 'r1' }, 'no options'],
  ] as const)('refuses %s', async (_name, group, method, options, names) => {
    const { handlers, spies } = spyHandlers();
    const input = method === 'list' ? { pageInfo } : method === 'status' ? undefined : {};
    const result = await channelTable(handlers)
      .get(channelOf(group, method))!
      .invoke(input, context, { options, requests: createSenderRequests() });
    expect(result).toMatchObject({ ok: false, error: { kind: 'bad-request' } });
    if (!result.ok) expect(result.error.message).toContain(names);
    expect(spies.get(channelOf(group, method))).not.toHaveBeenCalled();
  });

  it('refuses a request id its sender already has in flight', async () => {
    const { handlers } = spyHandlers();
    let release = () => undefined as void;
    handlers.generators.aggregate = () =>
      new Promise((resolve) => (release = () => resolve({ ok: true, data: TOTALS })));
    const table = channelTable(handlers);
    const caller = { options: { requestId: 'r1' }, requests: createSenderRequests() };
    const first = table.get(channelOf('generators', 'aggregate'))!.invoke({}, context, caller);
    const second = await table.get(channelOf('generators', 'aggregate'))!.invoke({}, context, caller);
    expect(second).toMatchObject({ ok: false, error: { kind: 'bad-request' } });
    release();
    await expect(first).resolves.toMatchObject({ ok: true });
  });

  it('turns a handler that throws into a server error without its stack or message', async () => {
    const { handlers } = spyHandlers();
    handlers.session.status = () => Promise.reject(new Error('secret internals at /home/user'));
    const log = vi.fn();
    const result = await channelTable(handlers, log)
      .get(channelOf('session', 'status'))!
      .invoke(undefined, context);
    expect(result).toEqual({
      ok: false,
      error: { kind: 'server', message: 'Something went wrong inside the app; the details are in its log.' },
    });
    expect(log).toHaveBeenCalledOnce();
  });
});

describe('IPC sender check', () => {
  const mainFrame: FrameLike = { url: APP_ENTRY_URL, processId: 4, routingId: 1 };
  const origins = trustedOrigins(undefined);

  function registered(getMainFrame: () => FrameLike | undefined) {
    const { handlers, spies } = spyHandlers();
    const listeners = new Map<
      string,
      (event: { senderFrame: FrameLike | null }, input: unknown, options?: unknown) => Promise<unknown>
    >();
    const foreign: string[] = [];
    // One table per process, as the Electron adapter keeps one per webContents.
    const tables = new Map<number, SenderRequests>();
    const channels = registerHandlers<{ senderFrame: FrameLike | null }>({
      registrar: { handle: (channel, listener) => void listeners.set(channel, listener) },
      handlers,
      context,
      isTrustedSender: (event) => isTrustedSender(event.senderFrame, getMainFrame(), origins),
      requestsOf: ({ senderFrame }) => {
        const key = senderFrame?.processId ?? -1;
        if (!tables.has(key)) tables.set(key, createSenderRequests());
        return tables.get(key)!;
      },
      onForeignSender: (channel) => foreign.push(channel),
    });
    return { listeners, spies, foreign, channels };
  }

  it("a sender's cancel stops its own request and never another sender's", async () => {
    const otherWindow: FrameLike = { url: APP_ENTRY_URL, processId: 7, routingId: 1 };
    const trusted = [mainFrame, otherWindow];
    const { handlers } = spyHandlers();
    handlers.requests.cancel = realHandlers.requests.cancel;
    const signals: AbortSignal[] = [];
    const listening = new Map<
      string,
      (event: { senderFrame: FrameLike | null }, ...args: unknown[]) => Promise<unknown>
    >();
    const tables = new Map<number, SenderRequests>();
    handlers.generators.detail = (_input, { signal }) => {
      signals.push(signal!);
      return new Promise((resolve) =>
        signal!.addEventListener('abort', () =>
          resolve({ ok: false, error: { kind: 'cancelled', message: 'cancelled' } }),
        ),
      );
    };
    registerHandlers<{ senderFrame: FrameLike | null }>({
      registrar: { handle: (channel, listener) => void listening.set(channel, listener) },
      handlers,
      context,
      isTrustedSender: (event) => trusted.includes(event.senderFrame!),
      requestsOf: ({ senderFrame }) => {
        const key = senderFrame!.processId;
        if (!tables.has(key)) tables.set(key, createSenderRequests());
        return tables.get(key)!;
      },
    });
    const detail = listening.get(channelOf('generators', 'detail'))!;
    const cancel = listening.get(channelOf('requests', 'cancel'))!;
    // Both windows happen to choose the same id; each id belongs to its own sender.
    const mine = detail({ senderFrame: mainFrame }, { handler_id: 'A' }, { requestId: 'r1' });
    const theirs = detail({ senderFrame: otherWindow }, { handler_id: 'B' }, { requestId: 'r1' });
    await expect(cancel({ senderFrame: otherWindow }, { id: 'r1' })).resolves.toEqual({
      ok: true,
      data: null,
    });
    await expect(theirs).resolves.toMatchObject({ ok: false, error: { kind: 'cancelled' } });
    expect(signals.map((signal) => signal.aborted)).toEqual([false, true]);
    await cancel({ senderFrame: mainFrame }, { id: 'r1' });
    await expect(mine).resolves.toMatchObject({ ok: false, error: { kind: 'cancelled' } });
  });

  it('a cancel that overtakes its request still stops it', () => {
    const requests = createSenderRequests();
    requests.cancel('early');
    expect(requests.start('early')?.signal.aborted).toBe(true);
    expect(requests.start('other')?.signal.aborted).toBe(false);
  });

  it('registers one listener per contract channel', () => {
    const { channels, listeners } = registered(() => mainFrame);
    expect(channels.sort()).toEqual([...allChannels].sort());
    expect([...listeners.keys()].sort()).toEqual([...allChannels].sort());
  });

  it("answers our window's main frame", async () => {
    const { listeners, spies } = registered(() => mainFrame);
    const channel = channelOf('session', 'status');
    await expect(listeners.get(channel)!({ senderFrame: mainFrame }, undefined)).resolves.toEqual({
      ok: true,
      data: undefined,
    });
    expect(spies.get(channel)).toHaveBeenCalledOnce();
  });

  it.each([
    ['a subframe of our window', { url: `${APP_ENTRY_URL}#frame`, processId: 4, routingId: 2 }],
    ['another process', { url: APP_ENTRY_URL, processId: 9, routingId: 1 }],
    ['our main frame showing a remote page', { url: 'https://evil.example/', processId: 4, routingId: 1 }],
    ['our main frame showing a file', { url: 'file:///tmp/index.html', processId: 4, routingId: 1 }],
    ['a frame with no URL', { url: '', processId: 4, routingId: 1 }],
    ['a destroyed frame', null],
  ])('ignores %s: no handler runs, no answer', async (_name, senderFrame) => {
    const { listeners, spies, foreign } = registered(() => mainFrame);
    const channel = channelOf('session', 'signOut');
    await expect(listeners.get(channel)!({ senderFrame }, undefined)).resolves.toBeUndefined();
    expect(spies.get(channel)).not.toHaveBeenCalled();
    expect(foreign).toEqual([channel]);
  });

  it('ignores everyone while our window is closed', async () => {
    const { listeners, spies } = registered(() => undefined);
    const channel = channelOf('session', 'status');
    await expect(listeners.get(channel)!({ senderFrame: mainFrame }, undefined)).resolves.toBeUndefined();
    expect(spies.get(channel)).not.toHaveBeenCalled();
  });

  it('trusts the dev server only when it is one of the origins', () => {
    const devFrame: FrameLike = { url: 'http://localhost:5173/', processId: 4, routingId: 1 };
    expect(isTrustedSender(devFrame, devFrame, trustedOrigins(undefined))).toBe(false);
    expect(isTrustedSender(devFrame, devFrame, trustedOrigins('http://localhost:5173'))).toBe(true);
  });

  it('treats a frame that throws on access as foreign', () => {
    const dead = {
      get url(): string {
        throw new Error('Render frame was disposed before WebFrameMain could be accessed');
      },
      processId: 4,
      routingId: 1,
    };
    expect(isTrustedSender(dead, mainFrame, origins)).toBe(false);
  });
});
