/**
 * The workspaces as a user sees them, by role and label: signing in, reading boxes and grid rows, and the
 * API answers they must agree with (asked through window.tracker, as the renderer asks).
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { AppWindow } from './app.ts';

export type Workspace = 'Generators' | 'Manifests';

export async function signInThroughUi(
  page: Page,
  user: { username: string; password: string },
): Promise<void> {
  await page.getByLabel('User name').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The server checks the password with scrypt (128 MB, docs/api.md): on a busy two-core machine that alone
  // can take several seconds.
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible({ timeout: 15_000 });
}

export async function openWorkspace(page: Page, name: Workspace): Promise<void> {
  await page.getByRole('navigation', { name: 'Workspaces' }).getByRole('button', { name }).click();
  await expect(results(page, name)).toBeVisible();
}

export function results(page: Page, name: Workspace): Locator {
  return page.getByRole('region', { name: `${name} results` });
}

/** The rendered rows' cells of one column, top to bottom, once the rows are loaded. */
export async function column(page: Page, name: Workspace, colId: string, count = 5): Promise<string[]> {
  const cells = results(page, name).locator(`.ag-grid-scrolling-container .ag-row [col-id="${colId}"]`);
  await expect(cells.first()).not.toBeEmpty();
  const texts: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const row = results(page, name).locator(`.ag-grid-scrolling-container .ag-row[row-index="${index}"]`);
    if ((await row.count()) === 0) break;
    texts.push((await row.locator(`[col-id="${colId}"]`).innerText()).trim());
  }
  return texts;
}

/** Waits until the summary shows figures (not the loading skeleton) and returns them by label. */
export async function boxes(page: Page, name: Workspace): Promise<Record<string, string>> {
  const summary = page.getByRole('region', { name }).getByRole('region', { name: 'Summary' });
  await expect(summary).toHaveAttribute('aria-busy', 'false');
  const figures: Record<string, string> = {};
  for (const group of await summary.getByRole('group').all()) {
    const label = await group.getAttribute('aria-label');
    if (label) figures[label] = (await group.locator('.summary-value').innerText()).trim();
  }
  return figures;
}

export const count = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 0 });
export const tons = (value: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** What the generators boxes and grid must show for a request, from the API itself. */
export async function generatorTruth(
  window: AppWindow,
  filterFields: Record<string, string[]>,
  searchKey = '',
) {
  const totals = await window.call('generators', 'aggregate', { filterFields, searchKey });
  const list = await window.call('generators', 'list', {
    filterFields,
    searchKey,
    pageInfo: { page: 0, pageSize: 5, selectedFields: 'epa_handler_id' },
  });
  if (!totals.ok || !list.ok) throw new Error('the API did not answer');
  return {
    boxes: {
      'Manifests shipped': count(totals.data.shipped_count),
      'Total tons': tons(totals.data.epa_total),
      'Total containers': count(totals.data.container_count),
      'Total shippers': count(totals.data.mmc_count),
    },
    total: list.data.totalElements,
    ids: list.data.content.map((row) => row.epa_handler_id ?? ''),
  };
}

export async function manifestTruth(
  window: AppWindow,
  filterFields: Record<string, unknown>,
  searchKey = '',
) {
  const totals = await window.call('manifests', 'aggregate', { filterFields, searchKey });
  const list = await window.call('manifests', 'list', {
    filterFields,
    searchKey,
    pageInfo: { page: 0, pageSize: 5, selectedFields: 'manifest_tracking_number' },
  });
  if (!totals.ok || !list.ok) throw new Error('the API did not answer');
  return {
    boxes: {
      'Manifests shipped': count(totals.data.shipped_count),
      'Total waste (tons)': tons(totals.data.total_waste),
      'Total containers': count(totals.data.container_count),
      'Total manifest waste lines': count(totals.data.waste_streams),
    },
    total: list.data.totalElements,
    ids: list.data.content.map((row) => row.manifest_tracking_number ?? ''),
  };
}

/** The grid's match count line, e.g. "1,234 generators". */
export async function expectCount(
  page: Page,
  name: Workspace,
  total: number,
  options: { timeout?: number } = {},
): Promise<void> {
  const noun = name.toLowerCase();
  await expect(results(page, name).locator('.results-status')).toHaveText(
    `${count(total)} ${total === 1 ? noun.replace(/s$/, '') : noun}`,
    options,
  );
}

/** Opens a filter member's box in the panel and returns it. */
export async function filterMember(page: Page, panel: string, label: string): Promise<Locator> {
  const aside = page.getByRole('complementary', { name: panel });
  const toggle = aside.getByRole('button', { name: new RegExp(`^${label}`) });
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  return aside.getByRole('group', { name: label });
}
