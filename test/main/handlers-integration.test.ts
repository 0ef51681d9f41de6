/**
 * The main-process handlers against the real reference server over real HTTP: sign-in and sign-out with
 * revocation, "keep me signed in" across restarts, expiry, permissions, both wire dialects, and a final
 * walk over everything the renderer was handed, which must never contain a token.
 */
import { stat } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contract, events, type Result } from '../../shared/ipc/contract.ts';
import { startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import { DEMO_USERS, assertOk, createTestApp, temporaryFolder, type TestApp } from './support.ts';

const INSPECTOR = DEMO_USERS.inspector;
const GENERATORS_ONLY = DEMO_USERS.generatorsOnly;

/** Every token the server issued or the app sent, and every value the renderer was handed. */
const tokens = new Set<string>();
const handedToRenderer: unknown[] = [];
/** Every request the app made: where, and whether it carried a token. */
const requests: { origin: string; path: string; authorized: boolean }[] = [];

const recordingFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input);
  const authorization = new Headers(init?.headers).get('authorization');
  if (authorization) tokens.add(authorization.replace(/^Bearer /, ''));
  requests.push({ origin: url.origin, path: url.pathname, authorized: authorization !== null });
  const response = await fetch(input, init);
  if (url.pathname.endsWith('/auth/login/') && response.ok) {
    const body = (await response.clone().json()) as { access_token: string };
    tokens.add(body.access_token);
  }
  return response;
};

let sample: TrackerServer;
let typed: TrackerServer;
const apps: TestApp[] = [];
let folder: Awaited<ReturnType<typeof temporaryFolder>>;

beforeAll(async () => {
  sample = await startTrackerServer({ manifests: 400, dialect: 'sample' });
  typed = await startTrackerServer({ dbPath: sample.dbPath, dialect: 'typed' });
});
afterAll(async () => {
  await typed?.close();
  await sample?.close();
});
beforeEach(async () => {
  folder = await temporaryFolder();
});
afterEach(async () => {
  for (const app of apps.splice(0)) {
    for (const { event, payload } of app.events)
      expect(events[event].safeParse(payload).error).toBeUndefined();
    handedToRenderer.push(...app.events);
  }
  await folder.remove();
});

/** Keeps every answer of the app, and of its restarts, for the token walk. */
function tracked(app: TestApp): TestApp {
  apps.push(app);
  const { invoke, restart } = app;
  return {
    ...app,
    invoke: async (group, method, input, options) => {
      const result = await invoke(group, method, input, options);
      handedToRenderer.push(result);
      // What main hands the renderer must itself satisfy the contract's output schema.
      const spec = contract[group][method] as { output: z.ZodType };
      expect(spec.output.safeParse(result).error).toBeUndefined();
      return result;
    },
    restart: async () => tracked(await restart()),
  };
}

async function openApp(baseUrl: string, dir = folder.dir): Promise<TestApp> {
  return tracked(await createTestApp({ dir, baseUrl, client: { fetch: recordingFetch } }));
}

async function rawCall(baseUrl: string, token: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/tracker/generators/aggregated_data/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  await response.body?.cancel();
  return response.status;
}

function lastIssuedToken(): string {
  const token = [...tokens].at(-1);
  if (!token) throw new Error('no token was issued');
  return token;
}

describe('session against the reference server', () => {
  it('signs in at the API address a server prints (…/api/tracker/), taken as the server address', async () => {
    const app = await openApp('http://127.0.0.1:9');
    const printed = `${sample.baseUrl}/api/tracker/`;
    const status = assertOk(
      await app.invoke('session', 'signIn', { ...INSPECTOR, remember: false, baseUrl: printed }),
    );
    expect(status).toMatchObject({ signedIn: true, baseUrl: `${sample.baseUrl}/` });
    expect(assertOk(await app.invoke('generators', 'aggregate', {}))).toMatchObject({
      shipped_count: expect.any(Number) as number,
    });
  });

  it('signs in, loads data, signs out, and the old token is revoked on the server', async () => {
    const app = await openApp(sample.baseUrl);
    const status = assertOk(await app.invoke('session', 'signIn', { ...INSPECTOR, remember: false }));
    expect(status).toEqual({
      signedIn: true,
      username: 'inspector',
      scopes: ['generators', 'manifests'],
      baseUrl: sample.baseUrl,
      remembered: false,
    });
    const token = lastIssuedToken();
    expect(app.events).toEqual([{ event: 'session.changed', payload: { status, reason: 'signed-in' } }]);
    expect(assertOk(await app.invoke('generators', 'aggregate', {}))).toMatchObject({
      shipped_count: expect.any(Number) as number,
    });

    const after = assertOk(await app.invoke('session', 'signOut'));
    expect(after).toEqual({ signedIn: false, baseUrl: sample.baseUrl });
    expect(app.events.at(-1)).toEqual({
      event: 'session.changed',
      payload: { status: after, reason: 'signed-out' },
    });
    // Signing out does not wait for the server: the revocation follows.
    await expect.poll(() => rawCall(sample.baseUrl, token)).toBe(401);
    expect(await app.invoke('generators', 'aggregate', {})).toMatchObject({
      ok: false,
      error: { kind: 'unauthorized' },
    });
  });

  it('refuses a wrong password without an event', async () => {
    const app = await openApp(sample.baseUrl);
    const result = await app.invoke('session', 'signIn', {
      ...INSPECTOR,
      password: 'wrong',
      remember: false,
    });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unauthorized', message: 'The user name or password is wrong.', status: 401 },
    });
    expect(app.events).toEqual([]);
  });

  it('says when to try again after too many failed sign-ins', async () => {
    const strict = await startTrackerServer({
      dbPath: sample.dbPath,
      throttle: { perUser: 2, perAddress: 100, windowMs: 60_000 },
    });
    try {
      const app = await openApp(strict.baseUrl);
      const attempt = () =>
        app.invoke('session', 'signIn', { ...INSPECTOR, password: 'wrong', remember: false });
      await attempt();
      await attempt();
      const result = await attempt();
      expect(result).toMatchObject({ ok: false, error: { kind: 'rate-limited', status: 429 } });
      if (!result.ok) expect(result.error.message).toMatch(/try again in \d+ s/);
    } finally {
      await strict.close();
    }
  });

  it('keeps the user signed in across a restart, encrypted in a 0600 file, until sign-out deletes it', async () => {
    const app = await openApp(sample.baseUrl);
    const status = assertOk(await app.invoke('session', 'signIn', { ...INSPECTOR, remember: true }));
    expect(status.remembered).toBe(true);
    const file = await stat(app.tokens.file);
    if (process.platform !== 'win32') expect(file.mode & 0o777).toBe(0o600);

    const restarted = await app.restart();
    expect(assertOk(await restarted.invoke('session', 'status'))).toEqual(status);
    expect(assertOk(await restarted.invoke('manifests', 'aggregate', {}))).toMatchObject({
      shipped_count: expect.any(Number) as number,
    });

    assertOk(await restarted.invoke('session', 'signOut'));
    await expect(stat(app.tokens.file)).rejects.toThrow(/ENOENT/);
    const again = await restarted.restart();
    expect(assertOk(await again.invoke('session', 'status')).signedIn).toBe(false);
  });

  it('signing in without "keep me signed in" forgets an earlier saved sign-in', async () => {
    const app = await openApp(sample.baseUrl);
    assertOk(await app.invoke('session', 'signIn', { ...INSPECTOR, remember: true }));
    assertOk(await app.invoke('session', 'signIn', { ...GENERATORS_ONLY, remember: false }));
    await expect(stat(app.tokens.file)).rejects.toThrow(/ENOENT/);
    expect(assertOk(await (await app.restart()).invoke('session', 'status')).signedIn).toBe(false);
  });

  it('a 401 on a data call ends the session as expired and forgets the saved sign-in', async () => {
    const app = await openApp(sample.baseUrl);
    assertOk(await app.invoke('session', 'signIn', { ...INSPECTOR, remember: true }));
    // Revoked behind the app's back, as an administrator or another device would.
    const token = lastIssuedToken();
    await fetch(`${sample.baseUrl}/api/tracker/auth/logout/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const result = await app.invoke('generators', 'list', { pageInfo: { page: 0, pageSize: 10 } });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unauthorized', message: 'Your session has expired; sign in again.', status: 401 },
    });
    expect(app.events.at(-1)).toEqual({
      event: 'session.changed',
      payload: { status: { signedIn: false, baseUrl: sample.baseUrl }, reason: 'expired' },
    });
    await expect(stat(app.tokens.file)).rejects.toThrow(/ENOENT/);
  });

  it('a token that outlives its lifetime ends the session as expired', async () => {
    // Long enough that a busy machine signs in and asks once within it (1 s was not, under CI's load).
    const ttlMs = 3000;
    const shortLived = await startTrackerServer({ dbPath: sample.dbPath, tokenTtlMs: ttlMs });
    try {
      const app = await openApp(shortLived.baseUrl);
      assertOk(await app.invoke('session', 'signIn', { ...INSPECTOR, remember: false }));
      // The token was issued before the answer came: it has expired this long after it.
      const expired = Date.now() + ttlMs + 300;
      assertOk(await app.invoke('generators', 'aggregate', {}));
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, expired - Date.now())));
      expect(await app.invoke('generators', 'aggregate', {})).toMatchObject({
        ok: false,
        error: { kind: 'unauthorized' },
      });
      expect(app.sessionReasons()).toEqual(['signed-in', 'expired']);
    } finally {
      await shortLived.close();
    }
  });

  it('a user without the manifests permission gets forbidden, naming it, and stays signed in', async () => {
    const app = await openApp(sample.baseUrl);
    assertOk(await app.invoke('session', 'signIn', { ...GENERATORS_ONLY, remember: false }));
    const result = await app.invoke('manifests', 'list', { pageInfo: { page: 0, pageSize: 10 } });
    expect(result).toMatchObject({ ok: false, error: { kind: 'forbidden', status: 403 } });
    if (!result.ok) expect(result.error.message).toContain('manifests');
    assertOk(await app.invoke('generators', 'aggregate', {}));
    expect(app.sessionReasons()).toEqual(['signed-in']);
  });

  it('changing the server address signs out and never sends the token to the new server', async () => {
    const app = await openApp(sample.baseUrl);
    assertOk(await app.invoke('session', 'signIn', { ...INSPECTOR, remember: true }));
    const before = requests.length;
    assertOk(await app.invoke('settings', 'set', { apiBaseUrl: typed.baseUrl }));
    expect(app.events.at(-1)?.payload).toEqual({
      status: { signedIn: false, baseUrl: typed.baseUrl },
      reason: 'signed-out',
    });
    expect(await app.invoke('generators', 'aggregate', {})).toMatchObject({
      ok: false,
      error: { kind: 'unauthorized' },
    });
    const typedOrigin = new URL(typed.baseUrl).origin;
    expect(
      requests.slice(before).filter((request) => request.origin === typedOrigin && request.authorized),
    ).toEqual([]);
    await expect(stat(app.tokens.file)).rejects.toThrow(/ENOENT/);
  });

  it('a sign-in to another server address saves that address', async () => {
    const app = await openApp(sample.baseUrl);
    assertOk(
      await app.invoke('session', 'signIn', { ...INSPECTOR, baseUrl: typed.baseUrl, remember: false }),
    );
    expect(assertOk(await app.invoke('settings', 'get')).apiBaseUrl).toBe(typed.baseUrl);
    expect(assertOk(await app.invoke('session', 'status')).baseUrl).toBe(typed.baseUrl);
  });
});

function atTwoDecimals(data: unknown): unknown {
  return JSON.parse(JSON.stringify(data), (_key, value: unknown) =>
    typeof value === 'number' ? Math.round(value * 100) / 100 : value,
  );
}

describe('both wire dialects read the same', () => {
  it('every endpoint answers identical data from the sample and the typed dialect', async () => {
    const fromSample = await openApp(sample.baseUrl, `${folder.dir}/sample`);
    const fromTyped = await openApp(typed.baseUrl, `${folder.dir}/typed`);
    for (const app of [fromSample, fromTyped]) {
      assertOk(await app.invoke('session', 'signIn', { ...INSPECTOR, remember: false }));
    }
    const generators = assertOk(
      await fromSample.invoke('generators', 'list', { pageInfo: { page: 0, pageSize: 20 } }),
    );
    const handlerId = generators.content[0]?.epa_handler_id ?? '';
    const calls: Record<string, (app: TestApp) => Promise<Result<unknown>>> = {
      'generators.aggregate': (app) => app.invoke('generators', 'aggregate', {}),
      'generators.list': (app) => app.invoke('generators', 'list', { pageInfo: { page: 0, pageSize: 20 } }),
      'generators.lookup': (app) => app.invoke('generators', 'lookup', { field: 'naics', page: 1 }),
      'generators.detail': (app) => app.invoke('generators', 'detail', { handler_id: handlerId }),
      'manifests.aggregate': (app) => app.invoke('manifests', 'aggregate', {}),
      'manifests.list': (app) => app.invoke('manifests', 'list', { pageInfo: { page: 0, pageSize: 20 } }),
      'manifests.lookup': (app) => app.invoke('manifests', 'lookup', { field: 'transporter_name', page: 1 }),
    };
    for (const [name, call] of Object.entries(calls)) {
      const fromSampleData = assertOk(await call(fromSample));
      const fromTypedData = assertOk(await call(fromTyped));
      if (name.endsWith('.aggregate')) {
        // The sample dialect writes tonnage totals with two decimals (spec 2.1); the typed one in full.
        expect(atTwoDecimals(fromTypedData), name).toEqual(fromSampleData);
      } else {
        expect(fromTypedData, name).toEqual(fromSampleData);
      }
    }
    const detail = assertOk(await fromSample.invoke('generators', 'detail', { handler_id: handlerId }));
    expect(detail.generator_data).toHaveProperty('location_latitude');
    expect(detail.generator_data).not.toHaveProperty('location_lattitude');
    expect(detail.site_activities).toHaveProperty('received_waste');
    expect(detail.site_activities).not.toHaveProperty('recieved_waste');
    expect(Array.isArray(detail.waste_code_data)).toBe(true);
  });

  it('an unknown generator is not-found', async () => {
    const app = await openApp(typed.baseUrl);
    assertOk(await app.invoke('session', 'signIn', { ...INSPECTOR, remember: false }));
    expect(await app.invoke('generators', 'detail', { handler_id: 'XX0000000000' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found', status: 404 },
    });
  });
});

describe('a request the server would refuse', () => {
  it('is refused in main in the server’s words, and never sent', async () => {
    const app = await openApp(typed.baseUrl);
    assertOk(await app.invoke('session', 'signIn', { ...INSPECTOR, remember: false }));
    const token = lastIssuedToken();
    const cases = [
      {
        method: 'list',
        path: '/api/tracker/generators/',
        input: { pageInfo: { page: 0, pageSize: 10 }, filterFields: {}, searchKey: 'acme\tinc' },
      },
      {
        method: 'aggregate',
        path: '/api/tracker/generators/aggregated_data/',
        input: { searchKey: 'x\u0000' },
      },
      {
        method: 'aggregate',
        path: '/api/tracker/generators/aggregated_data/',
        input: { searchKey: 'a'.repeat(201) },
      },
    ] as const;
    for (const { method, path, input } of cases) {
      const server = await fetch(`${typed.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      expect(server.status).toBe(400);
      const { detail } = (await server.json()) as { detail: string };
      const sent = requests.length;
      const refused = await app.invoke('generators', method, input);
      expect(refused).toEqual({
        ok: false,
        error: { kind: 'bad-request', message: detail.replace(/^body\./, '') },
      });
      expect(requests.length, 'requests sent for a refused input').toBe(sent);
    }
    const search = '\u001b[A';
    const sent = requests.length;
    expect(await app.invoke('manifests', 'lookup', { field: 'transporter_name', page: 1, search })).toEqual({
      ok: false,
      error: {
        kind: 'bad-request',
        message:
          'search: search must not hold control characters (U+0000–U+001F, U+007F); found U+001B at character 1',
      },
    });
    expect(requests.length).toBe(sent);
  });
});

describe('the caller owns its requests', () => {
  it('requests for the same page number of different queries, and details of different generators, all answer', async () => {
    const app = await openApp(sample.baseUrl);
    assertOk(await app.invoke('session', 'signIn', { ...INSPECTOR, remember: false }));
    const first = assertOk(await app.invoke('generators', 'list', { pageInfo: { page: 0, pageSize: 2 } }));
    const [a, b] = first.content.map((row) => row.epa_handler_id ?? '');
    const state = first.content[0]?.location_state ?? '';
    const answers = await Promise.all([
      app.invoke('generators', 'list', { pageInfo: { page: 1, pageSize: 5 } }, { requestId: 'list-all' }),
      app.invoke(
        'generators',
        'list',
        { pageInfo: { page: 1, pageSize: 5 }, filterFields: { states: [state] } },
        { requestId: 'list-state' },
      ),
      app.invoke('generators', 'detail', { handler_id: a! }, { requestId: 'detail-a' }),
      app.invoke('generators', 'detail', { handler_id: b! }, { requestId: 'detail-b' }),
    ]);
    const [all, inState, detailA, detailB] = answers.map((answer) => assertOk<unknown>(answer)) as [
      { content: unknown[] },
      { content: { location_state?: string }[] },
      { generator_data: { epa_handler_id: string } },
      { generator_data: { epa_handler_id: string } },
    ];
    expect(all.content).toHaveLength(5);
    expect(inState.content.every((row) => row.location_state === state)).toBe(true);
    expect(detailA.generator_data.epa_handler_id).toBe(a);
    expect(detailB.generator_data.epa_handler_id).toBe(b);
  });

  it("a cancel stops main's fetch of that request, and only that request", async () => {
    const signals = new Map<string, AbortSignal>();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // Holds data requests until the test opens the gate, so the cancel surely meets a fetch in flight.
    const gatedFetch: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      if (!url.pathname.includes('/auth/') && init?.signal) {
        const body = typeof init.body === 'string' ? (JSON.parse(init.body) as { searchKey?: string }) : {};
        signals.set(body.searchKey ?? url.search, init.signal);
        await Promise.race([
          gate,
          new Promise((resolve) => init.signal!.addEventListener('abort', resolve, { once: true })),
        ]);
      }
      return recordingFetch(input, init);
    };
    const app = tracked(
      await createTestApp({ dir: folder.dir, baseUrl: sample.baseUrl, client: { fetch: gatedFetch } }),
    );
    assertOk(await app.invoke('session', 'signIn', { ...INSPECTOR, remember: false }));
    const wanted = app.invoke('generators', 'aggregate', { searchKey: 'kept' }, { requestId: 'kept' });
    const unwanted = app.invoke(
      'generators',
      'aggregate',
      { searchKey: 'dropped' },
      { requestId: 'dropped' },
    );
    while (signals.size < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await app.invoke('requests', 'cancel', { id: 'dropped' })).toEqual({ ok: true, data: null });
    await expect(unwanted).resolves.toMatchObject({ ok: false, error: { kind: 'cancelled' } });
    expect(signals.get('dropped')?.aborted).toBe(true);
    expect(signals.get('kept')?.aborted).toBe(false);
    open();
    assertOk(await wanted);
  });
});

describe('the token never reaches the renderer', () => {
  it('appears in no result, event or message handed out by this suite', () => {
    expect(tokens.size).toBeGreaterThan(3);
    expect(handedToRenderer.length).toBeGreaterThan(30);
    const handed = handedToRenderer.map((value) => JSON.stringify(value));
    for (const token of tokens) {
      expect(handed.filter((text) => text.includes(token))).toEqual([]);
    }
  });
});
