/**
 * What a workspace keeps besides its filters, as a user sets it up: columns dragged wider and into another
 * order, kept per workspace across a switch and a restart; and picked codes named on their chips.
 */
import type { Locator, Page } from '@playwright/test';
import { DEMO_USERS } from './support/app.ts';
import { expect, test } from './support/fixtures.ts';
import { filterMember, openWorkspace, results, signInThroughUi } from './support/workspace.ts';

const GENERATOR_HEADERS = [
  'EPA ID',
  'Name',
  'City',
  'State',
  'NAICS',
  'Registration status',
  'Total waste (tons)',
];
const MANIFEST_HEADERS = [
  'Tracking number',
  'Generator',
  'Generator EPA ID',
  'Transporter',
  'Designated facility',
  'Shipped',
  'Received',
  'Waste (tons)',
  'Containers',
];

async function headers(grid: Locator): Promise<string[]> {
  const texts = await grid.getByRole('columnheader').allInnerTexts();
  return texts.map((text) => text.trim());
}

async function width(header: Locator): Promise<number> {
  const box = await header.boundingBox();
  if (!box) throw new Error('the column header is not on screen');
  return box.width;
}

/** Drags with the mouse in small steps, as AG Grid needs to see a drag start. */
async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + Math.sign(to.x - from.x) * 10, from.y, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

test('columns dragged wider and into a new order are kept per workspace across a switch and a restart', async ({
  window,
}) => {
  const { page } = window;
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInThroughUi(page, DEMO_USERS.inspector);
  const grid = results(page, 'Generators');
  await expect.poll(() => headers(grid)).toEqual(GENERATOR_HEADERS);

  const city = grid.getByRole('columnheader', { name: 'City' });
  const before = await width(city);
  const cityBox = await city.boundingBox();
  if (!cityBox) throw new Error('the City header is not on screen');
  const edge = { x: cityBox.x + cityBox.width - 2, y: cityBox.y + cityBox.height / 2 };
  await drag(page, edge, { x: edge.x + 120, y: edge.y });
  await expect.poll(() => width(city)).toBeGreaterThan(before + 100);
  const wider = await width(city);

  const total = await grid.getByRole('columnheader', { name: 'Total waste (tons)' }).boundingBox();
  const first = await grid.getByRole('columnheader', { name: 'EPA ID' }).boundingBox();
  if (!total || !first) throw new Error('the headers are not on screen');
  await drag(
    page,
    { x: total.x + total.width / 2, y: total.y + total.height / 2 },
    { x: first.x + 5, y: first.y + first.height / 2 },
  );
  const moved = ['Total waste (tons)', ...GENERATOR_HEADERS.slice(0, -1)];
  await expect.poll(() => headers(grid)).toEqual(moved);

  // A header dragged out of the grid stays: the column chooser is where columns are hidden.
  const status = await grid.getByRole('columnheader', { name: 'Registration status' }).boundingBox();
  if (!status) throw new Error('the Registration status header is not on screen');
  const middle = { x: status.x + status.width / 2, y: status.y + status.height / 2 };
  await drag(page, middle, { x: middle.x, y: 5 });
  await expect.poll(() => headers(grid)).toEqual(moved);

  // Each workspace keeps its own layout.
  await openWorkspace(page, 'Manifests');
  await expect.poll(() => headers(results(page, 'Manifests'))).toEqual(MANIFEST_HEADERS);
  await openWorkspace(page, 'Generators');
  await expect.poll(() => headers(grid)).toEqual(moved);

  await page.reload();
  await window.waitForTracker();
  await expect.poll(() => headers(grid)).toEqual(moved);
  expect(Math.abs((await width(city)) - wider)).toBeLessThanOrEqual(1);

  // A column hidden and shown again comes back where the user had put it.
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'Total waste (tons)' }).uncheck();
  await page.getByRole('checkbox', { name: 'Total waste (tons)' }).check();
  await page.keyboard.press('Escape');
  await expect.poll(() => headers(grid)).toEqual(moved);

  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('button', { name: 'Reset columns' }).click();
  await expect.poll(() => headers(grid)).toEqual(GENERATOR_HEADERS);
  await expect.poll(() => width(city)).toBeLessThan(wider - 100);
});

test('a picked NAICS code reads "code – description" on its chip, across a restart', async ({ window }) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  const lookup = await window.call('generators', 'lookup', { field: 'naics', search: '', page: 1 });
  if (!lookup.ok) throw new Error(lookup.error.message);
  const option = lookup.data.results.find((result) => result.text !== result.value);
  if (!option) throw new Error('the demo data has no NAICS code with a description');
  const description = option.text.slice(option.value.length).replace(/^ - /, '');
  const chipName = `Remove filter NAICS: ${option.value} – ${description}`;

  const box = await filterMember(page, 'Generator filters', 'NAICS');
  await box.getByRole('checkbox', { name: option.text }).check();
  const chips = page.getByRole('group', { name: 'Active filters' });
  await expect(chips.getByRole('button', { name: chipName })).toBeVisible();

  await page.reload();
  await window.waitForTracker();
  await expect(chips.getByRole('button', { name: chipName })).toBeVisible();
  await chips.getByRole('button', { name: chipName }).click();
  await expect(chips).toHaveCount(0);
});
