/**
 * Exports of offline data through the real main handlers: offline packs read from the real reference server
 * as the app downloads them, answered by the real offline engine, and sent chunk by chunk by the renderer's
 * own sending loop. Every workbook is read back with SheetJS and compared cell by cell, types included, with
 * the engine's rows for the same query, which equal the API's. Bad chunks, a cancel midway and a renderer
 * that cannot read its pack each fail the export cleanly: no file, no temporary file, any old file intact.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GeneratorRecord, ManifestRecord } from '../../../shared/api/index.ts';
import {
  GENERATOR_COLUMNS,
  MANIFEST_COLUMNS,
  WASTE_LINE_COLUMNS,
  type Column,
} from '../../../shared/columns.ts';
import type { Result } from '../../../shared/ipc/contract.ts';
import { LIMITS } from '../../../shared/api/index.ts';
import { OFFLINE_CHUNK_LINES, type ExportGridInput } from '../../../shared/ipc/exports.ts';
import { openPack, type OpenedPack } from '../../../renderer/src/offline/engine/open-pack.ts';
import {
  pageRequest,
  sendOfflineRows,
  type OfflineRowsChannel,
} from '../../../renderer/src/exports/offline-rows.ts';
import { readPack } from '../../helpers/pack-reader.ts';
import { signIn, type TrackerServer } from '../../helpers/tracker-server.ts';
import { DEMO_USERS, assertOk, type TestApp } from '../support.ts';
import { ODD_NAME, ODD_NAME_WRITTEN, settled, startExportApp, type ExportApp } from './export-app.ts';
import { expectSheet, queryOf } from './expected-cells.ts';
import { readBook } from './workbook-reader.ts';

/** When the packs were saved, as the Query sheet must say. */
const SAVED_AT = Date.UTC(2026, 10, 20, 8, 30);

let running: ExportApp;
let server: TrackerServer;
let app: TestApp;
let appDir: string;
let generatorPack: OpenedPack;
let manifestPack: OpenedPack;

beforeAll(async () => {
  running = await startExportApp({ manifests: 800, seed: 13 });
  ({ server, app, dir: appDir } = running);
  // The packs as the app downloads them: every row of the whole list through the API.
  const session = { baseUrl: server.baseUrl, token: await signIn(server.baseUrl) };
  generatorPack = openPack(await readPack(session, { list: 'generators', filterFields: {}, searchKey: '' }));
  manifestPack = openPack(await readPack(session, { list: 'manifests', filterFields: {}, searchKey: '' }));
}, 60_000);
afterEach(() => {
  app.saveTargets.next = (suggested) => join(appDir, 'saved', suggested);
});
afterAll(async () => {
  await running?.close();
});

/** Makes the save dialog answer files in a new folder `name` of the app's folder, for this test; its path. */
async function savingInto(name: string): Promise<string> {
  const dir = join(appDir, name);
  await mkdir(dir, { recursive: true });
  app.saveTargets.next = (suggested) => join(dir, suggested);
  return dir;
}

/** The renderer's channel to main, with the pages read from `pack` as the engine's worker answers them. */
function channel(pack: OpenedPack, id: string): OfflineRowsChannel & { answers: Result<null>[] } {
  const answers: Result<null>[] = [];
  return {
    answers,
    page: (request) => {
      const answer = pack.answer(request.name, request.input);
      return answer.ok ? Promise.resolve(answer.data) : Promise.reject(new Error(answer.error.message));
    },
    send: async (total, rows) => {
      const answer = await app.invoke('exports', 'offlineChunk', { id, total, rows: [...rows] });
      answers.push(answer);
      return answer;
    },
    end: (failure) => app.invoke('exports', 'offlineEnd', failure === undefined ? { id } : { id, failure }),
  };
}

/** Starts an export of offline data, saved in `saved/`. */
async function start(query: ExportGridInput): Promise<string> {
  const started = assertOk(await app.invoke('exports', 'offlineStart', { query, savedAt: SAVED_AT }));
  if (!started) throw new Error('the save dialog was closed');
  return started.id;
}

/** Exports the query from the pack as the renderer does; the saved file's path. */
async function exportedFrom(pack: OpenedPack, query: ExportGridInput): Promise<string> {
  const id = await start(query);
  await sendOfflineRows(query, channel(pack, id));
  const outcome = await settled(app, id);
  if ('message' in outcome) throw new Error(outcome.message);
  return join(appDir, 'saved', outcome.fileName);
}

/** Every row the engine answers for the export's query, page by page, as the export reads them. */
function engineRows<Row>(pack: OpenedPack, query: ExportGridInput): Row[] {
  const rows: Row[] = [];
  for (let page = 0; ; page += 1) {
    const { name, input } = pageRequest(query, page);
    const answer = pack.answer(name, input);
    if (!answer.ok) throw new Error(answer.error.message);
    const { content, totalElements } = answer.data as { content: Row[]; totalElements: number };
    rows.push(...content);
    if (content.length === 0 || rows.length >= totalElements) return rows;
  }
}

/** The same rows from the server, to hold the engine's rows to. */
async function apiRows<Row>(query: ExportGridInput): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 0; ; page += 1) {
    const request = pageRequest(query, page);
    const answer = assertOk(
      request.name === 'generators.list'
        ? await app.invoke('generators', 'list', request.input)
        : await app.invoke('manifests', 'list', request.input),
    ) as { totalElements: number; content: Row[] };
    rows.push(...answer.content);
    if (answer.content.length === 0 || rows.length >= answer.totalElements) return rows;
  }
}

function columnsOf(catalogue: readonly Column<string>[], fields: readonly string[]) {
  return fields.map((field) => catalogue.find((column) => column.field === field)!);
}

const noTemporaryFiles = async (dir: string) =>
  expect((await readdir(dir)).filter((name) => name.endsWith('.part'))).toEqual([]);

describe('exports of offline data', () => {
  it('writes every generator of the pack, typed, in the grid’s order, and says the rows are offline data', async () => {
    const fields = GENERATOR_COLUMNS.map((column) => column.field);
    const query: ExportGridInput = { list: 'generators', format: 'xlsx', fields, sort: 'total_waste desc' };
    const path = await exportedFrom(generatorPack, query);
    const expected = engineRows<GeneratorRecord>(generatorPack, query);
    expect(expected).toEqual(await apiRows(query));
    expect(expected.length).toBeGreaterThan(50);
    const book = await readBook(path);
    expect(book.sheetNames).toEqual(['Generators', 'Query']);
    expectSheet(book.rows('Generators'), GENERATOR_COLUMNS, expected);
    expect(book.rows('Generators').some((line) => line[1]?.v === ODD_NAME_WRITTEN)).toBe(true);
    const sheet = queryOf(book);
    expect(sheet).toMatchObject({
      Exported: 'Generators',
      Sort: 'Total waste (tons), descending',
      Rows: expected.length,
      Server: server.baseUrl,
      User: DEMO_USERS.inspector.username,
      Source: 'Offline data',
    });
    // The date the data was saved, as a date cell: Excel's serial day of SAVED_AT in UTC.
    expect(sheet['Offline data saved']).toBeCloseTo(SAVED_AT / 86_400_000 + 25_569, 6);
    await noTemporaryFiles(join(appDir, 'saved'));
  });

  it('writes filtered, searched manifests with chosen columns and every waste line of the pack', async () => {
    const fields = [
      'manifest_tracking_number',
      'generator_name',
      'shipped_date',
      'received_date',
      'total_waste_quantity_tons',
      'container_count',
    ];
    const query: ExportGridInput = {
      list: 'manifests',
      format: 'xlsx',
      filterFields: { shipped_date_start: '2019-01-01' },
      searchKey: 'é',
      sort: 'shipped_date asc',
      fields,
    };
    const path = await exportedFrom(manifestPack, query);
    const expected = engineRows<ManifestRecord>(manifestPack, query);
    expect(expected).toEqual(await apiRows(query));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.every((row) => row.generator_name === ODD_NAME)).toBe(true);
    const book = await readBook(path);
    expect(book.sheetNames).toEqual(['Manifests', 'Waste lines', 'Query']);
    expectSheet(book.rows('Manifests'), columnsOf(MANIFEST_COLUMNS, fields), expected);
    expectSheet(
      book.rows('Waste lines'),
      WASTE_LINE_COLUMNS,
      expected.flatMap((manifest) => manifest.waste_lines ?? []),
    );
    expect(queryOf(book)).toMatchObject({
      Filters: 'Shipped from: 2019-01-01',
      Search: 'é',
      Source: 'Offline data',
    });
  });

  it('writes every manifest of the pack, in more chunks than one page, with all its waste lines', async () => {
    const fields = MANIFEST_COLUMNS.map((column) => column.field);
    const query: ExportGridInput = { list: 'manifests', format: 'xlsx', fields };
    const path = await exportedFrom(manifestPack, query);
    const expected = engineRows<ManifestRecord>(manifestPack, query);
    expect(expected.length).toBe(800);
    const book = await readBook(path);
    expectSheet(book.rows('Manifests'), MANIFEST_COLUMNS, expected);
    expectSheet(
      book.rows('Waste lines'),
      WASTE_LINE_COLUMNS,
      expected.flatMap((manifest) => manifest.waste_lines ?? []),
    );
  });

  it('writes CSV from the pack with the rows the server would give', async () => {
    const query: ExportGridInput = {
      list: 'generators',
      format: 'csv',
      searchKey: 'inc',
      fields: ['epa_handler_id', 'generator_name', 'total_waste'],
    };
    const path = await exportedFrom(generatorPack, query);
    const expected = await apiRows<GeneratorRecord>(query);
    const lines = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('EPA ID,Name,Total waste (tons)');
    expect(lines.slice(1, -1).map((line) => line.split(',')[0])).toEqual(
      expected.map((row) => row.epa_handler_id),
    );
  });
});

/**
 * Bad chunks, each sent after a good chunk of 50 rows: refused with a message naming the row as counted
 * from the export's first, and failing the export without a file.
 */
const BAD_CHUNKS: { name: string; rows: unknown[]; problem: RegExp }[] = [
  { name: 'a number as text', rows: [{ total_waste: 'lots' }], problem: /\(row 51, total_waste: / },
  {
    name: 'a member the list does not have',
    rows: [{ password: 'x' }],
    problem: /\(row 51: no such member: password\)/,
  },
  {
    name: 'a manifest sent to a generators export',
    rows: [{ epa_handler_id: 'CAD000000001' }, { manifest_tracking_number: '1' }],
    problem: /\(row 52: no such member: manifest_tracking_number\)/,
  },
  { name: 'a row that is not an object', rows: ['CAD000000001'], problem: /\(row 51: / },
  { name: 'a name that is not text', rows: [{ generator_name: 42 }], problem: /\(row 51, generator_name: / },
  {
    name: 'a name longer than any field of the API',
    rows: [{ generator_name: 'x'.repeat(LIMITS.fieldTextMax + 1) }],
    problem: /\(row 51, generator_name: a text field is at most 4000 characters\)/,
  },
  {
    name: 'a number sent as endless text',
    rows: [{ total_waste: '9'.repeat(LIMITS.fieldTextMax + 1) }],
    problem: /\(row 51, total_waste: /,
  },
];

describe('chunks of offline data are checked in main', () => {
  for (const { name, rows, problem } of BAD_CHUNKS) {
    it(`refuses ${name}, fails the export and keeps the old file`, async () => {
      const dir = await savingInto('bad-chunks');
      const target = join(dir, 'Generators.xlsx');
      await writeFile(target, 'the previous export');
      app.saveTargets.next = () => target;
      const id = await start({ list: 'generators', format: 'xlsx', fields: ['epa_handler_id'] });
      // A good chunk first, so the refused one comes after rows were written.
      const good = engineRows<GeneratorRecord>(generatorPack, {
        list: 'generators',
        format: 'xlsx',
        fields: ['epa_handler_id', 'generator_name', 'total_waste'],
      }).slice(0, 50);
      expect(await app.invoke('exports', 'offlineChunk', { id, total: 80, rows: good })).toEqual({
        ok: true,
        data: null,
      });
      const refused = await app.invoke('exports', 'offlineChunk', { id, total: 80, rows });
      expect(refused).toMatchObject({ ok: false, error: { kind: 'bad-request' } });
      const message = refused.ok ? '' : refused.error.message;
      expect(message).toMatch(problem);
      expect(message).toMatch(
        /^The offline data sent for the export is not valid \(.*\); no file was written\.$/,
      );
      const outcome = await settled(app, id);
      expect(outcome).toMatchObject({ message });
      expect(await readdir(dir)).toEqual(['Generators.xlsx']);
      expect(await readFile(target, 'utf8')).toBe('the previous export');
      // The export is over: a later chunk or end finds nothing running.
      expect(await app.invoke('exports', 'offlineEnd', { id })).toMatchObject({
        ok: false,
        error: { kind: 'not-found' },
      });
    });
  }

  it('refuses a chunk larger than the contract allows, before main reads any row', async () => {
    const id = await start({ list: 'generators', format: 'csv', fields: ['epa_handler_id'] });
    const rows = Array.from({ length: 251 }, () => ({ epa_handler_id: 'CAD000000001' }));
    expect(await app.invoke('exports', 'offlineChunk', { id, total: 251, rows })).toMatchObject({
      ok: false,
      error: { kind: 'bad-request', message: expect.stringMatching(/^rows: /) as unknown },
    });
    assertOk(await app.invoke('exports', 'cancel', { id }));
    await settled(app, id);
  });

  it('refuses a manifest with more waste lines than the API allows, and a chunk with too many in all', async () => {
    const line = engineRows<ManifestRecord>(manifestPack, {
      list: 'manifests',
      format: 'xlsx',
      fields: ['manifest_tracking_number'],
    }).find((row) => (row.waste_lines?.length ?? 0) > 0)?.waste_lines?.[0];
    if (!line) throw new Error('the pack has no waste line');
    const manifest = (lines: number) => ({
      manifest_tracking_number: line.manifest_tracking_number,
      waste_lines: Array.from({ length: lines }, () => line),
    });
    for (const [rows, problem] of [
      [
        [manifest(LIMITS.wasteLinesMax + 1)],
        /\(row 1, waste_lines: a manifest has at most 1000 waste lines\)/,
      ],
      [
        [manifest(900), manifest(900), manifest(900)],
        new RegExp(`\\(the rows: a chunk holds at most ${OFFLINE_CHUNK_LINES} waste lines in all\\)`),
      ],
    ] as const) {
      const id = await start({ list: 'manifests', format: 'xlsx', fields: ['manifest_tracking_number'] });
      const refused = await app.invoke('exports', 'offlineChunk', {
        id,
        total: rows.length,
        rows: [...rows],
      });
      expect(refused).toMatchObject({ ok: false, error: { kind: 'bad-request' } });
      expect(refused.ok ? '' : refused.error.message).toMatch(problem);
      expect(await settled(app, id)).toMatchObject({
        id,
        message: expect.stringMatching(problem) as unknown,
      });
    }
  });

  it('refuses a chunk for an export that is not running', async () => {
    expect(
      await app.invoke('exports', 'offlineChunk', {
        id: '00000000-0000-4000-8000-000000000000',
        total: 0,
        rows: [],
      }),
    ).toMatchObject({ ok: false, error: { kind: 'not-found' } });
  });
});

describe('an export of offline data that stops midway', () => {
  it('cancelled after a few chunks, refuses the next, and leaves no file and no temporary file', async () => {
    const dir = await savingInto('cancelled');
    const query: ExportGridInput = {
      list: 'manifests',
      format: 'xlsx',
      fields: MANIFEST_COLUMNS.map((column) => column.field),
    };
    const id = await start(query);
    const wire = channel(manifestPack, id);
    let sent = 0;
    const sending = sendOfflineRows(query, {
      ...wire,
      send: async (total, rows) => {
        sent += 1;
        if (sent === 3) assertOk(await app.invoke('exports', 'cancel', { id }));
        return wire.send(total, rows);
      },
    });
    await sending;
    expect(await settled(app, id)).toMatchObject({
      message: 'The export was cancelled; no file was written.',
    });
    // Two chunks written, the third refused, none after it sent.
    expect(wire.answers.map((answer) => answer.ok)).toEqual([true, true, false]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('fails with the renderer’s reason when the pack cannot be read, and writes no file', async () => {
    const dir = await savingInto('unreadable');
    const query: ExportGridInput = {
      list: 'manifests',
      format: 'xlsx',
      fields: ['manifest_tracking_number'],
    };
    const id = await start(query);
    const wire = channel(manifestPack, id);
    await sendOfflineRows(query, {
      ...wire,
      page: (request) =>
        request.input.pageInfo.page === 1
          ? Promise.reject(new Error('The offline engine stopped.'))
          : wire.page(request),
    });
    expect(await settled(app, id)).toMatchObject({
      message: 'The offline data could not be read: The offline engine stopped.',
    });
    expect(await readdir(dir)).toEqual([]);
  });
});
