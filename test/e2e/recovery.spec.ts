/**
 * Crash recovery as the user meets it: a view that breaks shows its own message and "Reload view" while the
 * rest of the app keeps working, and a reload of the page (what main does when the page's process dies or
 * hangs) lands the user where they were: workspace, filters, sort, scroll and the open profile.
 */
import { DEMO_USERS } from './support/app.ts';
import { expect, test } from './support/fixtures.ts';
import { column, openWorkspace, results, signInThroughUi } from './support/workspace.ts';

/** The grid's viewport, seen from the test's types (which have no DOM). */
type Scrollable = { scrollTop: number };
/** The page's String.prototype, for breaking the profile's rendering on purpose. */
type Breakable = { matchAll: unknown; __matchAll?: unknown };

test('a broken profile shows "Reload view"; the rest keeps working, and the reload brings it back', async ({
  window,
}) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  const [id] = await column(page, 'Generators', 'epa_handler_id', 1);
  if (!id) throw new Error('no generator rows');
  // The profile reads the server's map HTML with String#matchAll while rendering; a throwing one breaks
  // exactly that view, as a bug in it would.
  await page.evaluate(() => {
    const strings = String.prototype as unknown as Breakable;
    strings.__matchAll = strings.matchAll;
    strings.matchAll = () => {
      throw new Error('the map could not be read');
    };
  });
  await results(page, 'Generators')
    .getByRole('button', { name: new RegExp(`profile of ${id}`) })
    .click();
  await expect(page.getByRole('alert')).toContainText(
    'The generator profile stopped working: the map could not be read',
  );
  // The header is outside the broken view and still answers.
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeEnabled();

  await page.evaluate(() => {
    const strings = String.prototype as unknown as Breakable;
    strings.matchAll = strings.__matchAll;
  });
  await page.getByRole('button', { name: 'Reload view' }).click();
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(id) })).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await openWorkspace(page, 'Manifests');
  await expect(results(page, 'Manifests').locator('.ag-row[row-index="0"]')).toBeVisible();
});

test('after a page reload the user is where they were: filters, sort, scroll, profile', async ({
  window,
}) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  await openWorkspace(page, 'Manifests');
  const grid = results(page, 'Manifests');
  await page.getByLabel('Shipped date from').fill('2000-01-01');
  await expect(page.getByRole('button', { name: 'Remove filter Shipped from: 2000-01-01' })).toBeVisible();
  await grid
    .getByRole('columnheader', { name: /Shipped/ })
    .first()
    .click();
  const sorted = grid.getByRole('columnheader', { name: /Shipped/ }).first();
  await expect(sorted).toHaveAttribute('aria-sort', 'ascending');
  const target = 300;
  const viewport = grid.locator('.ag-grid-viewport');
  await viewport.evaluate((element, top) => {
    (element as unknown as Scrollable).scrollTop = top;
  }, target * 34);
  const row = grid.locator(`.ag-row[row-index="${target}"] [col-id="manifest_tracking_number"]`);
  await expect(row).not.toBeEmpty();
  const tracking = await row.innerText();

  await page.reload();
  await window.waitForTracker();
  await expect(page.getByLabel('Shipped date from')).toHaveValue('2000-01-01');
  await expect(sorted).toHaveAttribute('aria-sort', 'ascending');
  await expect(row).toHaveText(tracking);
  await expect(grid.locator('.ag-row[row-index="0"]')).toHaveCount(0);

  const name = grid.locator(`.ag-row[row-index="${target}"] [col-id="generator_name"]`).getByRole('button');
  await name.click();
  const heading = page.getByRole('heading', { level: 2 });
  await expect(heading).not.toHaveText(/^Generator /);
  const title = await heading.innerText();
  await page.reload();
  await window.waitForTracker();
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(title);
});
