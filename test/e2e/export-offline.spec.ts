/**
 * Exports of offline data, end to end in Chromium: an offline pack made through the app, then the server
 * stopped (a gate in front of it shut) or hanging (the gate takes connections and answers nothing). An
 * export from the server fails for the lost network, or waits on the hanging one until the app finds it out
 * of reach, and offers the offline copy, which writes every row from the pack; once the app knows it is
 * offline, Export goes to the pack directly. Every file is read back with SheetJS and compared with the rows the server gave for the
 * same query while it was up, and its Query sheet says the rows are offline data.
 */
import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import type { ManifestRecord } from '../../shared/api/index.ts';
import { MANIFEST_COLUMNS, defaultFields } from '../../shared/columns.ts';
import { excelSerial, readBook } from '../main/export/workbook-reader.ts';
import { DEMO_USERS, type AppWindow } from './support/app.ts';
import { downloadsFolder, screenshot } from './support/files.ts';
import { appTest } from './support/fixtures.ts';
import type { ServerFailure } from './support/server-gate.ts';
import { expectCount, openWorkspace, results, signInThroughUi } from './support/workspace.ts';

const test = appTest({ manifests: 1500, gate: true }, 120_000);

const saved = downloadsFolder('export-offline-e2e-');

/** Every manifest the server has for a query, as the export asks for them. */
async function manifestRows(
  window: AppWindow,
  searchKey: string,
  selectedFields: string,
): Promise<ManifestRecord[]> {
  const rows: ManifestRecord[] = [];
  for (let page = 0; ; page += 1) {
    const answer = await window.call('manifests', 'list', {
      searchKey,
      pageInfo: { page, pageSize: 500, selectedFields },
    });
    if (!answer.ok) throw new Error(answer.error.message);
    rows.push(...answer.data.content);
    if (rows.length >= answer.data.totalElements || answer.data.content.length === 0) return rows;
  }
}

const exportsPanel = (page: Page) => page.getByRole('region', { name: 'Exports' });

function queryOf(book: Awaited<ReturnType<typeof readBook>>): Record<string, unknown> {
  return Object.fromEntries(book.rows('Query').map(([label, value]) => [String(label?.v), value?.v]));
}

for (const failure of ['stopped', 'hanging'] as const satisfies readonly ServerFailure[]) {
  test(`with the server ${failure}, an export offers the offline copy, and exports from the pack`, async ({
    app,
    window,
  }) => {
    test.setTimeout(120_000);
    const { page } = window;
    await signInThroughUi(page, DEMO_USERS.inspector);
    await openWorkspace(page, 'Manifests');
    const fields = defaultFields(MANIFEST_COLUMNS);
    const columns = MANIFEST_COLUMNS.filter((column) => fields.includes(column.field));
    const all = await manifestRows(window, '', [...fields, 'waste_lines'].join(','));
    const searched = await manifestRows(window, 'co', fields.join(','));
    expect(searched.length).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Make available offline' }).click();
    await page
      .getByRole('navigation', { name: 'Workspaces' })
      .getByRole('button', { name: 'Offline data' })
      .click();
    const pack = page.getByRole('row', { name: 'All manifests' });
    await expect(pack.getByRole('cell', { name: 'just now' })).toBeVisible({ timeout: 90_000 });
    await openWorkspace(page, 'Manifests');
    await app.gate?.fail(failure);

    // The app has not noticed yet: the export goes to the server. A stopped one fails it at once; a hanging
    // one keeps it waiting until the app finds the server out of reach. Either way the pack is offered.
    await page.getByRole('button', { name: 'Export to Excel' }).click();
    const offered = exportsPanel(page).getByRole(failure === 'stopped' ? 'alert' : 'listitem');
    if (failure === 'stopped') {
      await expect(offered).toContainText('Manifests to Excel: Nothing answers at');
      await screenshot(page, 'export-offline-offer.png');
    } else {
      await expect(page.getByRole('status', { name: 'Offline' })).toBeVisible({ timeout: 15_000 });
      await expect(offered.getByRole('button', { name: 'Cancel Manifests to Excel' })).toBeVisible();
    }
    const downloading = page.waitForEvent('download');
    await offered.getByRole('button', { name: /^Export from offline data \(saved .+\)$/ }).click();
    const path = await saved(await downloading);
    await expect(exportsPanel(page).getByRole('status')).toContainText(`Saved ${path.split('/').at(-1)}`);
    await expect(offered).toHaveCount(0);

    const book = await readBook(path);
    expect(book.sheetNames).toEqual(['Manifests', 'Waste lines', 'Query']);
    const [header, ...body] = book.rows('Manifests');
    expect(header?.map((cell) => cell?.v)).toEqual(columns.map((column) => column.header));
    expect(body.map((cells) => cells[0]?.v)).toEqual(all.map((row) => row.manifest_tracking_number));
    const shipped = columns.findIndex((column) => column.field === 'shipped_date');
    expect(body[0]?.[shipped]).toMatchObject({ t: 'n', v: excelSerial(all[0]?.shipped_date ?? '') });
    const lines = all.flatMap((row) => row.waste_lines ?? []);
    expect(book.rows('Waste lines')).toHaveLength(lines.length + 1);
    expect(book.rows('Waste lines').at(-1)?.[0]?.v).toBe(lines.at(-1)?.manifest_tracking_number);
    const query = queryOf(book);
    expect(query).toMatchObject({ Rows: all.length, Source: 'Offline data' });
    expect(typeof query['Offline data saved']).toBe('number');

    // Once a request finds the server gone, the app is offline and Export reads the pack directly.
    await page.getByRole('searchbox', { name: 'Search manifests' }).fill('co');
    await expect(page.getByRole('status', { name: 'Offline' })).toBeVisible({ timeout: 15_000 });
    await expectCount(page, 'Manifests', searched.length);
    const csv = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const text = (await readFile(await saved(await csv), 'utf8')).replace(/^\uFEFF/, '');
    const rows = text.split('\r\n').filter((line) => line !== '');
    expect(rows[0]).toBe(columns.map((column) => column.header).join(','));
    expect(rows.slice(1).map((line) => line.split(',')[0])).toEqual(
      searched.map((row) => row.manifest_tracking_number),
    );
    // The grid answered from the pack meanwhile and still does.
    await expect(results(page, 'Manifests').getByRole('row').nth(1)).toBeVisible();
    await app.gate?.reopen();
  });
}
