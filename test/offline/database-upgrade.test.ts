/**
 * The saved data of version 1 opened by the app of version 2: a database written in version 1's layout, with
 * packs read from the real reference server, is upgraded in place and every record stays usable: saved
 * answers as they were, a complete pack opens in the engine and answers as main's handlers answer from the
 * server, and a download that version 1 left waiting for Resume after a lost connection is `interrupted`
 * (it resumes by itself) with its detail pages of 50 dropped, to be fetched again 200 at a time. Its resumed
 * download, with nothing missing or twice, is held in test/renderer/offline/database-upgrade.test.ts.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONNECTION_LOST,
  RESUMING_STATUSES,
  V1_CONNECTION_LOST,
  openOfflineDatabase,
  packChunks,
  type AnswerRecord,
} from '../../renderer/src/offline/database.ts';
import type { PackQuery, PackRows } from '../../renderer/src/offline/engine/contract.ts';
import { openPack } from '../../renderer/src/offline/engine/open-pack.ts';
import { loadPackRows } from '../../renderer/src/offline/packs.ts';
import { DEMO_USERS, createTestApp, temporaryFolder, type TestApp } from '../main/support.ts';
import { VERSION_1_PAGES, openVersion1, pages, writeVersion1Pack } from '../helpers/offline-version-1.ts';
import { readPack } from '../helpers/pack-reader.ts';
import { startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import { signInAs } from '../server/support.ts';

const GENERATORS: PackQuery = { list: 'generators', filterFields: {}, searchKey: '' };
const MANIFESTS: PackQuery = { list: 'manifests', filterFields: {}, searchKey: '' };

let server: TrackerServer;
let folder: Awaited<ReturnType<typeof temporaryFolder>>;
let app: TestApp;
let generatorsPack: PackRows;
let manifestsPack: PackRows;

beforeAll(async () => {
  server = await startTrackerServer({ manifests: 1200, dialect: 'typed' });
  folder = await temporaryFolder();
  app = await createTestApp({ dir: folder.dir, baseUrl: server.baseUrl });
  const signedIn = await app.invoke('session', 'signIn', { ...DEMO_USERS.inspector, remember: false });
  if (!signedIn.ok) throw new Error(signedIn.error.message);
  const session = await signInAs(
    server.baseUrl,
    DEMO_USERS.inspector.username,
    DEMO_USERS.inspector.password,
  );
  generatorsPack = await readPack(session, GENERATORS);
  manifestsPack = await readPack(session, MANIFESTS);
});

afterAll(async () => {
  await server?.close();
  await folder?.remove();
});

describe('upgrading saved data from version 1', () => {
  it('keeps every record usable, and lets a download cut short by a lost connection resume by itself', async () => {
    expect(generatorsPack.details.length).toBeGreaterThan(2 * VERSION_1_PAGES.details);
    const answer: AnswerRecord = {
      key: 'generators.aggregate {"filterFields":{},"searchKey":""}',
      data: { epa_total: 1.5, shipped_count: 2, container_count: 3, mmc_count: 1 },
      fetchedAt: 1_700_000_000_000,
      lastUsed: 1_700_000_100_000,
      size: 80,
    };
    const name = 'waste-tracker version-1 inspector';
    const version1 = openVersion1(name);
    await version1.table('answers').put(answer);
    await version1.table('meta').put({ name: 'answersSize', value: answer.size });
    const complete = { query: GENERATORS, title: 'All generators', createdAt: 1, refreshedAt: 2 };
    await writeVersion1Pack(version1, { ...complete, id: 'complete', status: 'complete' }, generatorsPack);
    const manifests = { query: MANIFESTS, title: 'All manifests', status: 'paused' as const };
    await writeVersion1Pack(
      version1,
      { ...manifests, id: 'cut-short', stopped: V1_CONNECTION_LOST, createdAt: 3 },
      manifestsPack,
      2,
    );
    await writeVersion1Pack(version1, { ...manifests, id: 'user-paused', createdAt: 4 }, manifestsPack, 1);
    version1.close();

    const db = openOfflineDatabase(name);
    await db.open();
    expect(db.verno).toBe(2);

    // Saved answers and counters as they were.
    expect(await db.answers.toArray()).toEqual([answer]);
    expect(await db.meta.get('answersSize')).toEqual({ name: 'answersSize', value: answer.size });

    // The complete pack opens in the engine and answers as the server does.
    const pack = (await db.packs.get('complete'))!;
    expect(pack.status).toBe('complete');
    const rows = await loadPackRows(db, pack);
    expect(rows.generators).toHaveLength(generatorsPack.generators.length);
    expect(rows.details).toHaveLength(generatorsPack.details.length);
    const engine = openPack(rows);
    const request = {
      filterFields: { states: [generatorsPack.generators[0]!.location_state!] },
      searchKey: '',
      pageInfo: { page: 0, pageSize: 25, sort: 'generator_name desc' },
    };
    expect(engine.answer('generators.list', request)).toEqual(
      await app.invoke('generators', 'list', request),
    );
    const id = generatorsPack.generators.at(-1)!.epa_handler_id!;
    expect(engine.answer('generators.detail', { handler_id: id })).toEqual(
      await app.invoke('generators', 'detail', { handler_id: id }),
    );
    // Made before each generator's totals were kept: those boxes ask for a refresh instead of guessing.
    expect(engine.answer('generators.aggregate', { filterFields: {}, searchKey: '' })).toMatchObject({
      ok: false,
      error: { kind: 'offline', message: expect.stringContaining('refresh it') as string },
    });
    const completeChunks = await packChunks(db, 'complete').toArray();
    expect(pack.size).toBe(completeChunks.reduce((sum, chunk) => sum + chunk.size, 0));

    // The download the lost connection stopped now resumes by itself; its detail pages of 50 are gone.
    const resuming = await db.packs.where('status').anyOf(RESUMING_STATUSES).toArray();
    expect(resuming.map((record) => record.id)).toEqual(['cut-short']);
    const cutShort = (await db.packs.get('cut-short'))!;
    expect(cutShort).toMatchObject({ status: 'interrupted', stopped: CONNECTION_LOST });
    expect(await packChunks(db, 'cut-short', 'details').count()).toBe(0);
    expect((await db.progress.get('cut-short'))!.parts.details).toBeUndefined();
    const kept = await packChunks(db, 'cut-short').toArray();
    expect(kept.filter((chunk) => chunk.part === 'rows')).toHaveLength(
      pages(manifestsPack.manifests, VERSION_1_PAGES.rows).length,
    );
    expect(kept.filter((chunk) => chunk.part === 'generators')).toHaveLength(
      pages(manifestsPack.generators, VERSION_1_PAGES.generators).length,
    );
    expect(cutShort.size).toBe(kept.reduce((sum, chunk) => sum + chunk.size, 0));
    // The user's pause stands.
    expect((await db.packs.get('user-paused'))!.status).toBe('paused');
    db.close();
  });
});
