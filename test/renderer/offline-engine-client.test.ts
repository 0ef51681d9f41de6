/**
 * The engine client and its worker host talking over a real MessageChannel (structured clone, as between
 * the page and the Web Worker): answers come back to the request that asked, errors reject with their kind,
 * rows a pack cannot be opened over are refused with the reason; a stored pack is read by the host itself
 * from the user's database (IndexedDB in the worker; fake-indexeddb here).
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ManifestRecord } from '../../shared/api/index.ts';
import type { PackQuery, PackRows } from '../../renderer/src/offline/engine/contract.ts';
import { EngineClient, EngineError } from '../../renderer/src/offline/engine-client.ts';
import { engineHost } from '../../renderer/src/offline/engine/engine-host.ts';
import type { EngineMessage } from '../../renderer/src/offline/engine/engine-messages.ts';
import { openOfflineDatabase, type PackStatus } from '../../renderer/src/offline/database.ts';
import { readStoredPack, saveStoredIndexes } from '../../renderer/src/offline/stored-pack.ts';

function manifest(number: string, shipped: string, code: string): ManifestRecord {
  return {
    manifest_tracking_number: number,
    generator_name: 'Acme Plating',
    transporter: 'Rapid Haul',
    designated_facility_name: 'Clean Harbors',
    shipped_date: shipped,
    received_date: shipped,
    total_waste_quantity_tons: 1.25,
    container_count: 2,
    waste_stream_count: 1,
    generator_location_state: 'CA',
    generator_epa_id: 'CAD000000001',
    waste_lines: [
      {
        manifest_tracking_number: number,
        waste_line_number: 1,
        usdot_haz_indicator: 'Y',
        usdot_id_number: 'UN1993',
        usdot_desc: 'Flammable liquid',
        container_count: 2,
        container_type_code: 'DM',
        epa_waste_indicator: 'Y',
        waste_quantity_tons: 1.25,
        transporter: 'CAR000000009',
        federal_waste_codes: 'D001',
        mmc_and_desc: `${code} - FUEL BLENDING`,
      },
    ],
  };
}

const ROWS: PackRows = {
  list: 'manifests',
  generators: [],
  details: [],
  manifests: [
    manifest('000000001ELC', '2024-03-01', 'H061'),
    manifest('000000002ELC', '2024-05-01', 'H141'),
    manifest('000000003ELC', '2024-04-01', 'H061'),
  ],
};

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

function connected(): EngineClient {
  const channel = new MessageChannel();
  channels.push(channel);
  const reply = engineHost({ read: readStoredPack, saveIndexes: saveStoredIndexes });
  channel.port2.onmessage = (event: MessageEvent<EngineMessage>) =>
    void reply(event.data).then((answer) => channel.port2.postMessage(answer));
  return new EngineClient(channel.port1);
}

describe('the engine client', () => {
  it('opens a pack and answers pages, totals and lookups over it', async () => {
    const engine = connected();
    await engine.openStored('p1', await storedPack('complete'));
    const [page, totals, lookup] = await Promise.all([
      engine.answer('p1', {
        name: 'manifests.list',
        input: { pageInfo: { page: 0, pageSize: 2 }, filterFields: { handling_codes: ['H061'] } },
      }),
      engine.answer('p1', { name: 'manifests.aggregate', input: { filterFields: {} } }),
      engine.answer('p1', { name: 'manifests.lookup', input: { field: 'handling_code', page: 1 } }),
    ]);
    expect(page.totalElements).toBe(2);
    // Newest first by default; H141's manifest is filtered out.
    expect(page.content.map((row) => row.manifest_tracking_number)).toEqual(['000000003ELC', '000000001ELC']);
    expect(totals).toEqual({ total_waste: 3.75, shipped_count: 3, container_count: 6, waste_streams: 3 });
    expect(lookup).toEqual({
      results: [
        { value: 'H061', text: 'H061' },
        { value: 'H141', text: 'H141' },
      ],
      pagination: { more: false },
    });
  });

  it('rejects a bad request with its kind and the reason', async () => {
    const engine = connected();
    await engine.openStored('p1', await storedPack('complete'));
    const refused = engine.answer('p1', {
      name: 'manifests.list',
      input: { pageInfo: { page: 0, pageSize: 10, sort: 'colour asc' } },
    });
    await expect(refused).rejects.toThrow(EngineError);
    await expect(refused).rejects.toMatchObject({ kind: 'bad-request', message: /unknown field "colour"/ });
  });

  it('says when a pack is not open, or was closed', async () => {
    const engine = connected();
    await expect(engine.answer('nope', { name: 'manifests.aggregate', input: {} })).rejects.toMatchObject({
      kind: 'offline',
      message: /"nope" is not open/,
    });
    await engine.openStored('p1', await storedPack('complete'));
    engine.close('p1');
    await expect(engine.answer('p1', { name: 'manifests.aggregate', input: {} })).rejects.toMatchObject({
      kind: 'offline',
    });
  });

  it('refuses rows that lack a field, naming it', async () => {
    const engine = connected();
    const [first, ...rest] = ROWS.manifests;
    const { shipped_date: _dropped, ...lacking } = first ?? {};
    const stored = await storedPack('complete', [lacking, ...rest]);
    await expect(engine.openStored('p1', stored)).rejects.toThrow(
      /manifest 1 of the pack lacks "shipped_date"/,
    );
  });

  it('checks scope on the page, with no round trip', () => {
    const engine = new EngineClient({ postMessage: () => undefined, onmessage: null });
    const pack: PackQuery = { list: 'manifests', filterFields: { handling_codes: ['H061'] }, searchKey: '' };
    expect(
      engine.covers(pack, {
        name: 'manifests.aggregate',
        input: { filterFields: { handling_codes: ['H061'] } },
      }),
    ).toBe(true);
    expect(engine.covers(pack, { name: 'manifests.aggregate', input: { filterFields: {} } })).toBe(false);
  });
});

let databases = 0;

/** A database holding pack "p1" of `manifests`, stored as a download stores it; its name. */
async function storedPack(status: PackStatus, manifests = ROWS.manifests): Promise<string> {
  const name = `stored-pack-${(databases += 1)}`;
  const db = openOfflineDatabase(name);
  await db.packs.put({
    id: 'p1',
    list: 'manifests',
    query: { list: 'manifests', filterFields: {}, searchKey: '' },
    title: 'All manifests',
    status,
    createdAt: 0,
    total: manifests.length,
    rowsDone: status === 'complete' ? manifests.length : 2,
    generatorCount: 0,
    size: 0,
  });
  await db.chunks.bulkPut([
    { packId: 'p1', part: 'rows', page: 0, rows: manifests.slice(0, 2), size: 0 },
    { packId: 'p1', part: 'rows', page: 1, rows: manifests.slice(2), size: 0 },
  ]);
  db.close();
  return name;
}

describe('a pack the engine reads from storage', () => {
  it('opens a complete pack from the named database and answers over every stored row', async () => {
    const engine = connected();
    await engine.openStored('p1', await storedPack('complete'));
    expect(await engine.answer('p1', { name: 'manifests.aggregate', input: { filterFields: {} } })).toEqual({
      total_waste: 3.75,
      shipped_count: 3,
      container_count: 6,
      waste_streams: 3,
    });
  });

  it('keeps a pack it indexed at the end of its download open, answering with no read from storage', async () => {
    const engine = connected();
    const name = await storedPack('downloading');
    await engine.indexStored('p1', name);
    // The rows are gone from storage: only the copy the engine kept can answer.
    const db = openOfflineDatabase(name);
    await db.chunks.clear();
    db.close();
    expect(await engine.answer('p1', { name: 'manifests.aggregate', input: { filterFields: {} } })).toEqual({
      total_waste: 3.75,
      shipped_count: 3,
      container_count: 6,
      waste_streams: 3,
    });
  });

  it('refuses a pack whose download is not complete, and one that is not stored, saying which', async () => {
    const engine = connected();
    const name = await storedPack('paused');
    await expect(engine.openStored('p1', name)).rejects.toThrow(/“All manifests” is not complete/);
    await expect(engine.openStored('p9', name)).rejects.toThrow(/"p9" is no longer saved/);
    await expect(engine.answer('p1', { name: 'manifests.aggregate', input: {} })).rejects.toMatchObject({
      kind: 'offline',
    });
  });

  it('forgets a pack closed while its rows were being read', async () => {
    const engine = connected();
    const opening = engine.openStored('p1', await storedPack('complete'));
    engine.close('p1');
    await expect(opening).rejects.toThrow(/was closed/);
    await expect(engine.answer('p1', { name: 'manifests.aggregate', input: {} })).rejects.toMatchObject({
      kind: 'offline',
    });
  });
});
