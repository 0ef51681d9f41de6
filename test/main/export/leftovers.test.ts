/**
 * What exports leave behind, and cancels: an app process killed mid-export leaves its hidden `.part` file
 * beside the target and its `.cells` scratch file, and the next start removes both and nothing else of the
 * user's; quitting cancels running exports and waits until their files are gone; cancelling a profile export
 * is honoured.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MANIFEST_COLUMNS } from '../../../shared/columns.ts';
import { CANCELLED_MESSAGE } from '../../../main/src/export/errors.ts';
import { PartNotes, sweepLeftovers } from '../../../main/src/export/leftovers.ts';
import { startTrackerServer, type TrackerServer } from '../../helpers/tracker-server.ts';
import { DEMO_USERS, createTestApp, temporaryFolder } from '../support.ts';
import { settled } from './export-app.ts';

let server: TrackerServer;
let folder: Awaited<ReturnType<typeof temporaryFolder>>;

beforeAll(async () => {
  server = await startTrackerServer({ manifests: 1_200, seed: 5 });
}, 60_000);
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  folder = await temporaryFolder();
});
afterEach(async () => {
  await folder.remove();
});

/** Runs crash-mid-export.ts until it is writing, then kills it as a crash would. */
async function crashMidExport(target: string, userData: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [resolve(import.meta.dirname, 'crash-mid-export.ts'), server.baseUrl, target, userData],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((done) => child.once('exit', done));
  try {
    for await (const line of createInterface({ input: child.stdout })) if (line === 'writing') break;
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

describe('leftovers of an export that did not end', () => {
  it('are removed at the next start, and nothing else in the user’s folder or the app’s', async () => {
    const documents = join(folder.dir, 'documents');
    const userData = join(folder.dir, 'user-data');
    await mkdir(documents, { recursive: true });
    await writeFile(join(documents, 'report.xlsx'), 'the user’s own file');
    await writeFile(join(documents, '.report.xlsx.notes.part'), 'a file of another program');
    await crashMidExport(join(documents, 'manifests.xlsx'), userData);

    const left = await readdir(documents);
    expect(left.filter((name) => name.endsWith('.part'))).toHaveLength(2);
    expect((await readdir(join(userData, 'exports'))).some((name) => name.endsWith('.cells'))).toBe(true);

    const restarted = await createTestApp({ dir: userData, baseUrl: server.baseUrl });
    expect(await readdir(documents)).toEqual(['.report.xlsx.notes.part', 'report.xlsx']);
    expect(await readdir(join(userData, 'exports'))).toEqual([]);
    expect(await readFile(join(documents, 'report.xlsx'), 'utf8')).toBe('the user’s own file');
    await restarted.context.exports.cancelAll();
  }, 60_000);

  it('never removes a file a note names unless it is one of the app’s temporary names', async () => {
    const exports = join(folder.dir, 'exports');
    await mkdir(exports, { recursive: true });
    const mine = join(folder.dir, 'budget.xlsx');
    await writeFile(mine, 'keep me');
    await new PartNotes(exports).note('a', mine);
    await new PartNotes(exports).note('b', 'relative/.x.xlsx.0123abcd.part');
    await writeFile(join(exports, 'notes.txt'), 'not the app’s');
    expect(await sweepLeftovers(exports)).toEqual([]);
    expect(await readFile(mine, 'utf8')).toBe('keep me');
    expect(await readdir(exports)).toEqual(['notes.txt']);
  });
});

describe('cancels', () => {
  it('cancels running exports when the app quits, and settles once their files are gone', async () => {
    const app = await createTestApp({
      dir: folder.dir,
      baseUrl: server.baseUrl,
      client: {
        fetch: async (input, init) => {
          const body =
            typeof init?.body === 'string' ? (JSON.parse(init.body) as { pageInfo?: { page?: number } }) : {};
          if ((body.pageInfo?.page ?? 0) > 0) await new Promise((go) => setTimeout(go, 60_000));
          return fetch(input, init);
        },
      },
    });
    await app.invoke('session', 'signIn', { ...DEMO_USERS.inspector, remember: false });
    const started = await app.invoke('exports', 'grid', {
      list: 'manifests',
      format: 'xlsx',
      fields: MANIFEST_COLUMNS.map((column) => column.field),
    });
    if (!started.ok || !started.data) throw new Error('the export did not start');
    await expect.poll(async () => (await readdir(join(folder.dir, 'saved'))).length).toBe(1);
    await app.context.exports.cancelAll();
    expect(await readdir(join(folder.dir, 'saved'))).toEqual([]);
    expect(await readdir(join(folder.dir, 'exports'))).toEqual([]);
    expect(await settled(app, started.data.id)).toEqual({ id: started.data.id, message: CANCELLED_MESSAGE });
  });

  it('honours a cancel of a profile export: no file, and it says so', async () => {
    const app = await createTestApp({ dir: folder.dir, baseUrl: server.baseUrl });
    await app.invoke('session', 'signIn', { ...DEMO_USERS.inspector, remember: false });
    const { handler } = server.db
      .prepare('SELECT epa_handler_id AS handler FROM generators LIMIT 1')
      .get() as {
      handler: string;
    };
    const started = await app.invoke('exports', 'profile', { handler_id: handler });
    if (!started.ok || !started.data) throw new Error('the export did not start');
    await app.invoke('exports', 'cancel', { id: started.data.id });
    expect(await settled(app, started.data.id)).toEqual({ id: started.data.id, message: CANCELLED_MESSAGE });
    expect(await readdir(join(folder.dir, 'saved'))).toEqual([]);
  });
});
