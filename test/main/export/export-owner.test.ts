/**
 * An export belongs to the session that started it, through the real main services and a real server with
 * two users who may read manifests. The second page of each export is held at the transport (a server that
 * is slow to answer) while the session changes under it: signing out cancels the export, a sign-in as the
 * other user or to another server fails it, and only the same user signing in again carries it on (signed in
 * on this computer alone meanwhile, it waits for them). Nothing
 * is written for an export that ended, and no temporary or scratch file stays behind.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MANIFEST_COLUMNS } from '../../../shared/columns.ts';
import { addUser } from '../../../server/src/auth/users.ts';
import { OWNER_MESSAGES } from '../../../main/src/export/export-owner.ts';
import { startTrackerServer, type TrackerServer } from '../../helpers/tracker-server.ts';
import { DEMO_USERS, createTestApp, temporaryFolder, type TestApp } from '../support.ts';
import { readBook } from './workbook-reader.ts';
import { settled } from './export-app.ts';

const SECOND = { username: 'second-inspector', password: 'second-inspector-demo' };

let server: TrackerServer;
let otherServer: TrackerServer;
let folder: Awaited<ReturnType<typeof temporaryFolder>>;
let app: TestApp;

/** Manifest pages after the first wait here until the test lets them go; the first 401 is injected once. */
const held: (() => void)[] = [];
let holding = true;
let unauthorizedOnce = false;
let pageAsked: () => void = () => undefined;

async function slowFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  const body =
    typeof init?.body === 'string' ? (JSON.parse(init.body) as { pageInfo?: { page?: number } }) : {};
  const page = body.pageInfo?.page ?? 0;
  if (url.pathname === '/api/tracker/manifests/' && page > 0 && holding) {
    pageAsked();
    await new Promise<void>((resolve) => held.push(resolve));
    if (unauthorizedOnce) {
      unauthorizedOnce = false;
      return new Response(JSON.stringify({ type: 'about:blank', title: 'Unauthorized', status: 401 }), {
        status: 401,
        headers: { 'content-type': 'application/problem+json' },
      });
    }
  }
  return fetch(input, init);
}

beforeAll(async () => {
  server = await startTrackerServer({ manifests: 1_500, seed: 11 });
  otherServer = await startTrackerServer({ manifests: 100, seed: 12 });
  await addUser(server.db, SECOND.username, SECOND.password, ['generators', 'manifests']);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await otherServer?.close();
});

beforeEach(async () => {
  folder = await temporaryFolder();
  app = await createTestApp({ dir: folder.dir, baseUrl: server.baseUrl, client: { fetch: slowFetch } });
  holding = true;
  unauthorizedOnce = false;
  const signedIn = await app.invoke('session', 'signIn', { ...DEMO_USERS.inspector, remember: false });
  if (!signedIn.ok) throw new Error(signedIn.error.message);
});

afterEach(async () => {
  holding = false;
  for (const release of held.splice(0)) release();
  await app.context.exports.cancelAll();
  await folder.remove();
});

/** Starts an unfiltered export of every manifest and resolves once its second page is being fetched. */
async function exportHeldAtSecondPage(): Promise<string> {
  const asked = new Promise<void>((resolve) => {
    pageAsked = resolve;
  });
  const started = await app.invoke('exports', 'grid', {
    list: 'manifests',
    format: 'xlsx',
    fields: MANIFEST_COLUMNS.map((column) => column.field),
  });
  if (!started.ok || !started.data) throw new Error('the export did not start');
  await asked;
  return started.data.id;
}

/** Lets the held pages go on. */
function release(): void {
  holding = false;
  for (const go of held.splice(0)) go();
}

async function expectNothingWritten(): Promise<void> {
  await mkdir(join(folder.dir, 'saved'), { recursive: true });
  expect(await readdir(join(folder.dir, 'saved'))).toEqual([]);
  expect(await readdir(join(folder.dir, 'exports'))).toEqual([]);
}

describe('an export and the session that started it', () => {
  it('stops when its user signs out, and says so', async () => {
    const id = await exportHeldAtSecondPage();
    await app.invoke('session', 'signOut');
    expect(await settled(app, id)).toEqual({ id, message: OWNER_MESSAGES.signedOut });
    release();
    await expectNothingWritten();
  });

  it('stops when its user signs out of a session that had expired', async () => {
    unauthorizedOnce = true;
    const id = await exportHeldAtSecondPage();
    release();
    await expect.poll(() => app.sessionReasons()).toContain('expired');
    await app.invoke('session', 'signOut');
    expect(await settled(app, id)).toEqual({ id, message: OWNER_MESSAGES.signedOut });
    await expectNothingWritten();
  });

  it('fails when another user signs in after the session expired, and never uses their token', async () => {
    unauthorizedOnce = true;
    const id = await exportHeldAtSecondPage();
    release();
    await expect
      .poll(() =>
        app.events.some(
          ({ event, payload }) =>
            event === 'export.progress' && (payload as { waiting?: string }).waiting === 'sign-in',
        ),
      )
      .toBe(true);
    const signedIn = await app.invoke('session', 'signIn', { ...SECOND, remember: false });
    expect(signedIn.ok).toBe(true);
    expect(await settled(app, id)).toEqual({
      id,
      message: `${SECOND.username} signed in, so the export for ${DEMO_USERS.inspector.username} stopped; no file was written.`,
    });
    await expectNothingWritten();
  });

  it('fails when the app signs in to another server', async () => {
    const id = await exportHeldAtSecondPage();
    const signedIn = await app.invoke('session', 'signIn', {
      ...DEMO_USERS.inspector,
      baseUrl: otherServer.baseUrl,
      remember: false,
    });
    expect(signedIn.ok).toBe(true);
    expect(await settled(app, id)).toEqual({
      id,
      message: `The app signed in to ${otherServer.baseUrl}, so the export from ${server.baseUrl} stopped; no file was written.`,
    });
    release();
    await expectNothingWritten();
  });

  it('goes on when the same user signs in again, and names them in the Query sheet', async () => {
    unauthorizedOnce = true;
    const id = await exportHeldAtSecondPage();
    release();
    await expect.poll(() => app.sessionReasons()).toContain('expired');
    const signedIn = await app.invoke('session', 'signIn', { ...DEMO_USERS.inspector, remember: false });
    expect(signedIn.ok).toBe(true);
    const outcome = await settled(app, id);
    expect(outcome).toMatchObject({ id, rows: 1_500 });
    const book = await readBook(join(folder.dir, 'saved', 'fileName' in outcome ? outcome.fileName : ''));
    const query = new Map(book.rows('Query').map(([label, value]) => [label?.v, value?.v]));
    expect(query.get('User')).toBe(DEMO_USERS.inspector.username);
  });

  it('keeps waiting while its user works signed in on this computer alone, and goes on at their sign-in', async () => {
    unauthorizedOnce = true;
    const id = await exportHeldAtSecondPage();
    release();
    await expect.poll(() => app.sessionReasons()).toContain('expired');
    // The server is out of reach now: the user signs in here alone, which opens their saved data only.
    const alone = await app.invoke('session', 'signIn', {
      ...DEMO_USERS.inspector,
      remember: false,
      offline: true,
    });
    expect(alone).toMatchObject({ ok: true, data: { offline: true } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const ended = app.events.some(
      ({ event, payload }) =>
        (event === 'export.done' || event === 'export.failed') && (payload as { id: string }).id === id,
    );
    expect(ended).toBe(false);
    const signedIn = await app.invoke('session', 'signIn', { ...DEMO_USERS.inspector, remember: false });
    expect(signedIn.ok).toBe(true);
    expect(await settled(app, id)).toMatchObject({ id, rows: 1_500 });
  });

  it('cannot start while nobody is signed in', async () => {
    await app.invoke('session', 'signOut');
    const started = await app.invoke('exports', 'grid', {
      list: 'manifests',
      format: 'csv',
      fields: ['manifest_tracking_number'],
    });
    expect(started).toEqual({ ok: false, error: { kind: 'unauthorized', message: OWNER_MESSAGES.noOwner } });
  });
});
