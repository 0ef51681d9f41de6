/**
 * Signing in with no server, end to end in Chromium against the real server behind a gate: an inspector who
 * worked here yesterday and signed out (keeping their data) signs in with the server stopped or hanging and
 * reads the manifests saved on this computer; once the server answers again, the app asks them to sign in
 * there, and they are back online. A wrong password opens nothing.
 */
import { expect, type Page } from '@playwright/test';
import { DEMO_USERS, type App } from './support/app.ts';
import { screenshot } from './support/files.ts';
import { appTest } from './support/fixtures.ts';
import type { ServerFailure } from './support/server-gate.ts';
import { column, openWorkspace, signInThroughUi } from './support/workspace.ts';

const test = appTest({ manifests: 300, gate: true }, 90_000);

/** As in offline.spec.ts: a request's short wait and the probe's, with room for a busy machine. */
const FOUND_OUT = { timeout: 15_000 };
const USER = DEMO_USERS.inspector;

function gate(app: App) {
  if (!app.gate) throw new Error('this suite needs the server gate');
  return app.gate;
}

async function fillSignIn(page: Page, password: string): Promise<void> {
  await page.getByLabel('User name').fill(USER.username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signed in yesterday, looked at the manifests, signed out keeping the data: the manifests' first ids. */
async function workedHereBefore(page: Page): Promise<string[]> {
  await signInThroughUi(page, USER);
  await openWorkspace(page, 'Manifests');
  const ids = await column(page, 'Manifests', 'manifest_tracking_number');
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Waste Tracker' })).toBeVisible();
  // Past the pipeline's freshness window, as yesterday's data is: shown as saved, not as the server's.
  await page.waitForTimeout(2_500);
  return ids;
}

const FAILURES: readonly ServerFailure[] = ['stopped', 'hanging'];

for (const failure of FAILURES) {
  test(`with the server ${failure}, a user who worked here signs in and reads the saved data, then signs in online`, async ({
    app,
    window,
  }) => {
    const { page } = window;
    const ids = await workedHereBefore(page);

    await gate(app).fail(failure);
    await fillSignIn(page, USER.password);
    // A stopped server refuses at once and main checks the password here; a hanging one is given up on.
    if (failure === 'hanging') await page.getByRole('button', { name: 'Work offline' }).click(FOUND_OUT);
    await expect(page.getByRole('status', { name: 'Offline' })).toBeVisible(FOUND_OUT);
    await expect(
      page.getByTitle(`Signed in on this computer alone as ${USER.username} on ${app.apiBaseUrl}`),
    ).toBeVisible();
    await openWorkspace(page, 'Manifests');
    expect(await column(page, 'Manifests', 'manifest_tracking_number')).toEqual(ids);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    if (failure === 'stopped') await screenshot(page, 'offline-sign-in.png');

    // The server is back: the app finds it and asks for a sign-in there, over the saved data.
    await gate(app).reopen();
    const dialog = page.getByRole('dialog', { name: 'The server answers again' });
    await expect(dialog).toBeVisible(FOUND_OUT);
    if (failure === 'stopped') await screenshot(page, 'offline-sign-in-server-back.png');
    await dialog.getByLabel('Password').fill(USER.password);
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await expect(dialog).toHaveCount(0, FOUND_OUT);
    await expect(page.getByTitle(`Signed in as ${USER.username} on ${app.apiBaseUrl}`)).toBeVisible();
    await expect(page.getByRole('status', { name: 'Offline' })).toHaveCount(0);
    await expect(page.getByRole('note', { name: 'Freshness of the manifests list' })).toHaveText(
      'Up to date',
      FOUND_OUT,
    );
  });
}

test('with the server stopped, a wrong password opens nothing', async ({ app, window }) => {
  const { page } = window;
  await workedHereBefore(page);
  await gate(app).fail('stopped');
  await fillSignIn(page, 'not-the-password');
  await expect(page.getByRole('alert')).toHaveText(
    `The password is not the one "${USER.username}" last signed in with on this computer.`,
  );
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toHaveCount(0);
});
