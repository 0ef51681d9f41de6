/**
 * A server that hangs (paused, behind a dying VPN) answers nothing and refuses nothing. The user can cancel a
 * sign-in at once, and an answer that comes after leaves nobody signed in; signing out drops the token at
 * once and never waits for the server to revoke it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_USERS, createTestApp, fakeEncryption, temporaryFolder } from './support.ts';

const SERVER = 'http://127.0.0.1:9';
const LOGIN = { access_token: 'tok_fresh_0123456789', token_type: 'Bearer', expires_in: 3600 };

/** A fetch that holds every request until the test answers it, or, as fetch does, until its signal aborts. */
function hangingNetwork() {
  const asked: { path: string; signal: AbortSignal | undefined; answer: (response: Response) => void }[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : input);
      const signal = init?.signal ?? undefined;
      signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      asked.push({ path: url.pathname, signal, answer: resolve });
    });
  return { asked, fetch };
}

/** Whether `promise` settles within `ms`: a hanging server must not keep the user waiting. */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);
}

describe('a server that does not answer', () => {
  let folder: Awaited<ReturnType<typeof temporaryFolder>>;
  beforeEach(async () => {
    folder = await temporaryFolder();
  });
  afterEach(() => folder.remove());

  it.each([
    ['while the server says nothing', false],
    ['as the server answers', true],
  ])('a sign-in the user cancels %s ends at once and signs nobody in', async (_when, answered) => {
    const network = hangingNetwork();
    const app = await createTestApp({ dir: folder.dir, baseUrl: SERVER, client: { fetch: network.fetch } });
    const signingIn = app.invoke(
      'session',
      'signIn',
      { ...DEMO_USERS.inspector, remember: false },
      { requestId: 'sign-in-1' },
    );
    await expect.poll(() => network.asked.length).toBe(1);

    if (answered) network.asked[0]!.answer(Response.json(LOGIN));
    await app.invoke('requests', 'cancel', { id: 'sign-in-1' });
    expect(await settlesWithin(signingIn, 500)).toBe(true);
    expect(await signingIn).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
    expect(network.asked[0]!.signal?.aborted).toBe(true);

    // Whatever the server says after, nobody is signed in.
    network.asked[0]!.answer(Response.json(LOGIN));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(app.session.status()).toMatchObject({ signedIn: false });
    expect(app.events).toEqual([]);
  });

  it('a sign-in to another server cancelled while it is being kept changes nothing', async () => {
    const network = hangingNetwork();
    const cancel = new AbortController();
    // The user cancels while the sign-in is being saved, the last step before it takes effect.
    const keys = fakeEncryption();
    const encryption = {
      ...keys,
      encrypt: (text: string) => {
        cancel.abort();
        return keys.encrypt(text);
      },
    };
    const app = await createTestApp({
      dir: folder.dir,
      baseUrl: SERVER,
      encryption,
      client: { fetch: network.fetch },
    });
    const other = 'http://127.0.0.1:8';
    const signingIn = app.session.signIn(
      { ...DEMO_USERS.inspector, baseUrl: other, remember: true },
      cancel.signal,
    );
    await expect.poll(() => network.asked.length).toBe(1);
    network.asked[0]!.answer(Response.json(LOGIN));

    expect(await signingIn).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
    expect(app.settings.get().apiBaseUrl).toBe(SERVER);
    expect(app.session.status()).toEqual({ signedIn: false, baseUrl: SERVER });
    expect(await app.tokens.load()).toEqual({});
    expect(app.events).toEqual([]);
    // The token it brought is revoked at the server it came from.
    await expect
      .poll(() => network.asked.map((request) => request.path))
      .toContain('/api/tracker/auth/logout/');
  });

  it('signing out drops the token at once, without waiting for the server to revoke it', async () => {
    const network = hangingNetwork();
    const app = await createTestApp({ dir: folder.dir, baseUrl: SERVER, client: { fetch: network.fetch } });
    const signingIn = app.invoke('session', 'signIn', { ...DEMO_USERS.inspector, remember: true });
    await expect.poll(() => network.asked.length).toBe(1);
    network.asked[0]!.answer(Response.json(LOGIN));
    expect(await signingIn).toMatchObject({ ok: true });

    const signingOut = app.invoke('session', 'signOut');
    expect(await settlesWithin(signingOut, 500)).toBe(true);
    expect(await signingOut).toMatchObject({ ok: true, data: { signedIn: false } });
    expect(app.sessionReasons()).toEqual(['signed-in', 'signed-out']);
    expect(await app.tokens.load()).toEqual({});
    // The revocation was asked for, and may still be under way.
    expect(network.asked.map((request) => request.path)).toEqual([
      '/api/tracker/auth/login/',
      '/api/tracker/auth/logout/',
    ]);
  });
});
