/**
 * The app against a server that implements only the spec (docs/api.md "Spec-only mode"): no shipped-year or
 * status lookup, no permissions in the sign-in answer. The panel never breaks: the shipped years are found
 * from the manifests, the Status box says why it is empty, the other boxes work as ever; and a missing
 * permission is learned from the server's first refusal.
 */
import { DEMO_USERS } from './support/app.ts';
import { appTest, expect } from './support/fixtures.ts';
import { expectCount, filterMember, generatorTruth, results, signInThroughUi } from './support/workspace.ts';

const test = appTest({ specOnly: true });

test('the filter boxes work or say why against a server that implements only the spec', async ({
  window,
}) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  const panel = page.getByRole('complementary', { name: 'Generator filters' });

  const years = await filterMember(page, 'Generator filters', 'Shipped year');
  await expect(panel.getByRole('note')).toHaveText(/lists no shipped years, so these are the years/);
  const first = years.getByRole('checkbox').first();
  const year = (await first.locator('xpath=..').innerText()).trim();
  expect(year).toMatch(/^\d{4}$/);
  await first.check();
  await expect(page.getByRole('button', { name: `Remove filter Shipped year: ${year}` })).toBeVisible();
  await expectCount(page, 'Generators', (await generatorTruth(window, { shippedYears: [year] })).total);

  await filterMember(page, 'Generator filters', 'Status');
  await expect(panel.getByRole('note').filter({ hasText: 'lists no status values' })).toBeVisible();
  const states = await filterMember(page, 'Generator filters', 'State');
  await expect(states.getByRole('checkbox').first()).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a permission the server does not name is learned from its first refusal', async ({ window }) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.generatorsOnly);
  await expect(results(page, 'Generators').locator('.ag-row').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Make available offline' })).toBeEnabled();
  await page
    .getByRole('navigation', { name: 'Workspaces' })
    .getByRole('button', { name: 'Manifests' })
    .click();
  const manifests = page.getByRole('region', { name: 'Manifests', exact: true });
  await expect(manifests.getByRole('heading', { name: 'Manifests are not available to you' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(manifests.getByRole('button', { name: 'Export to Excel' })).toHaveCount(0);
});
