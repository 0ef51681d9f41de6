/**
 * Every screen at the least window the app opens to (960×600, main/src/electron/app.ts), at the suite's
 * default (1280×800) and at a common large one (1920×1080): the workspaces with their panes and filters (dates and the status groups
 * included), a generator profile, Offline data and the settings. On none of them is text cut off without
 * an ellipsis and a tooltip holding it, does content spill out of its box, or is a field's value wider
 * than the field (support/clipping.ts). One walk per size rather than the whole suite twice.
 */
import type { Page } from '@playwright/test';
import { DEMO_USERS } from './support/app.ts';
import { clippedText } from './support/clipping.ts';
import { expect, test } from './support/fixtures.ts';
import { filterMember, openWorkspace, results, signInThroughUi } from './support/workspace.ts';

const SIZES = [
  { width: 960, height: 600 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];

/** Waits until the grid shows rows and the boxes their figures, so the layout is the settled one. */
async function settled(page: Page, workspace: 'Generators' | 'Manifests') {
  await expect(results(page, workspace).locator('.ag-row[row-index="0"] .ag-cell').first()).not.toBeEmpty();
  await expect(
    page.getByRole('region', { name: workspace, exact: true }).getByRole('region', { name: 'Summary' }),
  ).toHaveAttribute('aria-busy', 'false');
}

for (const size of SIZES) {
  test(`no text is cut off without an ellipsis and a tooltip at ${size.width}×${size.height}`, async ({
    window,
  }) => {
    // One walk through every screen: longer than one story, the default timeout is not its measure.
    test.setTimeout(90_000);
    const { page } = window;
    await page.setViewportSize(size);
    await signInThroughUi(page, DEMO_USERS.inspector);

    // Generators, filtered by a status of each kind: the chips, the groups and the matched-status column.
    const statuses = await filterMember(page, 'Generator filters', 'Status');
    await statuses.getByRole('list', { name: 'Registration status' }).getByRole('checkbox').first().check();
    await statuses
      .getByRole('list', { name: 'Federal generator status' })
      .getByRole('checkbox')
      .first()
      .check();
    await expect(
      results(page, 'Generators').getByRole('columnheader', { name: 'Federal generator status' }),
    ).toBeVisible();
    await settled(page, 'Generators');
    expect(await clippedText(page, 'body'), 'Generators').toEqual([]);

    // Manifests with both date ranges set and a manifest's waste lines open below the grid.
    await openWorkspace(page, 'Manifests');
    await page.getByLabel('Shipped date from').fill('2020-01-01');
    await page.getByLabel('Shipped date to').fill('2030-12-31');
    await page.getByLabel('Received date from').fill('2020-01-01');
    await page.getByLabel('Received date to').fill('2030-12-31');
    await expect(page.getByRole('button', { name: /^Remove filter Received to/ })).toBeVisible();
    await settled(page, 'Manifests');
    await results(page, 'Manifests')
      .locator('.ag-row[row-index="0"] [col-id="manifest_tracking_number"]')
      .click();
    await expect(page.getByRole('table', { name: /^Waste lines of manifest/ })).toBeVisible();
    expect(await clippedText(page, 'body'), 'Manifests').toEqual([]);

    // A generator's profile, opened from the manifest's generator.
    await results(page, 'Manifests')
      .locator('.ag-row[row-index="0"] [col-id="generator_name"]')
      .getByRole('button')
      .click();
    await expect(page.getByRole('note', { name: 'Freshness of the profile' })).toBeVisible();
    expect(await clippedText(page, 'body'), 'profile').toEqual([]);
    await page.getByRole('button', { name: 'Back' }).click();

    await page
      .getByRole('navigation', { name: 'Workspaces' })
      .getByRole('button', { name: 'Offline data' })
      .click();
    await expect(page.getByRole('heading', { name: 'Offline data' })).toBeVisible();
    expect(await clippedText(page, 'body'), 'Offline data').toEqual([]);

    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    expect(await clippedText(page, 'body'), 'Settings').toEqual([]);
  });
}
