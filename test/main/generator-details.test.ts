/**
 * `generators.details`, the batch of details an offline pack downloads, against the real reference server
 * over real HTTP: the details in the order asked with each generator's own totals equal to the server's
 * aggregated_data for that id, unknown ids listed apart from failures, a 401 answering the whole batch, and
 * the caller's cancel stopping every request of the batch in flight.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contract } from '../../shared/ipc/contract.ts';
import { startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import { DEMO_USERS, assertOk, createTestApp, temporaryFolder, type TestApp } from './support.ts';

let server: TrackerServer;
let folder: Awaited<ReturnType<typeof temporaryFolder>>;
let ids: string[];

function expectContract(result: unknown): void {
  const spec = contract.generators.details as { output: z.ZodType };
  expect(spec.output.safeParse(result).error).toBeUndefined();
}

async function signedIn(client?: { fetch: typeof fetch }): Promise<TestApp> {
  const app = await createTestApp({
    dir: folder.dir,
    baseUrl: server.baseUrl,
    ...(client ? { client } : {}),
  });
  assertOk(await app.invoke('session', 'signIn', { ...DEMO_USERS.inspector, remember: false }));
  return app;
}

beforeAll(async () => {
  server = await startTrackerServer({ manifests: 400, dialect: 'typed' });
  ids = (
    server.db.prepare('SELECT epa_handler_id AS id FROM generators ORDER BY id DESC LIMIT 30').all() as {
      id: string;
    }[]
  ).map((row) => row.id);
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  folder = await temporaryFolder();
});
afterEach(async () => {
  await folder.remove();
});

describe('generators.details', () => {
  it('answers every detail in the order asked, each with its own totals, and unknown ids apart', async () => {
    const app = await signedIn();
    const asked = [...ids.slice(0, 12), 'ZZ0000000000', ...ids.slice(12)];
    const answer = await app.invoke('generators', 'details', { ids: asked, totals: true });
    expectContract(answer);
    const batch = assertOk(answer);
    expect(batch.missing).toEqual(['ZZ0000000000']);
    expect(batch.found.map((entry) => entry.detail.generator_data.epa_handler_id)).toEqual(ids);
    for (const [index, id] of ids.entries()) {
      const one = assertOk(await app.invoke('generators', 'detail', { handler_id: id }));
      const own = assertOk(await app.invoke('generators', 'aggregate', { filterFields: { ids: [id] } }));
      expect(batch.found[index]).toEqual({ detail: one, totals: own });
    }
  });

  it('leaves the totals out unless asked', async () => {
    const app = await signedIn();
    const batch = assertOk(await app.invoke('generators', 'details', { ids: ids.slice(0, 3) }));
    expect(batch.found.map((entry) => Object.keys(entry))).toEqual([['detail'], ['detail'], ['detail']]);
  });

  it('refuses an empty batch or one over its limit with a clear message', async () => {
    const app = await signedIn();
    expect(await app.invoke('generators', 'details', { ids: [] })).toMatchObject({
      ok: false,
      error: { kind: 'bad-request', message: expect.stringContaining('at least one generator') as string },
    });
    const tooMany = Array.from({ length: 201 }, (_, index) => `ID${index}`);
    expect(await app.invoke('generators', 'details', { ids: tooMany })).toMatchObject({
      ok: false,
      error: { kind: 'bad-request', message: expect.stringContaining('at most 200') as string },
    });
  });

  it('answers the whole batch "unauthorized" when the session has ended on the server', async () => {
    const app = await signedIn();
    // Revoke the token behind main's back: the server now answers 401.
    server.db.prepare('UPDATE tokens SET revoked = 1').run();
    const answer = await app.invoke('generators', 'details', { ids: ids.slice(0, 5) });
    expectContract(answer);
    expect(answer).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
  });

  it('stops every request of the batch when its caller cancels', async () => {
    const signals: AbortSignal[] = [];
    const heldFetch: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      if (url.pathname.includes('/details/') && init?.signal) {
        signals.push(init.signal);
        // Held until aborted: the cancel surely meets the batch in flight.
        await new Promise((resolve) => init.signal!.addEventListener('abort', resolve, { once: true }));
      }
      return fetch(input, init);
    };
    const app = await signedIn({ fetch: heldFetch });
    const batch = app.invoke('generators', 'details', { ids }, { requestId: 'batch' });
    while (signals.length < 8) await new Promise((resolve) => setTimeout(resolve, 5));
    assertOk(await app.invoke('requests', 'cancel', { id: 'batch' }));
    await expect(batch).resolves.toMatchObject({ ok: false, error: { kind: 'cancelled' } });
    expect(signals).toHaveLength(8);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
  });
});
