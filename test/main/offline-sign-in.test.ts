/**
 * Signing in on this computer alone, against the reference server: a user who has signed in here once opens
 * their saved data with the same password while the server refuses or hangs, and nothing is sent to it; a
 * wrong password, a user who never signed in here, a password the server has since refused and a sign-out
 * that removed the user's data all open nothing. The verifier file is the owner's alone and holds neither
 * the password nor a token.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../shared/ipc/messages.ts';
import { startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import { DEMO_USERS, assertOk, createTestApp, temporaryFolder, type TestApp } from './support.ts';

const INSPECTOR = { ...DEMO_USERS.inspector, remember: false };
const GENERATORS_ONLY = { ...DEMO_USERS.generatorsOnly, remember: false };
/** A loopback port where nothing listens: a connection there is refused at once. */
const NOBODY = 'http://127.0.0.1:9';

let server: TrackerServer;
let folder: Awaited<ReturnType<typeof temporaryFolder>>;

beforeAll(async () => {
  server = await startTrackerServer({ manifests: 100 });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  folder = await temporaryFolder();
});
afterEach(() => folder.remove());

/**
 * The network between the app and the server: passing, refusing (as a stopped server does) or hanging (a
 * paused one); `sent` counts what reached the server.
 */
function network() {
  const state = { mode: 'passing' as 'passing' | 'refusing' | 'hanging', sent: 0 };
  const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (state.mode === 'refusing') return globalThis.fetch(`${NOBODY}${url.pathname}`, init);
    if (state.mode === 'hanging')
      return new Promise((_resolve, reject) => {
        const signal = init?.signal;
        signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    state.sent += 1;
    return globalThis.fetch(input, init);
  };
  return { state, fetch };
}

async function openApp(): Promise<{ app: TestApp; net: ReturnType<typeof network> }> {
  const net = network();
  const app = await createTestApp({ dir: folder.dir, baseUrl: server.baseUrl, client: { fetch: net.fetch } });
  return { app, net };
}

/** Signs in while the server answers, then out (keeping the saved data), as at the end of a day online. */
async function signedInOnceBefore(app: TestApp, user = INSPECTOR): Promise<void> {
  assertOk(await app.invoke('session', 'signIn', user));
  assertOk(await app.invoke('session', 'signOut'));
}

describe('signing in on this computer alone', () => {
  it('opens the saved data of a user who signed in here before, while the server refuses, sending nothing', async () => {
    const { app, net } = await openApp();
    await signedInOnceBefore(app);
    const online = assertOk(await app.invoke('session', 'status'));
    net.state.mode = 'refusing';
    app.events.length = 0;

    const status = assertOk(await app.invoke('session', 'signIn', INSPECTOR));
    expect(status).toEqual({
      signedIn: false,
      offline: true,
      username: INSPECTOR.username,
      scopes: ['generators', 'manifests'],
      baseUrl: online.baseUrl,
    });
    expect(app.events).toEqual([{ event: 'session.changed', payload: { status, reason: 'signed-in' } }]);
    expect(app.session.owner()).toEqual({ baseUrl: online.baseUrl, username: INSPECTOR.username });

    // Nothing goes to the server without a token, even once it answers again.
    net.state.mode = 'passing';
    const sent = net.state.sent;
    expect(await app.invoke('manifests', 'aggregate', {})).toMatchObject({
      ok: false,
      error: { kind: 'unauthorized', message: MESSAGES.signInFirst },
    });
    expect(net.state.sent).toBe(sent);

    // Signing in with the server back gives a token again.
    expect(assertOk(await app.invoke('session', 'signIn', INSPECTOR))).toMatchObject({ signedIn: true });
    expect(assertOk(await app.invoke('manifests', 'aggregate', {})).shipped_count).toBe(100);
  });

  it('while the server hangs, opens the saved data when asked, without waiting for the server', async () => {
    const { app, net } = await openApp();
    await signedInOnceBefore(app, GENERATORS_ONLY);
    net.state.mode = 'hanging';
    const status = assertOk(await app.invoke('session', 'signIn', { ...GENERATORS_ONLY, offline: true }));
    expect(status).toMatchObject({
      offline: true,
      username: GENERATORS_ONLY.username,
      scopes: ['generators'],
    });
  });

  it('refuses a wrong password, naming the user, and signs nobody in', async () => {
    const { app, net } = await openApp();
    await signedInOnceBefore(app);
    net.state.mode = 'refusing';
    app.events.length = 0;
    expect(await app.invoke('session', 'signIn', { ...INSPECTOR, password: 'not-it' })).toEqual({
      ok: false,
      error: { kind: 'unauthorized', message: MESSAGES.offlineWrongPassword(INSPECTOR.username) },
    });
    expect(app.session.status()).toMatchObject({ signedIn: false });
    expect(app.session.status().offline).toBeUndefined();
    expect(app.events).toEqual([]);
  });

  it('a user who never signed in here gets the server’s failure, or, asking for offline, why not', async () => {
    const { app, net } = await openApp();
    await signedInOnceBefore(app, GENERATORS_ONLY);
    net.state.mode = 'refusing';
    const refused = await app.invoke('session', 'signIn', INSPECTOR);
    expect(refused).toMatchObject({ ok: false, error: { kind: 'offline' } });
    const baseUrl = app.settings.get().apiBaseUrl;
    expect(await app.invoke('session', 'signIn', { ...INSPECTOR, offline: true })).toEqual({
      ok: false,
      error: { kind: 'bad-request', message: MESSAGES.noOfflineSignIn(INSPECTOR.username, baseUrl) },
    });
    expect(app.session.status().signedIn).toBe(false);
  });

  it('a password the server refused since no longer opens the saved data', async () => {
    const { app, net } = await openApp();
    await signedInOnceBefore(app);
    expect(
      await app.invoke('session', 'signIn', { ...INSPECTOR, password: 'changed-on-the-server' }),
    ).toMatchObject({ ok: false, error: { kind: 'unauthorized', message: MESSAGES.wrongCredentials } });
    net.state.mode = 'refusing';
    expect(await app.invoke('session', 'signIn', { ...INSPECTOR, offline: true })).toMatchObject({
      ok: false,
      error: { kind: 'bad-request' },
    });
  });

  it('signing out and removing the data removes the offline sign-in too; a plain sign-out keeps it', async () => {
    const { app, net } = await openApp();
    await signedInOnceBefore(app);
    net.state.mode = 'refusing';
    assertOk(await app.invoke('session', 'signIn', INSPECTOR));
    assertOk(await app.invoke('session', 'signOut'));
    assertOk(await app.invoke('session', 'signIn', INSPECTOR));
    assertOk(await app.invoke('session', 'signOutAndRemoveData'));
    expect(await app.invoke('session', 'signIn', { ...INSPECTOR, offline: true })).toMatchObject({
      ok: false,
      error: { kind: 'bad-request' },
    });
  });

  it('outlives a restart, which signs nobody in; changing the server address signs the offline user out', async () => {
    const { app, net } = await openApp();
    await signedInOnceBefore(app);
    const restarted = await app.restart();
    expect(restarted.session.status()).toMatchObject({ signedIn: false });
    net.state.mode = 'refusing';
    assertOk(await restarted.invoke('session', 'signIn', { ...INSPECTOR, offline: true }));
    assertOk(await restarted.invoke('settings', 'set', { apiBaseUrl: 'http://127.0.0.1:4999' }));
    expect(restarted.session.status()).toEqual({ signedIn: false, baseUrl: 'http://127.0.0.1:4999' });
  });

  it('keeps a verifier readable by its owner only, holding neither the password nor a token', async () => {
    const { app } = await openApp();
    await signedInOnceBefore(app);
    const file = join(app.dir, 'offline-sign-ins.json');
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(INSPECTOR.password);
    expect(text).not.toMatch(/token/i);
    expect(JSON.parse(text)).toMatchObject({
      version: 1,
      verifiers: [
        {
          username: INSPECTOR.username,
          salt: expect.any(String) as string,
          hash: expect.any(String) as string,
        },
      ],
    });
  });
});
