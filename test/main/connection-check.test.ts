/**
 * "Test connection" in the settings and the renderer's reachability probe, against real servers over real
 * HTTP: the reference server, a web server that is not a tracker API, an address where nothing listens, and
 * one that takes connections and never answers. Nothing is saved or signed in.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { PROBE_TIMEOUT_MS } from '../../main/src/settings/connection-check.ts';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import { createTestApp, temporaryFolder } from './support.ts';

let tracker: TrackerServer;
let other: Server;
let otherUrl: string;
let closedUrl: string;
let folder: Awaited<ReturnType<typeof temporaryFolder>>;

function listen(server: Server): Promise<string> {
  return new Promise((resolveUrl) =>
    server.listen({ host: '127.0.0.1', port: 0 }, () =>
      resolveUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

beforeAll(async () => {
  tracker = await startTrackerServer({ manifests: 100 });
  other = createServer((_request, response) => response.writeHead(404).end('no such page'));
  otherUrl = await listen(other);
  const closed = createServer();
  closedUrl = await listen(closed);
  await new Promise<void>((resolveClose) => closed.close(() => resolveClose()));
});
afterAll(async () => {
  await tracker?.close();
  await new Promise<void>((resolveClose) => other.close(() => resolveClose()));
});
beforeEach(async () => {
  folder = await temporaryFolder();
});
afterEach(() => folder.remove());

describe('settings.testConnection', () => {
  it('finds the tracker API at a working address, without signing in or saving it', async () => {
    const app = await createTestApp({ dir: folder.dir, baseUrl: 'http://127.0.0.1:9' });
    const answer = await app.invoke('settings', 'testConnection', { baseUrl: tracker.baseUrl });
    expect(answer).toEqual({
      ok: true,
      data: { message: `A tracker API answers at ${tracker.baseUrl}; sign in to use it.` },
    });
    expect(app.settings.get().apiBaseUrl).toBe('http://127.0.0.1:9');
    expect(app.session.status().signedIn).toBe(false);
  });

  it('says when a server answers but is no tracker API', async () => {
    const app = await createTestApp({ dir: folder.dir, baseUrl: tracker.baseUrl });
    const answer = await app.invoke('settings', 'testConnection', { baseUrl: otherUrl });
    expect(answer.ok).toBe(false);
    if (!answer.ok) {
      expect(answer.error.kind).toBe('not-found');
      expect(answer.error.message).toContain('no tracker API there');
    }
  });

  it('says when nothing answers', async () => {
    const app = await createTestApp({ dir: folder.dir, baseUrl: tracker.baseUrl });
    const answer = await app.invoke('settings', 'testConnection', { baseUrl: closedUrl });
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.kind).toBe('offline');
  });

  it.each([['file:///etc/passwd'], ['https://user:secret@example.gov'], ['not a url']])(
    'refuses %s before asking anything',
    async (baseUrl) => {
      const app = await createTestApp({ dir: folder.dir, baseUrl: tracker.baseUrl });
      const answer = await app.invoke('settings', 'testConnection', { baseUrl });
      expect(answer.ok).toBe(false);
      if (!answer.ok) expect(answer.error.kind).toBe('bad-request');
    },
  );
});

describe('session.probe', () => {
  it('is answered by a server that answers anything, a refusal included', async () => {
    for (const baseUrl of [tracker.baseUrl, otherUrl]) {
      const app = await createTestApp({ dir: folder.dir, baseUrl });
      expect(await app.invoke('session', 'probe')).toEqual({ ok: true, data: null });
    }
  });

  it('says when nothing listens', async () => {
    const app = await createTestApp({ dir: folder.dir, baseUrl: closedUrl });
    expect(await app.invoke('session', 'probe')).toMatchObject({ ok: false, error: { kind: 'offline' } });
  });

  it('gives up on a server that takes the connection and never answers, long before the request timeout', async () => {
    const held = new Set<Socket>();
    const hanging = createTcpServer((socket) => held.add(socket));
    const port = await new Promise<number>((resolvePort) =>
      hanging.listen(0, '127.0.0.1', () => resolvePort((hanging.address() as AddressInfo).port)),
    );
    try {
      const app = await createTestApp({ dir: folder.dir, baseUrl: `http://127.0.0.1:${port}` });
      expect(app.settings.get().requestTimeoutMs).toBeGreaterThan(2 * PROBE_TIMEOUT_MS);
      const started = Date.now();
      expect(await app.invoke('session', 'probe')).toMatchObject({ ok: false, error: { kind: 'timeout' } });
      expect(Date.now() - started).toBeLessThan(2 * PROBE_TIMEOUT_MS);
      expect(held.size).toBeGreaterThan(0);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolveClose) => hanging.close(() => resolveClose()));
    }
  });
});
