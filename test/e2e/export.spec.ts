/**
 * Exports as a user makes them: "Export to Excel" and "Export CSV" in both workspaces, Ctrl+E, and a
 * generator's profile. Behind the bridge the save dialog is the browser's download; every file is read
 * back with SheetJS and compared with the API's own rows for the same query, while the grids stay usable.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { ManifestRecord } from '../../shared/api/index.ts';
import { MANIFEST_COLUMNS, defaultFields } from '../../shared/columns.ts';
import { excelSerial, readBook } from '../main/export/workbook-reader.ts';
import { DEMO_USERS, type AppWindow } from './support/app.ts';
import { expect, test } from './support/fixtures.ts';
import { downloadsFolder } from './support/files.ts';
import { expectCount, generatorTruth, openWorkspace, signInThroughUi } from './support/workspace.ts';

const saved = downloadsFolder('export-e2e-');

/** Every manifest the API has for a query, in pages, as the renderer asks. */
async function manifestRows(window: AppWindow, selectedFields: string): Promise<ManifestRecord[]> {
  const rows: ManifestRecord[] = [];
  for (let page = 0; ; page += 1) {
    const answer = await window.call('manifests', 'list', {
      pageInfo: { page, pageSize: 500, selectedFields },
    });
    if (!answer.ok) throw new Error(answer.error.message);
    rows.push(...answer.data.content);
    if (rows.length >= answer.data.totalElements || answer.data.content.length === 0) return rows;
  }
}

const exportsPanel = (page: Page) => page.getByRole('region', { name: 'Exports' });

test('Export to Excel writes every manifest with its waste lines, while the grids stay usable', async ({
  window,
}) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  await openWorkspace(page, 'Manifests');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export to Excel' }).click();
  // The other workspace answers while the export runs.
  const generators = await generatorTruth(window, {});
  await openWorkspace(page, 'Generators');
  await expectCount(page, 'Generators', generators.total);
  const path = await saved(await downloading);
  await expect(exportsPanel(page).getByRole('status')).toContainText(`Saved ${path.split('/').at(-1)}`);

  const fields = defaultFields(MANIFEST_COLUMNS);
  const expected = await manifestRows(window, [...fields, 'waste_lines'].join(','));
  const book = await readBook(path);
  expect(book.sheetNames).toEqual(['Manifests', 'Waste lines', 'Query']);
  const [header, ...body] = book.rows('Manifests');
  const columns = MANIFEST_COLUMNS.filter((column) => fields.includes(column.field));
  expect(header?.map((cell) => cell?.v)).toEqual(columns.map((column) => column.header));
  expect(body.map((cells) => cells[0]?.v)).toEqual(expected.map((row) => row.manifest_tracking_number));
  const shipped = columns.findIndex((column) => column.field === 'shipped_date');
  expect(body[0]?.[shipped]).toMatchObject({ t: 'n', v: excelSerial(expected[0]?.shipped_date ?? '') });
  const lines = expected.flatMap((row) => row.waste_lines ?? []);
  expect(book.rows('Waste lines')).toHaveLength(lines.length + 1);
  expect(book.rows('Waste lines')[1]?.[0]?.v).toBe(lines[0]?.manifest_tracking_number);

  await exportsPanel(page)
    .getByRole('button', { name: /^Dismiss/ })
    .click();
  await expect(exportsPanel(page)).toBeHidden();
});

test('Export CSV of filtered generators, and Ctrl+E exports what is on screen', async ({ window }) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  await page.getByRole('searchbox', { name: 'Search generators' }).fill('inc');
  const truth = await generatorTruth(window, {}, 'inc');
  await expectCount(page, 'Generators', truth.total);

  const csv = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const text = (await readFile(await saved(await csv), 'utf8')).replace(/^\uFEFF/, '');
  const lines = text.split('\r\n').filter((line) => line !== '');
  expect(lines[0]).toBe('EPA ID,Name,City,State,NAICS,Registration status,Total waste (tons)');
  expect(lines).toHaveLength(truth.total + 1);
  expect(lines[1]?.startsWith(`${truth.ids[0]},`)).toBe(true);

  const excel = page.waitForEvent('download');
  await page.keyboard.press('Control+e');
  const book = await readBook(await saved(await excel));
  expect(book.rows('Generators')).toHaveLength(truth.total + 1);
  const query = Object.fromEntries(book.rows('Query').map(([label, value]) => [String(label?.v), value?.v]));
  expect(query).toMatchObject({ Search: 'inc', Rows: truth.total, User: DEMO_USERS.inspector.username });
});

test('a generator profile exports to a workbook of its facts and tables', async ({ window }) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  const generators = await generatorTruth(window, {});
  const handlerId = generators.ids[0] ?? '';
  await page
    .getByRole('button', { name: new RegExp(`^Open the profile of ${handlerId}`) })
    .first()
    .click();
  const profile = page.getByRole('region', { name: new RegExp(handlerId) });
  await expect(profile.getByText('Shipped off-site (tons)')).toBeVisible();
  const downloading = page.waitForEvent('download');
  await profile.getByRole('button', { name: 'Export to Excel' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`Generator ${handlerId}.xlsx`);
  const book = await readBook(await saved(download));
  expect(book.sheetNames).toEqual([
    'Profile',
    'Site activities',
    'Waste codes',
    'Management methods',
    'NAICS',
    'SIC',
  ]);
  const facts = new Map(book.rows('Profile').map(([, label, value]) => [label?.v, value?.v]));
  expect(facts.get('EPA handler ID')).toBe(handlerId);
});
