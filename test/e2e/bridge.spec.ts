/**
 * The real preload, the real main handlers and the real server, together in Chromium through the loopback
 * bridge: window.tracker is exactly the contract, calls reach the server and come back typed, main's events
 * arrive, and nothing without the secret, or from another origin, gets through.
 */
import { contract, events } from '../../shared/ipc/contract.ts';
import { DEMO_USERS } from './support/app.ts';
import { expect, test } from './support/fixtures.ts';

test('the preload exposes exactly the IPC contract on window.tracker', async ({ window }) => {
  const exposed = await window.page.evaluate(() => {
    const tracker = (globalThis as unknown as { tracker: Record<string, unknown> }).tracker;
    const shape: Record<string, string[] | string> = {};
    for (const [key, value] of Object.entries(tracker)) {
      shape[key] =
        typeof value === 'function'
          ? 'function'
          : Object.entries(value as Record<string, unknown>).map(
              ([name, member]) => `${name}:${typeof member}`,
            );
    }
    return {
      shape,
      frozen: Object.isFrozen(tracker),
      writable: Object.getOwnPropertyDescriptor(globalThis, 'tracker')?.writable,
    };
  });
  const expected: Record<string, string[] | string> = { on: 'function' };
  for (const [group, methods] of Object.entries(contract)) {
    expected[group] = Object.keys(methods).map((name) => `${name}:function`);
  }
  expect(exposed.shape).toEqual(expected);
  expect(exposed.frozen).toBe(true);
  expect(exposed.writable).toBe(false);
  expect(window.errors).toEqual([]);
});

test('signing in and listing generators reach the server and come back typed', async ({ window }) => {
  const signedOut = await window.call('session', 'status');
  expect(signedOut).toMatchObject({ ok: true, data: { signedIn: false } });

  const changes = await window.listenFor('session.changed');
  const signedIn = await window.call('session', 'signIn', { ...DEMO_USERS.inspector, remember: false });
  expect(signedIn).toMatchObject({
    ok: true,
    data: { signedIn: true, username: 'inspector', remembered: false },
  });
  const change = await changes.next();
  expect(events['session.changed'].safeParse(change).success).toBe(true);
  expect(change).toMatchObject({ reason: 'signed-in', status: { signedIn: true, username: 'inspector' } });

  const list = await window.call('generators', 'list', { pageInfo: { page: 0, pageSize: 10 } });
  if (!list.ok) throw new Error(`generators.list failed: ${list.error.message}`);
  expect(contract.generators.list.output.safeParse(list).success).toBe(true);
  expect(typeof list.data.totalElements).toBe('number');
  expect(list.data.totalElements).toBeGreaterThan(0);
  expect(list.data.content.length).toBeGreaterThan(0);
  expect(list.data.content.length).toBeLessThanOrEqual(10);
  expect(typeof list.data.content[0]?.total_waste).toBe('number');

  await window.call('session', 'signOut');
  expect(await changes.next()).toMatchObject({ reason: 'signed-out', status: { signedIn: false } });
});

test('the same validation as over Electron IPC, and no remembered sign-in without a key store', async ({
  window,
}) => {
  const invalid = await window.call('generators', 'list', { pageInfo: { page: -1, pageSize: 10 } });
  if (invalid.ok) throw new Error('an invalid input was accepted');
  expect(invalid.error.kind).toBe('bad-request');
  expect(invalid.error.message).toMatch(/^pageInfo\.page: /);
  const remembered = await window.call('session', 'signIn', { ...DEMO_USERS.inspector, remember: true });
  if (remembered.ok) throw new Error('a sign-in was remembered without a key store');
  expect(remembered.error.kind).toBe('bad-request');
  expect(remembered.error.message).toContain('cannot keep you signed in');
  const forbidden = await window.call('session', 'signIn', { ...DEMO_USERS.generatorsOnly, remember: false });
  expect(forbidden).toMatchObject({ ok: true, data: { scopes: ['generators'] } });
  const manifests = await window.call('manifests', 'list', { pageInfo: { page: 0, pageSize: 10 } });
  expect(manifests).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
});

test('nothing gets through without the secret', async ({ app, context, window }) => {
  const fromNode = await fetch(`${app.bridge.origin}/__bridge/invoke`, {
    method: 'POST',
    headers: { origin: app.bridge.origin, 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'tracker:session.status' }),
  });
  expect(fromNode.status).toBe(403);
  expect((await fetch(app.bridge.origin)).status).toBe(403);

  // A second page of the same browser, opened on the bridge's address without the secret.
  const stranger = await context.newPage();
  const answer = await stranger.goto(`${app.bridge.origin}/`);
  expect(answer?.status()).toBe(403);
  expect(await stranger.evaluate(() => 'tracker' in globalThis)).toBe(false);
  const status = await stranger.evaluate(async () => {
    const response = await fetch('/__bridge/invoke', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'tracker:session.status' }),
    });
    return response.status;
  });
  expect(status).toBe(403);
  const socketOpened = await stranger.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const { host } = (globalThis as unknown as { location: { host: string } }).location;
        const socket = new WebSocket(`ws://${host}/__bridge/events`);
        socket.onopen = () => resolve(true);
        socket.onerror = () => resolve(false);
      }),
  );
  expect(socketOpened).toBe(false);

  // Another local origin that somehow learned the secret still cannot act: the bridge checks Origin.
  const before = app.bridgeLog.length;
  await stranger.goto(`${app.server.baseUrl}/`);
  await stranger.evaluate(async (url) => {
    await fetch(url, {
      method: 'POST',
      mode: 'no-cors',
      body: '{"channel":"tracker:session.signOut"}',
    }).catch(() => undefined);
  }, `${app.bridge.url}__bridge/invoke`);
  await expect
    .poll(() => app.bridgeLog.slice(before).join('\n'))
    .toMatch(/refused a POST request: wrong or missing Origin/);
  await stranger.close();

  // The app's own page is unaffected.
  expect(await window.call('session', 'status')).toMatchObject({ ok: true });
});
