/**
 * Copying from the grids, as a user does it: Ctrl+C on a focused cell, on rows picked with Shift+click and
 * Ctrl+click, and on text selected with the mouse; what lands on the clipboard is read back in the page.
 */
import type { Page } from '@playwright/test';
import { DEMO_USERS } from './support/app.ts';
import { expect, test } from './support/fixtures.ts';
import { results, signInThroughUi, tons } from './support/workspace.ts';

/** The page's clipboard as text (the test's types have no DOM, the page does). */
function clipboard(page: Page): Promise<string> {
  return page.evaluate(() =>
    (
      globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
    ).navigator.clipboard.readText(),
  );
}

/** The default generator columns, left to right, as the catalogue names them. */
const HEADERS = ['EPA ID', 'Name', 'City', 'State', 'NAICS', 'Registration status', 'Total waste (tons)'];
const FIELDS = [
  'epa_handler_id',
  'generator_name',
  'location_city',
  'location_state',
  'primary_naics_code',
  'registration_status',
  'total_waste',
] as const;

test.beforeEach(async ({ app, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.bridge.origin });
});

test('Ctrl+C copies the focused cell as shown, and rows picked with Shift and Ctrl with headers', async ({
  window,
}) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  const list = await window.call('generators', 'list', {
    filterFields: {},
    searchKey: '',
    pageInfo: { page: 0, pageSize: 3, selectedFields: FIELDS.join(',') },
  });
  if (!list.ok) throw new Error(list.error.message);
  const lines = list.data.content.map((row) =>
    FIELDS.map((field) =>
      field === 'total_waste'
        ? row.total_waste === undefined
          ? ''
          : tons(row.total_waste)
        : (row[field] ?? ''),
    ).join('\t'),
  );
  const grid = results(page, 'Generators');
  const cell = (row: number, field: string) =>
    grid.locator(`.ag-row[row-index="${row}"] [col-id="${field}"]`);

  await cell(0, 'total_waste').click();
  await page.keyboard.press('Control+c');
  await expect(grid.getByRole('status')).toHaveText('Copied Total waste (tons)');
  const first = list.data.content[0]?.total_waste;
  expect(await clipboard(page)).toBe(first === undefined ? '' : tons(first));

  await cell(2, 'location_city').click({ modifiers: ['Shift'] });
  await page.keyboard.press('Control+c');
  await expect(grid.getByRole('status')).toHaveText('Copied 3 rows');
  expect(await clipboard(page)).toBe([HEADERS.join('\t'), ...lines].join('\n'));

  await cell(1, 'location_city').click({ modifiers: ['Control'] });
  await page.keyboard.press('Control+c');
  await expect(grid.getByRole('status')).toHaveText('Copied 2 rows');
  expect(await clipboard(page)).toBe([HEADERS.join('\t'), lines[0], lines[2]].join('\n'));

  // A plain click goes back to one row, so Ctrl+C copies the cell again.
  await cell(1, 'location_state').click();
  await page.keyboard.press('Control+c');
  await expect(grid.getByRole('status')).toHaveText('Copied State');
  expect(await clipboard(page)).toBe(list.data.content[1]?.location_state ?? '');
});

test('text selected in a cell with the mouse is what Ctrl+C copies', async ({ window }) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  const cell = results(page, 'Generators').locator('.ag-row[row-index="0"] [col-id="location_city"]');
  await expect(cell).not.toBeEmpty();
  const city = (await cell.innerText()).trim();
  const box = await cell.boundingBox();
  if (!box) throw new Error('the cell is not on screen');
  // Drag across the cell's text from its left edge to past its end.
  await page.mouse.move(box.x + 3, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 3, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  expect(
    await page.evaluate(() =>
      String((globalThis as unknown as { getSelection(): unknown }).getSelection()).trim(),
    ),
  ).toBe(city);
  await page.keyboard.press('Control+c');
  expect((await clipboard(page)).trim()).toBe(city);
});
