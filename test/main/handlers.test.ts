import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENCRYPTION_UNAVAILABLE_MESSAGE } from '../../main/src/session/token-store.ts';
import { DEMO_USERS, createTestApp, fakeEncryption, temporaryFolder } from './support.ts';

/** A fetch that must not be reached: these handlers answer without the network. */
function noNetwork() {
  const calls: string[] = [];
  const fetch = (input: string | URL) => {
    calls.push(input.toString());
    return Promise.reject(new Error('no network in this test'));
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

describe('handlers without a server', () => {
  let folder: Awaited<ReturnType<typeof temporaryFolder>>;
  beforeEach(async () => {
    folder = await temporaryFolder();
  });
  afterEach(() => folder.remove());

  it('data calls while signed out answer unauthorized without touching the network', async () => {
    const network = noNetwork();
    const app = await createTestApp({
      dir: folder.dir,
      baseUrl: 'http://127.0.0.1:9',
      client: { fetch: network.fetch },
    });
    const result = await app.invoke('generators', 'aggregate', {});
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unauthorized', message: 'Sign in to see this data.' },
    });
    expect(network.calls).toEqual([]);
    expect(app.events).toEqual([]);
  });

  it('refuses "keep me signed in" when encryption is unavailable, before asking the server', async () => {
    const network = noNetwork();
    const app = await createTestApp({
      dir: folder.dir,
      baseUrl: 'http://127.0.0.1:9',
      encryption: fakeEncryption(false),
      client: { fetch: network.fetch },
    });
    const result = await app.invoke('session', 'signIn', {
      ...DEMO_USERS.inspector,
      remember: true,
    });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'bad-request', message: ENCRYPTION_UNAVAILABLE_MESSAGE },
    });
    expect(network.calls).toEqual([]);
  });

  it('a sign-in that cannot be saved still signs in, says so, and leaves no older saved sign-in', async () => {
    const login = () =>
      Promise.resolve(
        Response.json({ access_token: 'tok_fresh_0123456789', token_type: 'Bearer', expires_in: 3600 }),
      );
    const app = await createTestApp({
      dir: folder.dir,
      baseUrl: 'http://127.0.0.1:9',
      client: { fetch: login },
    });
    await app.tokens.save({
      baseUrl: 'http://127.0.0.1:9',
      username: 'someone-else',
      token: 'tok_old_0123456789',
      expiresAt: Date.now() + 60_000,
    });
    app.encryption.encrypt = () => {
      throw new Error('the key store is locked');
    };
    const result = await app.invoke('session', 'signIn', {
      ...DEMO_USERS.inspector,
      remember: true,
    });
    expect(result).toMatchObject({
      ok: true,
      data: { signedIn: true, username: 'inspector', remembered: false },
    });
    expect(await app.tokens.load()).toEqual({});
  });

  it('reports the status and the settings', async () => {
    const app = await createTestApp({ dir: folder.dir, baseUrl: 'http://127.0.0.1:4321' });
    expect(await app.invoke('session', 'status')).toEqual({
      ok: true,
      data: { signedIn: false, baseUrl: 'http://127.0.0.1:4321' },
    });
    expect(await app.invoke('settings', 'get')).toEqual({
      ok: true,
      data: {
        apiBaseUrl: 'http://127.0.0.1:4321',
        pageSize: 100,
        requestTimeoutMs: 20_000,
        theme: 'system',
        plainHttpServers: [],
        removeDataOnSignOut: false,
      },
    });
  });

  it('saves settings and answers the merged result; an invalid value changes nothing', async () => {
    const app = await createTestApp({ dir: folder.dir, baseUrl: 'http://127.0.0.1:4321' });
    expect(await app.invoke('settings', 'set', { pageSize: 200 })).toMatchObject({
      ok: true,
      data: { pageSize: 200 },
    });
    expect((await app.restart()).settings.get().pageSize).toBe(200);
  });

  it('opens only https links outside the app', async () => {
    const app = await createTestApp({ dir: folder.dir, baseUrl: 'http://127.0.0.1:4321' });
    expect(await app.invoke('shell', 'openExternal', { url: 'https://www.epa.gov/hwgenerators' })).toEqual({
      ok: true,
      data: null,
    });
    for (const url of [
      'http://www.epa.gov/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'app://tracker/',
    ]) {
      expect(await app.invoke('shell', 'openExternal', { url })).toMatchObject({
        ok: false,
        error: { kind: 'bad-request' },
      });
    }
    expect(app.opened).toEqual(['https://www.epa.gov/hwgenerators']);
  });
});
