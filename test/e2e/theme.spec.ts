/**
 * The dark theme: the app follows the OS by default, the grid follows the app, and axe finds no serious or
 * critical violation on any screen in either theme: every rule in the light theme, the rules that colours
 * decide in the dark one (a theme changes colours only: the same markup passes the rest in both).
 * UPDATE_SCREENSHOTS=1 rewrites the README's picture.
 */
import { DEMO_USERS } from './support/app.ts';
import { COLOUR_RULES, seriousViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { screenshot } from './support/files.ts';
import { column, openWorkspace, results, signInThroughUi } from './support/workspace.ts';

for (const scheme of ['dark', 'light'] as const) {
  const rules = scheme === 'dark' ? COLOUR_RULES : undefined;
  test(`with a ${scheme} OS the app and the grid are ${scheme}, and every screen passes axe${rules ? '’s colour rules' : ''}`, async ({
    window,
  }) => {
    // A sign-in and four full-page axe scans of grids: each scan of a grid took 10–20 s on a two-core machine
    // running the unit suite beside this one, and the whole test 90 s.
    test.setTimeout(180_000);
    const { page } = window;
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    expect(await seriousViolations(page, rules), 'sign-in').toEqual([]);

    await signInThroughUi(page, DEMO_USERS.inspector);
    const dark = scheme === 'dark';
    const surface = dark ? 'rgb(22, 25, 30)' : 'rgb(255, 255, 255)';
    await expect(page.locator('html')).toHaveCSS('background-color', surface);
    await expect(page.locator('.ag-root-wrapper').first()).toHaveCSS('background-color', surface);
    await expect(results(page, 'Generators').locator('.ag-row[row-index="0"]')).toBeVisible();
    expect(await seriousViolations(page, rules), 'generators').toEqual([]);
    if (dark) await screenshot(page, 'dark-theme.png');

    const [id] = await column(page, 'Generators', 'epa_handler_id', 1);
    await results(page, 'Generators')
      .getByRole('button', { name: new RegExp(`profile of ${id ?? ''}`) })
      .click();
    await expect(page.getByRole('region', { name: 'Site activities' })).toBeVisible();
    expect(await seriousViolations(page, rules), 'profile').toEqual([]);
    await page.getByRole('button', { name: 'Back' }).click();

    await openWorkspace(page, 'Manifests');
    // A click on the row while it is still a loading placeholder selects nothing: wait for its data first.
    await column(page, 'Manifests', 'manifest_tracking_number', 1);
    await results(page, 'Manifests').locator('.ag-row[row-index="0"]').click();
    await expect(page.getByRole('table', { name: /^Waste lines of manifest/ })).toBeVisible();
    expect(await seriousViolations(page, rules), 'manifests').toEqual([]);
  });
}

test('the app follows the OS when it switches while running', async ({ window }) => {
  const { page } = window;
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('html')).toHaveAttribute('data-ag-theme-mode', 'dark');
});
