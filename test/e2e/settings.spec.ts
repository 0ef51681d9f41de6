/**
 * The settings screen as a user meets it: from the header, every setting under its label, "Test
 * connection" against the real server and a dead address, validation before saving, and each saved
 * setting applied at once (the grid's page size, the theme). The sign-in screen names its server.
 * UPDATE_SCREENSHOTS=1 rewrites the README's picture.
 */
import type { Request } from '@playwright/test';
import { DEMO_USERS } from './support/app.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { screenshot } from './support/files.ts';
import { results, signInThroughUi } from './support/workspace.ts';

/** A generators page asked of main with this page size (the bridge carries invocations as POSTs). */
function asksPageSize(size: number) {
  return (request: Request) =>
    request.url().endsWith('/invoke') &&
    (request.postData() ?? '').includes('"tracker:generators.list"') &&
    (request.postData() ?? '').includes(`"pageSize":${size}`);
}

test('the sign-in screen names the server it will use', async ({ window, app }) => {
  await expect(window.page.getByText(`Signs in to ${app.server.baseUrl}`)).toBeVisible();
  await window.page.getByLabel('Server URL').fill('https://tracker.example.gov/');
  await expect(window.page.getByText('Signs in to https://tracker.example.gov/')).toBeVisible();
});

test('settings open from the header, test the connection, validate, and apply at once', async ({
  window,
  app,
}) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  await expect(results(page, 'Generators').locator('.ag-row[row-index="0"]')).toBeVisible();
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('region', { name: 'Settings' });
  await expect(settings.getByLabel('Server address')).toHaveValue(app.server.baseUrl);
  await expect(settings.getByLabel('Rows per page')).toHaveValue('100');
  await expect(settings.getByLabel('Request timeout (seconds)')).toHaveValue('20');
  await expect(settings.getByRole('radio', { name: 'Follow the system' })).toBeChecked();

  await settings.getByRole('button', { name: 'Test connection' }).click();
  await expect(settings.getByRole('status')).toHaveText(
    `A tracker API answers at ${app.server.baseUrl}; sign in to use it.`,
  );
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'settings.png');

  await settings.getByLabel('Server address').fill('http://127.0.0.1:9');
  await settings.getByRole('button', { name: 'Test connection' }).click();
  await expect(settings.getByRole('status')).toHaveText(
    'The connection to http://127.0.0.1:9 failed: check your network.',
  );

  await settings.getByLabel('Server address').fill(app.server.baseUrl);
  await settings.getByLabel('Rows per page').fill('5');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings.getByRole('alert')).toHaveText('Some settings need fixing; nothing was saved.');
  await expect(settings.getByLabel('Rows per page')).toHaveAttribute('aria-invalid', 'true');
  await expect(settings.getByText('Rows per page must be at least 10.')).toBeVisible();

  await settings.getByLabel('Rows per page').fill('20');
  await settings.getByLabel('Request timeout (seconds)').fill('30');
  await settings.getByRole('radio', { name: 'Dark' }).check();
  const smallerPages = page.waitForRequest(asksPageSize(20));
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings).toBeHidden();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await smallerPages;
  await expect(results(page, 'Generators').locator('.ag-row[row-index="0"]')).toBeVisible();
  const saved = await app.invoke('settings', 'get');
  expect(saved.ok && saved.data).toMatchObject({ pageSize: 20, requestTimeoutMs: 30_000, theme: 'dark' });

  // Still signed in: the server did not change.
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();
});

test('signing in to another address shows that address in the settings', async ({ window, app }) => {
  const { page } = window;
  // The same server spelled differently is, to the app, another address: main saves it on sign-in.
  const other = `${app.server.baseUrl}/`;
  await page.getByLabel('Server URL').fill(other);
  await signInThroughUi(page, DEMO_USERS.inspector);
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('region', { name: 'Settings' }).getByLabel('Server address')).toHaveValue(
    other,
  );
});
