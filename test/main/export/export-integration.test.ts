/**
 * Exports through the real main handlers against the real reference server: every workbook is read back
 * with SheetJS and compared cell by cell, types included, with the API's own rows for the same query.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GeneratorRecord, ManifestRecord } from '../../../shared/api/index.ts';
import { GENERATOR_COLUMNS, MANIFEST_COLUMNS, WASTE_LINE_COLUMNS } from '../../../shared/columns.ts';
import type { ExportGridInput } from '../../../shared/ipc/exports.ts';
import type { TrackerServer } from '../../helpers/tracker-server.ts';
import { DEMO_USERS, assertOk, type TestApp } from '../support.ts';
import { ODD_NAME, ODD_NAME_WRITTEN, settled, startExportApp, type ExportApp } from './export-app.ts';
import { expectSheet, queryOf } from './expected-cells.ts';
import { readBook } from './workbook-reader.ts';

let running: ExportApp;
let server: TrackerServer;
let app: TestApp;
let dir: string;

beforeAll(async () => {
  running = await startExportApp({ manifests: 1_200, seed: 11 });
  ({ server, app, dir } = running);
});
afterAll(async () => {
  await running?.close();
});
afterEach(() => {
  app.saveTargets.next = (name) => join(dir, 'saved', name);
});

async function exported(input: ExportGridInput): Promise<{ path: string; rows: number }> {
  const started = assertOk(await app.invoke('exports', 'grid', input));
  if (!started) throw new Error('the save dialog was closed');
  const outcome = await settled(app, started.id);
  if ('message' in outcome) throw new Error(outcome.message);
  return { path: join(dir, 'saved', outcome.fileName), rows: outcome.rows };
}

/** Every row of a list query through the same handlers the grid uses, page by page. */
async function apiRows<Row>(
  list: 'generators' | 'manifests',
  body: { filterFields?: object; searchKey?: string },
  pageInfo: { sort?: string; selectedFields: string },
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 0; ; page += 1) {
    const request = { ...body, pageInfo: { page, pageSize: 500, ...pageInfo } };
    const answer = assertOk(
      list === 'generators'
        ? await app.invoke('generators', 'list', request)
        : await app.invoke('manifests', 'list', request),
    ) as { totalElements: number; content: Row[] };
    rows.push(...answer.content);
    if (answer.content.length < 500 || rows.length >= answer.totalElements) return rows;
  }
}

describe('grid exports through main', () => {
  it('writes every generator, all columns, typed, in the API’s order, with a Query sheet', async () => {
    const fields = GENERATOR_COLUMNS.map((column) => column.field);
    const { path, rows } = await exported({ list: 'generators', format: 'xlsx', fields });
    const expected = await apiRows<GeneratorRecord>('generators', {}, { selectedFields: fields.join(',') });
    expect(rows).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(100);
    const book = await readBook(path);
    expect(book.sheetNames).toEqual(['Generators', 'Query']);
    expectSheet(book.rows('Generators'), GENERATOR_COLUMNS, expected);
    expect(expected.some((row) => row.generator_name === ODD_NAME)).toBe(true);
    expect(book.rows('Generators').some((line) => line[1]?.v === ODD_NAME_WRITTEN)).toBe(true);
    const query = queryOf(book);
    expect(query).toMatchObject({
      Exported: 'Generators',
      Filters: 'None',
      Search: 'None',
      Sort: 'Name, ascending',
      Rows: expected.length,
      Server: server.baseUrl,
      User: DEMO_USERS.inspector.username,
      Source: 'The server',
    });
    expect(await readdir(join(dir, 'saved'))).not.toContainEqual(expect.stringMatching(/\.part$/));
  });

  it('writes a filtered, searched, sorted manifest export with chosen columns and every waste line', async () => {
    const all = await apiRows<ManifestRecord>('manifests', {}, { selectedFields: 'transporter' });
    const transporter = all[0]?.transporter ?? '';
    const filterFields = { transporter_names: [transporter], shipped_date_start: '2019-01-01' };
    const fields = [
      'manifest_tracking_number',
      'generator_name',
      'shipped_date',
      'received_date',
      'total_waste_quantity_tons',
      'container_count',
    ];
    const sort = 'total_waste_quantity_tons desc';
    const { path, rows } = await exported({ list: 'manifests', format: 'xlsx', filterFields, sort, fields });
    const expected = await apiRows<ManifestRecord>(
      'manifests',
      { filterFields },
      { sort, selectedFields: [...fields, 'waste_lines'].join(',') },
    );
    expect(rows).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(0);
    const columns = MANIFEST_COLUMNS.filter((column) => fields.includes(column.field));
    const book = await readBook(path);
    expect(book.sheetNames).toEqual(['Manifests', 'Waste lines', 'Query']);
    expectSheet(book.rows('Manifests'), columns, expected);
    expectSheet(
      book.rows('Waste lines'),
      WASTE_LINE_COLUMNS,
      expected.flatMap((manifest) => manifest.waste_lines ?? []),
    );
    const query = queryOf(book);
    expect(query.Filters).toBe(`Transporter: ${transporter}; Shipped from: 2019-01-01`);
    expect(query.Sort).toBe('Waste (tons), descending');
  });

  it('writes CSV with the same rows, in the columns’ order the user arranged', async () => {
    const fields = [
      'generator_name',
      'manifest_tracking_number',
      'shipped_date',
      'total_waste_quantity_tons',
    ];
    const { path, rows } = await exported({ list: 'manifests', format: 'csv', searchKey: 'a', fields });
    const expected = await apiRows<ManifestRecord>(
      'manifests',
      { searchKey: 'a' },
      { selectedFields: fields.join(',') },
    );
    expect(rows).toBe(expected.length);
    const lines = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Generator,Tracking number,Shipped,Waste (tons)');
    expect(lines).toHaveLength(expected.length + 2);
    expect(lines.at(-1)).toBe('');
    const first = expected[0]!;
    expect(lines[1]).toBe(
      [
        first.generator_name,
        first.manifest_tracking_number,
        first.shipped_date,
        String(first.total_waste_quantity_tons),
      ]
        .map((text) => (/[",]/.test(text ?? '') ? `"${text}"` : text))
        .join(','),
    );
  });

  it('does nothing when the user closes the save dialog', async () => {
    app.saveTargets.next = () => undefined;
    expect(
      await app.invoke('exports', 'grid', { list: 'generators', format: 'xlsx', fields: ['generator_name'] }),
    ).toEqual({
      ok: true,
      data: null,
    });
  });

  it('pages through every manifest beside the grid’s own requests, cancelling none of them', async () => {
    const fields = MANIFEST_COLUMNS.map((column) => column.field);
    const started = assertOk(
      await app.invoke('exports', 'grid', { list: 'manifests', format: 'xlsx', fields }),
    );
    if (!started) throw new Error('no export');
    // The grid asks for the same first page the export asks for, under its own request id.
    const [page, totals] = await Promise.all([
      app.invoke('manifests', 'list', { pageInfo: { page: 0, pageSize: 500 } }, { requestId: 'grid-0' }),
      app.invoke('manifests', 'aggregate', {}, { requestId: 'boxes' }),
    ]);
    expect(page.ok && totals.ok).toBe(true);
    const outcome = await settled(app, started.id);
    if ('message' in outcome) throw new Error(outcome.message);
    const expected = await apiRows<ManifestRecord>(
      'manifests',
      {},
      { selectedFields: [...fields, 'waste_lines'].join(',') },
    );
    expect(expected.length).toBeGreaterThan(1_000);
    expect(outcome.rows).toBe(expected.length);
    const book = await readBook(join(dir, 'saved', outcome.fileName));
    expectSheet(book.rows('Manifests'), MANIFEST_COLUMNS, expected);
    expect(book.rows('Waste lines')).toHaveLength(
      expected.flatMap((manifest) => manifest.waste_lines ?? []).length + 1,
    );
  });

  it('cancelled, leaves no file and no temporary file', async () => {
    app.saveTargets.next = (name) => join(dir, 'cancelled', name);
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'cancelled'), { recursive: true });
    const started = assertOk(
      await app.invoke('exports', 'grid', {
        list: 'manifests',
        format: 'xlsx',
        fields: MANIFEST_COLUMNS.map((column) => column.field),
      }),
    );
    if (!started) throw new Error('no export');
    assertOk(await app.invoke('exports', 'cancel', { id: started.id }));
    expect(await settled(app, started.id)).toMatchObject({
      message: 'The export was cancelled; no file was written.',
    });
    expect(await readdir(join(dir, 'cancelled'))).toEqual([]);
  });
});

describe('profile exports through main', () => {
  it('writes the profile and its tables from the detail', async () => {
    const [generator] = await apiRows<GeneratorRecord>(
      'generators',
      { filterFields: { names: [ODD_NAME] } },
      { selectedFields: 'epa_handler_id' },
    );
    const handlerId = generator?.epa_handler_id ?? '';
    const detail = assertOk(await app.invoke('generators', 'detail', { handler_id: handlerId }));
    const started = assertOk(await app.invoke('exports', 'profile', { handler_id: handlerId }));
    if (!started) throw new Error('no export');
    const outcome = await settled(app, started.id);
    if ('message' in outcome) throw new Error(outcome.message);
    expect(outcome.fileName).toBe(`Generator ${handlerId}.xlsx`);
    const book = await readBook(join(dir, 'saved', outcome.fileName));
    expect(book.sheetNames).toEqual([
      'Profile',
      'Site activities',
      'Waste codes',
      'Management methods',
      'NAICS',
      'SIC',
    ]);
    const facts = new Map(book.rows('Profile').map(([, label, value]) => [label?.v, value]));
    expect(facts.get('EPA handler ID')).toEqual({ t: 's', v: handlerId });
    expect(facts.get('Generator name')).toEqual({ t: 's', v: ODD_NAME_WRITTEN });
    expect(facts.get('Shipped off-site (tons)')).toEqual({
      t: 'n',
      v: detail.generator_data.total_shipped,
      z: '0.00',
    });
    expect(facts.get('Containers')).toEqual({ t: 'n', v: detail.generator_data.total_container, z: '#,##0' });
    expect(facts.get('Part of a network')).toEqual({ t: 's', v: detail.is_network ? 'Yes' : 'No' });
    expect(
      book
        .rows('Waste codes')
        .slice(1)
        .map((line) => line.map((cell) => cell?.v)),
    ).toEqual(
      detail.waste_code_data.map((entry) => [entry.code, entry.description].filter((text) => text !== '')),
    );
    expect(
      book
        .rows('NAICS')
        .slice(1)
        .map((line) => line[0]?.v),
    ).toEqual(detail.naics_codes.map((entry) => entry.naics_code));
  });

  it('refuses an unknown generator without opening the save dialog', async () => {
    app.saveTargets.next = () => {
      throw new Error('the dialog must not open');
    };
    expect(await app.invoke('exports', 'profile', { handler_id: 'XXD000000000' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found' },
    });
  });
});
