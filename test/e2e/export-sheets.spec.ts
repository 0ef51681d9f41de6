/**
 * A table longer than a sheet, end to end in Chromium: the app runs with a sheet limit of 250 rows (header
 * included) instead of Excel's 1,048,576, so the demo's 600 manifests and their waste lines continue onto
 * numbered sheets. The downloaded workbook is read back with SheetJS: every sheet within the limit, each
 * with its header and autofilter, every manifest and waste line once and in order, the Query sheet listing
 * the sheets. (bench:export writes 1,000,000 manifests against the real limit.)
 */
import type { ManifestRecord } from '../../shared/api/index.ts';
import { MANIFEST_COLUMNS, WASTE_LINE_COLUMNS, defaultFields } from '../../shared/columns.ts';
import { readBook } from '../main/export/workbook-reader.ts';
import { DEMO_USERS, type AppWindow } from './support/app.ts';
import { appTest, expect } from './support/fixtures.ts';
import { downloadsFolder } from './support/files.ts';
import { openWorkspace, signInThroughUi } from './support/workspace.ts';

const SHEET_ROWS = 250;
const test = appTest({ sheetRows: SHEET_ROWS });
const saved = downloadsFolder('export-sheets-e2e-');

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

test('an export longer than a sheet continues on numbered sheets, each within the limit', async ({
  window,
}) => {
  test.setTimeout(90_000);
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  await openWorkspace(page, 'Manifests');
  const downloading = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Export to Excel' }).click();
  const book = await readBook(await saved(await downloading));

  const fields = defaultFields(MANIFEST_COLUMNS);
  const expected = await manifestRows(window, [...fields, 'waste_lines'].join(','));
  const lines = expected.flatMap((row) => row.waste_lines ?? []);
  const perSheet = SHEET_ROWS - 1;
  const numbered = (name: string, count: number) =>
    Array.from({ length: Math.ceil(count / perSheet) }, (_, index) =>
      index === 0 ? name : `${name} (${index + 1})`,
    );
  const manifestSheets = numbered('Manifests', expected.length);
  const lineSheets = numbered('Waste lines', lines.length);
  expect(manifestSheets.length).toBeGreaterThan(1);
  expect(book.sheetNames).toEqual([...manifestSheets, ...lineSheets, 'Query']);

  const headers = {
    Manifests: MANIFEST_COLUMNS.filter((column) => fields.includes(column.field)).map(
      (column) => column.header,
    ),
    'Waste lines': WASTE_LINE_COLUMNS.map((column) => column.header),
  };
  for (const name of [...manifestSheets, ...lineSheets]) {
    const rows = book.rows(name);
    expect(rows.length, name).toBeLessThanOrEqual(SHEET_ROWS);
    const header = name.startsWith('Manifests') ? headers.Manifests : headers['Waste lines'];
    expect(
      rows[0]?.map((cell) => cell?.v),
      name,
    ).toEqual(header);
    expect(book.autofilter(name), name).toMatch(new RegExp(`^A1:[A-Z]+${rows.length}$`));
  }
  const tracking = manifestSheets.flatMap((name) =>
    book
      .rows(name)
      .slice(1)
      .map((cells) => cells[0]?.v),
  );
  expect(tracking).toEqual(expected.map((row) => row.manifest_tracking_number));
  const lineKeys = lineSheets.flatMap((name) =>
    book
      .rows(name)
      .slice(1)
      .map((cells) => `${String(cells[0]?.v)}#${String(cells[1]?.v)}`),
  );
  expect(lineKeys).toEqual(lines.map((line) => `${line.manifest_tracking_number}#${line.waste_line_number}`));

  const sheetLines = book
    .rows('Query')
    .filter(([label]) => label?.v === 'Sheet')
    .map(([, value]) => String(value?.v));
  expect(sheetLines.map((line) => line.split(':')[0])).toEqual([...manifestSheets, ...lineSheets]);
});
