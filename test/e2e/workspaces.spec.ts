/**
 * The renderer end to end: sign in through the UI, then the generators workspace shows boxes whose figures
 * match the API and a grid with rows; the sign-in and the workspace have no serious axe-core violations.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { resolve } from 'node:path';
import { DEMO_USERS } from './support/app.ts';
import { expect, test } from './support/fixtures.ts';

const SCREENSHOTS = resolve(import.meta.dirname, '../../docs/screenshots');

async function seriousViolations(page: Page) {
  const scan = await new AxeBuilder({ page }).analyze();
  return scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

test('sign in, then the generators workspace shows API totals and rows', async ({ window }) => {
  const page = window.page;
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel('User name').fill(DEMO_USERS.inspector.username);
  await page.getByLabel('Password').fill(DEMO_USERS.inspector.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

  const totals = await window.call('generators', 'aggregate', { filterFields: {}, searchKey: '' });
  if (!totals.ok) throw new Error(totals.error.message);
  const shipped = page.getByRole('group', { name: 'Manifests shipped' });
  await expect(shipped).toContainText(totals.data.shipped_count.toLocaleString('en-US'));
  await expect(page.locator('.ag-row').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: resolve(SCREENSHOTS, 'generators.png'), fullPage: true });
});
