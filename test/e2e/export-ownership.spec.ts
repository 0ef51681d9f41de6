/**
 * An export belongs to the user who started it, end to end in Chromium against the real server: the server
 * is held (a gate in front of it lets nothing through, as a slow server would) so the export is still
 * running when the session changes. Signing out stops it and the panel on the sign-in screen says why;
 * another user signing in after the session expired fails it. No file is downloaded, and none is left in
 * the bridge's folders. "Sign out and remove my data" leaves no database of the user in the browser.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { OWNER_MESSAGES } from '../../main/src/export/export-owner.ts';
import { DEMO_USERS, type App } from './support/app.ts';
import { appTest, expect } from './support/fixtures.ts';
import { savedData } from './support/saved-data.ts';
import { openWorkspace, signInThroughUi } from './support/workspace.ts';

const test = appTest({ gate: true });

const exportsPanel = (page: Page) => page.getByRole('region', { name: 'Exports' });

/** Main starts an export's threads and pages the API before the panel moves: longer than a click. */
const EXPORT_STEP = { timeout: 20_000 };

/** Starts an export of the manifests with the server hanging, so its first page cannot arrive. */
async function heldExport(app: App, page: Page): Promise<void> {
  await openWorkspace(page, 'Manifests');
  app.gate?.hang();
  await page.getByRole('button', { name: 'Export to Excel' }).click();
  await expect(exportsPanel(page)).toContainText('Starting…', EXPORT_STEP);
}

/** Nothing left in the bridge's download or export folders, once the export has cleaned up. */
async function expectNoFiles(app: App): Promise<void> {
  for (const folder of ['downloads', 'exports']) {
    await expect
      .poll(() => readdir(join(app.bridge.userDataDir, folder)).catch(() => []), { message: folder })
      .toEqual([]);
  }
}

test('signing out stops a running export, and the sign-in screen says why', async ({ window, app }) => {
  test.setTimeout(90_000);
  const { page } = window;
  let downloads = 0;
  page.on('download', () => (downloads += 1));
  await signInThroughUi(page, DEMO_USERS.inspector);
  await heldExport(app, page);
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(exportsPanel(page).getByRole('alert')).toContainText(OWNER_MESSAGES.signedOut, EXPORT_STEP);
  await app.gate?.reopen();
  await expectNoFiles(app);
  expect(downloads).toBe(0);
});

test('another user signing in after the session expired fails the export', async ({ window, app }) => {
  test.setTimeout(90_000);
  const { page } = window;
  let downloads = 0;
  page.on('download', () => (downloads += 1));
  await signInThroughUi(page, DEMO_USERS.inspector);
  await heldExport(app, page);
  // The server forgets every token, as when an administrator revokes them: the held page comes back 401.
  app.server.db.prepare('DELETE FROM tokens').run();
  await app.gate?.reopen();
  await expect(exportsPanel(page)).toContainText('Waiting for you to sign in again', EXPORT_STEP);
  const dialog = page.getByRole('dialog', { name: 'Your session has expired' });
  await dialog.getByLabel('User name').fill(DEMO_USERS.generatorsOnly.username);
  await dialog.getByLabel('Password').fill(DEMO_USERS.generatorsOnly.password);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(exportsPanel(page).getByRole('alert')).toContainText(
    `${DEMO_USERS.generatorsOnly.username} signed in, so the export for ${DEMO_USERS.inspector.username} stopped; no file was written.`,
    EXPORT_STEP,
  );
  await expectNoFiles(app);
  expect(downloads).toBe(0);
});

test('"Sign out and remove my data" leaves no database of the user in the browser', async ({ window }) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  await openWorkspace(page, 'Manifests');
  await expect.poll(async () => (await savedData(page, 'inspector')).answers.length).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Sign out and remove my data' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect
    .poll(async () =>
      (await savedData(page, 'inspector')).databases.filter((name) => name.endsWith(' inspector')),
    )
    .toEqual([]);
});
