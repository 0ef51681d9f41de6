/**
 * "Test connection" in the settings, against real servers over real HTTP: the reference server, a web
 * server that is not a tracker API, and an address where nothing listens. Nothing is saved or signed in.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
