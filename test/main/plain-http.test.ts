/**
 * Plain http:// to another computer: refused for sign-in and as the saved server address until the user
 * confirms the warning for that server, then kept per server; loopback and https:// need nothing. The
 * "other computer" is a name that the test's transport sends to the reference server on loopback, so no
 * traffic leaves this machine.
 */
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { PLAIN_HTTP_MESSAGES, plainHttpAllowed, plainHttpOrigin } from '../../shared/ipc/plain-http.ts';
import { startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import { DEMO_USERS, createTestApp, temporaryFolder, type TestApp } from './support.ts';

const REMOTE = 'http://tracker.example.test:8080';

let server: TrackerServer;
let folder: Awaited<ReturnType<typeof temporaryFolder>>;
let app: TestApp;
/** What reached the server, by the address the app asked for. */
const asked: string[] = [];

beforeAll(async () => {
  server = await startTrackerServer({ manifests: 50 });
}, 60_000);
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  asked.length = 0;
  folder = await temporaryFolder();
  app = await createTestApp({
    dir: folder.dir,
    baseUrl: server.baseUrl,
    client: {
      fetch: (input, init) => {
        const url = new URL(input instanceof Request ? input.url : input);
        asked.push(url.origin);
        return fetch(`${server.baseUrl}${url.pathname}${url.search}`, init);
      },
    },
  });
});
afterEach(async () => {
  await folder.remove();
});

describe('which addresses need a confirmation', () => {
  it.each([
    ['http://tracker.example.gov', 'http://tracker.example.gov'],
    ['http://10.0.0.5:4010/api/', 'http://10.0.0.5:4010'],
    ['https://tracker.example.gov', undefined],
    ['http://127.0.0.1:4010', undefined],
    ['http://127.8.9.10', undefined],
    ['http://localhost:4010', undefined],
    ['http://app.localhost', undefined],
    ['http://[::1]:4010', undefined],
    ['not a url', undefined],
  ])('%s → %s', (address, origin) => {
    expect(plainHttpOrigin(address)).toBe(origin);
    expect(plainHttpAllowed(address, [])).toBe(origin === undefined);
  });
});

describe('plain http:// to another computer', () => {
  it('refuses to sign in without the confirmation, and sends nothing', async () => {
    const answer = await app.invoke('session', 'signIn', {
      ...DEMO_USERS.inspector,
      baseUrl: REMOTE,
      remember: false,
    });
    expect(answer).toEqual({
      ok: false,
      error: { kind: 'bad-request', message: PLAIN_HTTP_MESSAGES.refused(REMOTE) },
    });
    expect(asked).toEqual([]);
  });

  it('signs in once confirmed, and keeps the confirmation for that server', async () => {
    const answer = await app.invoke('session', 'signIn', {
      ...DEMO_USERS.inspector,
      baseUrl: `${REMOTE}/`,
      remember: false,
      allowPlainHttp: true,
    });
    expect(answer).toMatchObject({ ok: true, data: { signedIn: true, baseUrl: `${REMOTE}/` } });
    expect(app.settings.get()).toMatchObject({ apiBaseUrl: `${REMOTE}/`, plainHttpServers: [REMOTE] });
    await app.invoke('session', 'signOut');
    // Next time, the same server needs no new confirmation.
    expect(await app.invoke('session', 'signIn', { ...DEMO_USERS.inspector, remember: false })).toMatchObject(
      {
        ok: true,
      },
    );
  });

  it('saves it as the server address only with its confirmation', async () => {
    expect(await app.invoke('settings', 'set', { apiBaseUrl: REMOTE })).toEqual({
      ok: false,
      error: { kind: 'bad-request', message: PLAIN_HTTP_MESSAGES.refused(REMOTE) },
    });
    expect(app.settings.get().apiBaseUrl).toBe(server.baseUrl);
    expect(
      await app.invoke('settings', 'set', { apiBaseUrl: REMOTE, plainHttpServers: [REMOTE] }),
    ).toMatchObject({
      ok: true,
      data: { apiBaseUrl: REMOTE },
    });
    // Another setting saves as ever.
    expect(await app.invoke('settings', 'set', { pageSize: 50 })).toMatchObject({ ok: true });
  });

  it('needs nothing for loopback', async () => {
    expect(await app.invoke('session', 'signIn', { ...DEMO_USERS.inspector, remember: false })).toMatchObject(
      {
        ok: true,
      },
    );
    expect(app.settings.get().plainHttpServers).toEqual([]);
  });
});
