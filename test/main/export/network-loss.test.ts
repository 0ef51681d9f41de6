/**
 * An export that loses the server midway, through the real main handlers: the reference server sits behind
 * a loopback gate that the test shuts once the first rows are written, as when the network goes. The export
 * must fail with the network named as its cause (so the renderer can offer an offline copy), leave the file
 * that was there before untouched, and leave no temporary file beside it.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MANIFEST_COLUMNS } from '../../../shared/columns.ts';
import type { EventPayload } from '../../../shared/ipc/contract.ts';
import { ServerGate } from '../../e2e/support/server-gate.ts';
import { startTrackerServer, type TrackerServer } from '../../helpers/tracker-server.ts';
import { DEMO_USERS, createTestApp, temporaryFolder, type TestApp } from '../support.ts';

let server: TrackerServer;
let gate: ServerGate;
let folder: Awaited<ReturnType<typeof temporaryFolder>>;
let app: TestApp;

beforeAll(async () => {
  // 3,000 manifests: six pages of 500, so most of the export is still to fetch when the gate shuts.
  server = await startTrackerServer({ manifests: 3_000 });
  gate = await ServerGate.open(server.baseUrl);
  folder = await temporaryFolder();
  app = await createTestApp({ dir: folder.dir, baseUrl: gate.baseUrl });
  const signedIn = await app.invoke('session', 'signIn', { ...DEMO_USERS.inspector, remember: false });
  if (!signedIn.ok) throw new Error(signedIn.error.message);
});
afterAll(async () => {
  await gate?.close();
  await server?.close();
  await folder?.remove();
});

/** Polls the recorded events until `found` picks one out. */
async function eventOf<Found>(found: (event: string, payload: unknown) => Found | undefined): Promise<Found> {
  for (;;) {
    for (const { event, payload } of app.events) {
      const hit = found(event, payload);
      if (hit !== undefined) return hit;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

it('fails with the network as its cause, keeps the old file, and leaves no temporary file', async () => {
  const saved = join(folder.dir, 'saved');
  const target = join(saved, 'manifests.xlsx');
  await mkdir(saved, { recursive: true });
  await writeFile(target, 'the workbook exported yesterday');
  app.saveTargets.next = () => target;

  const started = await app.invoke('exports', 'grid', {
    list: 'manifests',
    format: 'xlsx',
    fields: MANIFEST_COLUMNS.map((column) => column.field),
  });
  if (!started.ok || !started.data) throw new Error('the export did not start');
  const { id } = started.data;

  const written = await eventOf((event, payload) => {
    const progress = payload as EventPayload<'export.progress'>;
    return event === 'export.progress' && progress.id === id && progress.rowsWritten > 0
      ? progress
      : undefined;
  });
  await gate.shut();
  expect(written.rowsWritten).toBeLessThan(written.total);

  const failed = await eventOf((event, payload) =>
    (event === 'export.failed' || event === 'export.done') && (payload as { id: string }).id === id
      ? { event, payload: payload as EventPayload<'export.failed'> }
      : undefined,
  );
  expect(failed.event).toBe('export.failed');
  expect(failed.payload.cause).toBe('network');
  expect(failed.payload.message).toMatch(/answer|reach|connection/i);
  expect(await readFile(target, 'utf8')).toBe('the workbook exported yesterday');
  expect(await readdir(saved)).toEqual(['manifests.xlsx']);
});
