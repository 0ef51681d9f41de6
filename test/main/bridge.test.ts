/**
 * The loopback browser bridge from plain Node: who it refuses (no secret, a wrong secret, a foreign Host
 * or Origin, over HTTP and on the event socket), where it listens, and that a call through it meets the
 * same validation and handlers as a call over Electron's IPC.
 */
import { request as httpRequest } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Script } from 'node:vm';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { channelOf, eventChannelOf, type Result } from '../../shared/ipc/contract.ts';
import { bridgeContentSecurityPolicy, withPreload } from '../../main/src/bridge/page.ts';
import { startBridge, type RunningBridge } from '../../main/src/bridge/server.ts';
import { handlers as realHandlers, type Handlers } from '../../main/src/ipc/handlers.ts';
import { CONTENT_SECURITY_POLICY } from '../../main/src/security/policy.ts';
import { DEMO_USERS } from './support.ts';
import { startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';

const RENDERER_HTML = `<!doctype html><html><head><title>t</title>
<script type="module" src="./assets/index.js"></script></head><body></body></html>`;
const PRELOAD = "require('electron'); /* the preload bundle */";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so the test controls every header (fetch may not set Host). */
function send(
  port: number,
  options: { path: string; method?: string; headers?: Record<string, string>; body?: string; host?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: options.host ?? '127.0.0.1',
        port,
        path: options.path,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

let folder: string;
let server: TrackerServer;
let bridge: RunningBridge;
const logged: string[] = [];

function ownHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { origin: bridge.origin, 'content-type': 'application/json', ...extra };
}

function invoke(channel: string, input?: unknown, headers = ownHeaders()): Promise<Answer> {
  return send(bridge.port, {
    path: `/${bridge.secret}/__bridge/invoke`,
    method: 'POST',
    headers,
    body: JSON.stringify({ channel, input }),
  });
}

/** Resolves with the socket once open, or with the HTTP status the upgrade was refused with. */
function openSocket(path: string, origin: string | undefined): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${bridge.port}${path}`, origin ? { origin } : {});
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', reject);
  });
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'bridge-test-'));
  await mkdir(join(folder, 'renderer'));
  await writeFile(join(folder, 'renderer', 'index.html'), RENDERER_HTML);
  await writeFile(join(folder, 'preload.cjs'), PRELOAD);
  await writeFile(join(folder, 'secret.txt'), 'outside the renderer');
  server = await startTrackerServer({ manifests: 300 });
  bridge = await startBridge({
    rendererRoot: join(folder, 'renderer'),
    preloadFile: join(folder, 'preload.cjs'),
    apiBaseUrl: server.baseUrl,
    log: (message) => logged.push(message),
  });
});

afterAll(async () => {
  await bridge?.close();
  await server?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('the bridge listens', () => {
  it('on 127.0.0.1 only, with a 32-byte secret in the URL it prints', async () => {
    expect(bridge.origin).toBe(`http://127.0.0.1:${bridge.port}`);
    expect(Buffer.from(bridge.secret, 'base64url')).toHaveLength(32);
    expect(bridge.url).toBe(`${bridge.origin}/${bridge.secret}/`);
    // The rest of 127.0.0.0/8 reaches the same interface; a socket bound to 127.0.0.1 alone refuses it.
    await expect(send(bridge.port, { host: '127.0.0.2', path: '/' })).rejects.toThrow(/ECONNREFUSED/);
  });

  it('or not at all, when its port is taken', async () => {
    await expect(
      startBridge({ rendererRoot: folder, preloadFile: join(folder, 'preload.cjs'), port: bridge.port }),
    ).rejects.toThrow(/EADDRINUSE/);
  });
});

describe('the bridge refuses', () => {
  const withoutSecret: [string, () => string][] = [
    ['no secret', () => '/'],
    ['no secret, a renderer file', () => '/index.html'],
    ['a wrong secret', () => `/${'A'.repeat(bridge.secret.length)}/`],
    ['a truncated secret', () => `/${bridge.secret.slice(0, -1)}/`],
    ['the secret in the query', () => `/?secret=${bridge.secret}`],
  ];
  it.each(withoutSecret)('a page request with %s', async (_name, path) => {
    const answer = await send(bridge.port, { path: path() });
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain('<html');
  });

  it('an invocation without the secret, even from its own origin', async () => {
    const answer = await send(bridge.port, {
      path: '/__bridge/invoke',
      method: 'POST',
      headers: ownHeaders(),
      body: JSON.stringify({ channel: channelOf('session', 'status') }),
    });
    expect(answer.status).toBe(403);
  });

  const foreign: [string, Record<string, string>][] = [
    ['another Host (DNS rebinding)', { host: 'tracker.example.com' }],
    ['localhost as Host', { host: 'localhost' }],
    ['another origin', { origin: 'http://evil.example' }],
    ['another local port', { origin: 'http://127.0.0.1:1' }],
  ];
  it.each(foreign)('a request naming %s', async (_name, headers) => {
    const host = headers.host ? `${headers.host}:${bridge.port}` : undefined;
    const page = await send(bridge.port, {
      path: `/${bridge.secret}/`,
      headers: { ...headers, ...(host ? { host } : {}) },
    });
    expect(page.status).toBe(403);
    const call = await invoke(
      channelOf('session', 'status'),
      undefined,
      ownHeaders({ ...headers, ...(host ? { host } : {}) }),
    );
    expect(call.status).toBe(403);
  });

  it('an invocation with no Origin, which no browser page would send', async () => {
    const { origin: _origin, ...headers } = ownHeaders();
    expect((await invoke(channelOf('session', 'status'), undefined, headers)).status).toBe(403);
  });

  it('an event socket without the secret, with a wrong one, or from another origin', async () => {
    expect(await openSocket('/__bridge/events', bridge.origin)).toBe(403);
    expect(await openSocket(`/${'B'.repeat(bridge.secret.length)}/__bridge/events`, bridge.origin)).toBe(403);
    expect(await openSocket(`/${bridge.secret}/__bridge/events`, 'http://evil.example')).toBe(403);
    expect(await openSocket(`/${bridge.secret}/__bridge/events`, undefined)).toBe(403);
  });

  it('files outside the renderer, however the path is spelled', async () => {
    const paths = [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/..%5csecret.txt',
      '/__bridge/x',
    ];
    for (const path of paths) {
      const answer = await send(bridge.port, { path: `/${bridge.secret}${path}` });
      expect(answer.status, path).toBe(404);
    }
  });

  it('a body that is not a JSON invocation, and a channel the contract does not have', async () => {
    const plain = await invoke(
      channelOf('session', 'status'),
      undefined,
      ownHeaders({ 'content-type': 'text/plain' }),
    );
    expect(plain.status).toBe(415);
    const unknown = await invoke('tracker:session.steal');
    expect(unknown.status).toBe(404);
    const get = await send(bridge.port, { path: `/${bridge.secret}/__bridge/invoke`, headers: ownHeaders() });
    expect(get.status).toBe(405);
    const huge = await send(bridge.port, {
      path: `/${bridge.secret}/__bridge/invoke`,
      method: 'POST',
      headers: ownHeaders(),
      body: JSON.stringify({ channel: channelOf('session', 'status'), input: 'x'.repeat(2 * 1024 * 1024) }),
    }).catch((error: unknown) => error);
    // Refused with 413, or cut off mid-upload; either way nothing was invoked.
    if (!(huge instanceof Error)) expect((huge as Answer).status).toBe(413);
  });
});

describe('the bridge serves', () => {
  it('the renderer with the preload before its first script, under the app CSP plus its own socket', async () => {
    const answer = await send(bridge.port, { path: `/${bridge.secret}/` });
    expect(answer.status).toBe(200);
    const preloadAt = answer.body.indexOf('<script src="./__bridge/preload.js"></script>');
    expect(preloadAt).toBeGreaterThan(0);
    expect(preloadAt).toBeLessThan(answer.body.indexOf('<script type="module"'));
    const csp = String(answer.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${bridge.port};`);
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('the bare secret by redirecting to its folder, so relative URLs keep the secret', async () => {
    const answer = await send(bridge.port, { path: `/${bridge.secret}` });
    expect(answer.status).toBe(308);
    expect(answer.headers.location).toBe(`/${bridge.secret}/`);
  });

  it('the shim followed by the real preload bundle, with require answered by the shim', async () => {
    const answer = await send(bridge.port, { path: `/${bridge.secret}/__bridge/preload.js` });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
    expect(answer.body).toContain('function createBridgeElectron()');
    expect(answer.body).toContain(PRELOAD);
    // Compiles as a classic script (not run: it needs a page).
    expect(() => new Script(answer.body)).not.toThrow();
  });
});

describe('calls through the bridge', () => {
  it('meet the contract validation: invalid input is a bad-request result naming the member', async () => {
    const answer = await invoke(channelOf('generators', 'list'), {
      pageInfo: { page: 0, pageSize: 100_000 },
    });
    expect(answer.status).toBe(200);
    const result = JSON.parse(answer.body) as Result<unknown>;
    if (result.ok) throw new Error('an invalid input was accepted');
    expect(result.error.kind).toBe('bad-request');
    expect(result.error.message).toMatch(/^pageInfo\.pageSize: /);
    const smuggled = await invoke(channelOf('session', 'signIn'), {
      ...DEMO_USERS.inspector,
      remember: false,
      token: 'smuggled',
    });
    expect(JSON.parse(smuggled.body)).toMatchObject({ ok: false, error: { kind: 'bad-request' } });
  });

  it('reach the server, push session.changed to the event socket, and refuse to remember a sign-in', async () => {
    const socket = await openSocket(`/${bridge.secret}/__bridge/events`, bridge.origin);
    if (typeof socket === 'number') throw new Error(`the socket was refused with ${socket}`);
    const received = new Promise<unknown>((resolve) =>
      socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString()))),
    );
    const remembered = await invoke(channelOf('session', 'signIn'), {
      ...DEMO_USERS.inspector,
      remember: true,
    });
    const refused = JSON.parse(remembered.body) as Result<unknown>;
    if (refused.ok) throw new Error('a sign-in was remembered without a key store');
    expect(refused.error).toMatchObject({ kind: 'bad-request' });
    expect(refused.error.message).toContain('cannot keep you signed in');
    const signedIn = await invoke(channelOf('session', 'signIn'), {
      ...DEMO_USERS.inspector,
      remember: false,
    });
    expect(JSON.parse(signedIn.body)).toMatchObject({
      ok: true,
      data: { signedIn: true, username: 'inspector' },
    });
    expect(await received).toMatchObject({
      channel: eventChannelOf('session.changed'),
      payload: { reason: 'signed-in', status: { signedIn: true } },
    });
    socket.close();
    const list = await invoke(channelOf('generators', 'list'), { pageInfo: { page: 0, pageSize: 5 } });
    const body = JSON.parse(list.body) as {
      ok: boolean;
      data: { totalElements: unknown; content: unknown[] };
    };
    expect(body.ok, list.body).toBe(true);
    expect(typeof body.data.totalElements).toBe('number');
    expect(body.data.content).toHaveLength(5);
  });

  it('log why a caller was refused, never the secret', () => {
    expect(logged.some((line) => line.includes('refused'))).toBe(true);
    expect(logged.join('\n')).not.toContain(bridge.secret);
  });
});

describe("a page's request over the bridge", () => {
  it("is cancelled by the page's requests.cancel with its id: the handler's signal fires", async () => {
    const started: AbortSignal[] = [];
    const handlers: Handlers = {
      ...realHandlers,
      generators: {
        ...realHandlers.generators,
        // Answers only when cancelled, so the test needs no timing.
        detail: (_input, { signal }) =>
          new Promise((resolve) => {
            started.push(signal!);
            signal!.addEventListener('abort', () =>
              resolve({ ok: false, error: { kind: 'cancelled', message: 'cancelled' } }),
            );
          }),
      },
    };
    const own = await startBridge({
      rendererRoot: join(folder, 'renderer'),
      preloadFile: join(folder, 'preload.cjs'),
      apiBaseUrl: server.baseUrl,
      handlers,
      log: () => undefined,
    });
    try {
      const call = (channel: string, input: unknown, options?: unknown) =>
        send(own.port, {
          path: `/${own.secret}/__bridge/invoke`,
          method: 'POST',
          headers: { origin: own.origin, 'content-type': 'application/json' },
          body: JSON.stringify({ channel, input, options }),
        });
      const pending = call(
        channelOf('generators', 'detail'),
        { handler_id: 'TXD000000001' },
        { requestId: 'r7' },
      );
      while (started.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const cancelled = await call(channelOf('requests', 'cancel'), { id: 'r7' });
      expect(JSON.parse(cancelled.body)).toEqual({ ok: true, data: null });
      expect(started[0]?.aborted).toBe(true);
      expect(JSON.parse((await pending).body)).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
    } finally {
      await own.close();
    }
  });
});

describe('the page the bridge builds', () => {
  it('puts the preload before the first script, else at the end of <head>, and refuses a page with neither', () => {
    const tag = '<script src="./__bridge/preload.js"></script>';
    expect(withPreload('<head></head><body><script type="module" src="a.js"></script></body>')).toMatch(
      new RegExp(`^<head></head><body>${tag}\\s*<script type="module"`),
    );
    expect(withPreload('<html><HEAD><title>t</title></HEAD></html>')).toContain(`${tag}\n  </HEAD>`);
    expect(() => withPreload('<p>no head</p>')).toThrow(/neither/);
  });

  it("keeps the app's CSP and adds only the bridge's own socket to connect-src", () => {
    const csp = bridgeContentSecurityPolicy('http://127.0.0.1:4321');
    expect(csp.replace(' ws://127.0.0.1:4321', '')).toBe(CONTENT_SECURITY_POLICY);
    expect(csp).toContain("connect-src 'self' ws://127.0.0.1:4321;");
  });
});
