/**
 * The saved data of earlier versions opened by the app. Version 1: a database written in version 1's layout, with
 * packs read from the real reference server, is upgraded in place and every record stays usable: saved
 * answers as they were, a complete pack opens in the engine and answers as main's handlers answer from the
 * server, and a download that version 1 left waiting for Resume after a lost connection is `interrupted`
 * (it resumes by itself) with its detail pages of 50 dropped, to be fetched again 200 at a time. Its resumed
 * download, with nothing missing or twice, is held in test/renderer/offline/database-upgrade.test.ts.
 * Version 2: a complete pack stored without the engine's indexes opens from its rows, then has its indexes
 * stored beside it, and opens from them next time with the same answers; indexes not of its rows are set aside.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CONNECTION_LOST,
  RESUMING_STATUSES,
  V1_CONNECTION_LOST,
  openOfflineDatabase,
  packChunks,
  type AnswerRecord,
} from '../../renderer/src/offline/database.ts';
import type { PackQuery, PackRows } from '../../renderer/src/offline/engine/contract.ts';
import { engineHost } from '../../renderer/src/offline/engine/engine-host.ts';
import type { EngineMessage } from '../../renderer/src/offline/engine/engine-messages.ts';
import { openPack } from '../../renderer/src/offline/engine/open-pack.ts';
import { deletePack, loadPackRows } from '../../renderer/src/offline/packs.ts';
import { readStoredPack, saveStoredIndexes } from '../../renderer/src/offline/stored-pack.ts';
import { DEMO_USERS, createTestApp, temporaryFolder, type TestApp } from '../main/support.ts';
import {
  VERSION_1_PAGES,
  VERSION_2_PAGES,
  openVersion1,
  openVersion2,
  pages,
  writeVersion1Pack,
} from '../helpers/offline-version-1.ts';
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
    expect(db.verno).toBe(4);

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

describe('upgrading saved data from version 2', () => {
  const packId = 'manifests';
  const requests = () => {
    const manifest = manifestsPack.manifests[3]!;
    return [
      { filterFields: {}, searchKey: '', pageInfo: { page: 0, pageSize: 50 } },
      {
        filterFields: { transporter_names: [manifest.transporter ?? ''] },
        searchKey: '',
        pageInfo: { page: 1, pageSize: 10, sort: 'total_waste_quantity_tons desc' },
      },
      {
        filterFields: { shipped_date_end: manifest.shipped_date ?? '' },
        searchKey: (manifest.generator_name ?? '').slice(1, 4),
        pageInfo: { page: 0, pageSize: 25, sort: 'generator_name asc' },
      },
    ];
  };
  /** Opens the pack in a new engine host, as a new worker does, and waits until it has stored its indexes. */
  const openInNewHost = async (database: string, stored: (indexes: unknown) => boolean) => {
    const host = engineHost({ read: readStoredPack, saveIndexes: saveStoredIndexes });
    expect(await host({ type: 'open-stored', id: 1, packId, database })).toEqual({
      id: 1,
      ok: true,
      data: null,
    });
    const db = openOfflineDatabase(database);
    try {
      await vi.waitFor(async () => expect(stored((await db.packIndexes.get(packId))?.indexes)).toBe(true), {
        timeout: 30_000,
        interval: 50,
      });
    } finally {
      db.close();
    }
    return host;
  };
  const answers = async (host: (message: EngineMessage) => Promise<unknown>) => {
    const replies = [];
    for (const input of requests()) {
      replies.push(await host({ type: 'answer', id: 2, packId, name: 'manifests.list', input }));
    }
    return replies;
  };

  it('opens a pack stored without indexes from its rows, stores them, and opens from them next time', async () => {
    const name = 'waste-tracker version-2 inspector';
    const version2 = openVersion2(name);
    const pack = { query: MANIFESTS, title: 'All manifests', createdAt: 1, refreshedAt: 2 };
    await writeVersion1Pack(
      version2,
      { ...pack, id: packId, status: 'complete' },
      manifestsPack,
      undefined,
      VERSION_2_PAGES,
    );
    version2.close();
    const db = openOfflineDatabase(name);
    await db.open();
    expect(db.verno).toBe(4);
    const before = (await db.packs.get(packId))!;
    expect(await db.packIndexes.count()).toBe(0);

    // The first open builds the indexes (its warm-up), then stores them, counted in the pack's size.
    const first = await openInNewHost(name, (indexes) => indexes !== undefined);
    const after = (await db.packs.get(packId))!;
    expect(after.indexSize).toBeGreaterThan(0);
    expect(after.size).toBe(before.size + after.indexSize!);
    const stored = await readStoredPack(name, packId);
    expect(openPack(stored.rows, stored.indexes).fromStored).toBe(true);

    // The next open answers from them, exactly as the first did and as main's handlers do from the server.
    const second = engineHost({ read: readStoredPack, saveIndexes: saveStoredIndexes });
    await second({ type: 'open-stored', id: 1, packId, database: name });
    const expected = await answers(first);
    expect(await answers(second)).toEqual(expected);
    for (const [index, input] of requests().entries()) {
      const online = await app.invoke('manifests', 'list', input);
      if (!online.ok) throw new Error(online.error.message);
      expect(expected[index]).toEqual({ id: 2, ok: true, data: online.data });
    }

    // Indexes that are not of these rows (a checksum that does not match) are set aside: the pack answers
    // from its rows, then stores its own in their place.
    const indexes = stored.indexes!;
    const checksum = indexes.table.checksum;
    await db.packIndexes.put({
      packId,
      indexes: { ...indexes, table: { ...indexes.table, checksum: checksum ^ 1 } },
    });
    const third = await openInNewHost(
      name,
      (kept) => (kept as typeof indexes | undefined)?.table.checksum === checksum,
    );
    expect(await answers(third)).toEqual(expected);
    expect((await db.packs.get(packId))!.size).toBe(after.size);

    // Deleting the pack deletes its indexes.
    await deletePack(db, packId);
    expect(await db.packIndexes.count()).toBe(0);
    db.close();
  });
});
