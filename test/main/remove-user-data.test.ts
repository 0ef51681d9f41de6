/**
 * Main's half of removing a user's data: "Sign out and remove my data", or any sign-out with the setting
 * that asks for it, tells the renderer in the sign-out event and leaves nothing of the user's in the app's
 * export folder; the bridge's downloads are streamed once and removed, and none waits after a removal or
 * across a restart.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BridgeDownloads } from '../../main/src/bridge/downloads.ts';
import { startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import { DEMO_USERS, createTestApp, temporaryFolder, type TestApp } from './support.ts';

let server: TrackerServer;
let folder: Awaited<ReturnType<typeof temporaryFolder>>;
let app: TestApp;

beforeAll(async () => {
  server = await startTrackerServer({ manifests: 50 });
}, 60_000);
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  folder = await temporaryFolder();
  app = await createTestApp({ dir: folder.dir, baseUrl: server.baseUrl });
  await app.invoke('session', 'signIn', { ...DEMO_USERS.inspector, remember: false });
  // What a running export keeps in the app's folder.
  await mkdir(join(folder.dir, 'exports'), { recursive: true });
  await writeFile(join(folder.dir, 'exports', '.Manifests.xlsx.0123abcd.part.cells'), 'waste lines');
});
afterEach(async () => {
  await folder.remove();
});

const lastSignOut = () => app.events.filter(({ event }) => event === 'session.changed').at(-1)?.payload;

describe('removing the user’s data in main', () => {
  it('asks the renderer to remove it and empties the export folder', async () => {
    expect(await app.invoke('session', 'signOutAndRemoveData')).toMatchObject({
      ok: true,
      data: { signedIn: false },
    });
    expect(lastSignOut()).toMatchObject({ reason: 'signed-out', removeData: true });
    expect(await readdir(join(folder.dir, 'exports'))).toEqual([]);
  });

  it('does so at every sign-out when the setting asks for it, and not otherwise', async () => {
    await app.invoke('session', 'signOut');
    expect(lastSignOut()).toEqual({ status: expect.anything() as unknown, reason: 'signed-out' });
    expect(await readdir(join(folder.dir, 'exports'))).toHaveLength(1);

    await app.invoke('settings', 'set', { removeDataOnSignOut: true });
    await app.invoke('session', 'signIn', { ...DEMO_USERS.inspector, remember: false });
    await app.invoke('session', 'signOut');
    expect(lastSignOut()).toMatchObject({ reason: 'signed-out', removeData: true });
    expect(await readdir(join(folder.dir, 'exports'))).toEqual([]);
  });
});

describe('the bridge’s downloads', () => {
  it('are streamed once and removed, swept at start, and removed with the user’s data', async () => {
    const downloads = new BridgeDownloads(folder.dir);
    await mkdir(join(downloads.folder, 'left-by-a-killed-bridge'), { recursive: true });
    await writeFile(join(downloads.folder, 'left-by-a-killed-bridge', 'Manifests.xlsx'), 'old');
    await downloads.sweep();
    expect(await readdir(downloads.folder)).toEqual([]);

    const file = async (id: string, content: string) => {
      await mkdir(join(downloads.folder, id));
      await writeFile(join(downloads.folder, id, 'Generators.csv'), content);
      downloads.add(id, join(downloads.folder, id, 'Generators.csv'));
    };
    await file('a', 'x'.repeat(300_000));
    await file('b', 'never fetched');
    const http = createServer(
      (request, response) => void downloads.serve(response, request.url?.slice(1) ?? ''),
    );
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
      const first = await fetch(`${url}/a`);
      expect(first.headers.get('content-length')).toBe('300000');
      expect(first.headers.get('content-disposition')).toContain('Generators.csv');
      expect((await first.text()).length).toBe(300_000);
      await expect.poll(() => readdir(downloads.folder)).toEqual(['b']);
      expect((await fetch(`${url}/a`)).status).toBe(404);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
    // An export that failed leaves nothing either.
    await mkdir(join(downloads.folder, 'c'));
    await downloads.discard(join(downloads.folder, 'c', 'Manifests.xlsx'));
    expect(await readdir(downloads.folder)).toEqual(['b']);
    await downloads.removeAll();
    expect(await readdir(downloads.folder)).toEqual([]);
    await expect(readFile(join(downloads.folder, 'b', 'Generators.csv'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});
