/**
 * The results grid in the field, end to end in Chromium against the real server behind a gate that can hang
 * (take connections and answer nothing, as a paused server or a captive portal does) or answer slowly:
 * searches and sorts sent while the server hangs end in the last query's rows once it answers again, never
 * in a grid stuck on "Loading…"; slow answers arriving after newer ones never show; a new search or sort
 * starts at the first row, wherever the user had scrolled; and at 1280 px every default column is on screen
 * with the names given room to be read.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { DEMO_USERS, type App, type AppWindow } from './support/app.ts';
import { appTest } from './support/fixtures.ts';
import { column, openWorkspace, results, signInThroughUi, type Workspace } from './support/workspace.ts';

const test = appTest({ gate: true });

// Each story signs in and waits on a failing server; a busy machine needs more than the default 30 s.
test.describe.configure({ timeout: 60_000 });

/** The grid's viewport, seen from the test's types (which have no DOM). */
type Scrollable = { scrollTop: number };

function gate(app: App) {
  if (!app.gate) throw new Error('this suite needs the server gate');
  return app.gate;
}

/** The manifests the server has for a search, in an order, as the grid asks for them. */
async function trackingNumbers(window: AppWindow, searchKey: string, sort?: string): Promise<string[]> {
  const answer = await window.call('manifests', 'list', {
    filterFields: {},
    searchKey,
    pageInfo: { page: 0, pageSize: 5, selectedFields: 'manifest_tracking_number', ...(sort ? { sort } : {}) },
  });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.data.content.map((row) => row.manifest_tracking_number ?? '');
}

function header(page: Page, name: string): Locator {
  return results(page, 'Manifests').getByRole('columnheader', { name }).first();
}

function search(page: Page): Locator {
  return page.getByRole('searchbox', { name: 'Search manifests' });
}

test('searches and sorts sent while the server hangs end in the last query’s rows once it answers', async ({
  app,
  window,
}) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  await openWorkspace(page, 'Manifests');
  await column(page, 'Manifests', 'manifest_tracking_number');
  const truth = await trackingNumbers(window, 'co', 'shipped_date asc');

  // As a user did with the server paused for a few seconds: search, sort twice, search again, sort.
  gate(app).hang();
  await search(page).fill('c');
  await search(page).press('Enter');
  await header(page, 'Generator').click();
  await header(page, 'Generator').click();
  await search(page).fill('co');
  await search(page).press('Enter');
  await header(page, 'Shipped').click();
  await expect(header(page, 'Shipped')).toHaveAttribute('aria-sort', 'ascending');
  await page.waitForTimeout(1_000);
  await gate(app).reopen();

  // Back online within seconds of the server answering, the grid asks again and shows the rows.
  await expect(results(page, 'Manifests').locator('.results-status')).toHaveText(/^[\d,]+ manifests?$/, {
    timeout: 15_000,
  });
  expect(await column(page, 'Manifests', 'manifest_tracking_number')).toEqual(truth);
  await expect(results(page, 'Manifests').locator('.results-status')).not.toHaveText(/Loading/);
  // And the grid goes on loading: another sort after all that is answered too.
  await header(page, 'Shipped').click();
  await expect(header(page, 'Shipped')).toHaveAttribute('aria-sort', 'descending');
  const descending = await trackingNumbers(window, 'co', 'shipped_date desc');
  await expect
    .poll(() => column(page, 'Manifests', 'manifest_tracking_number'), { timeout: 10_000 })
    .toEqual(descending);
});

test('slow answers that arrive after newer ones never show', async ({ app, window }) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  await openWorkspace(page, 'Manifests');
  await column(page, 'Manifests', 'manifest_tracking_number');
  const truth = await trackingNumbers(window, '', 'total_waste_quantity_tons desc');

  // Each answer is 800 ms late; the clicks come faster, so older answers are still on their way. Five
  // clicks: ascending, descending, the server's order, ascending, descending.
  gate(app).slow(800);
  for (let click = 0; click < 5; click += 1) await header(page, 'Waste (tons)').click();
  await expect(header(page, 'Waste (tons)')).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => column(page, 'Manifests', 'manifest_tracking_number')).toEqual(truth);
  // Late answers of the older orders come and go; the rows stay those of the last one.
  await page.waitForTimeout(1_600);
  expect(await column(page, 'Manifests', 'manifest_tracking_number')).toEqual(truth);
  await gate(app).reopen();
});

test('a new search or sort starts at the first row, wherever the user had scrolled', async ({ window }) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  await openWorkspace(page, 'Manifests');
  const grid = results(page, 'Manifests');
  const viewport = grid.locator('.ag-grid-viewport');
  const scrollTop = () => viewport.evaluate((element) => (element as unknown as Scrollable).scrollTop);
  const scrollTo = async (row: number) => {
    await viewport.evaluate((element, top) => {
      (element as unknown as Scrollable).scrollTop = top;
    }, row * 34);
    await expect(
      grid.locator(`.ag-row[row-index="${row}"] [col-id="manifest_tracking_number"]`),
    ).not.toBeEmpty();
  };

  await scrollTo(560);
  await header(page, 'Shipped').click();
  await expect(header(page, 'Shipped')).toHaveAttribute('aria-sort', 'ascending');
  expect(await column(page, 'Manifests', 'manifest_tracking_number')).toEqual(
    await trackingNumbers(window, '', 'shipped_date asc'),
  );
  expect(await scrollTop()).toBe(0);

  await scrollTo(500);
  const searched = await trackingNumbers(window, 'co', 'shipped_date asc');
  await search(page).fill('co');
  await search(page).press('Enter');
  await expect(page.getByRole('button', { name: 'Remove filter Search: co' })).toBeVisible();
  await expect.poll(() => column(page, 'Manifests', 'manifest_tracking_number')).toEqual(searched);
  expect(await scrollTop()).toBe(0);
});

/**
 * Header words a workspace's grid broke inside ("Shippe" / "d"), as "header: word": words whose text
 * spans two lines. Evaluated as a string: the page's types are not the test's (it has no DOM types).
 */
function splitHeaderWords(page: Page, name: Workspace): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const split = [];
    const grid = document.querySelector(${JSON.stringify(`[aria-label="${name} results"]`)});
    for (const text of grid.querySelectorAll('.ag-header-cell-text')) {
      const node = text.firstChild;
      if (!node) continue;
      for (const word of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        if (lines.size > 1) split.push(node.textContent + ': ' + word[0]);
      }
    }
    return split;
  })()`);
}

test('at 1280 × 800 every default manifests column is on screen, the names have room, and a sorted header keeps its words whole', async ({
  window,
}) => {
  const { page } = window;
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInThroughUi(page, DEMO_USERS.inspector);
  await openWorkspace(page, 'Manifests');
  await column(page, 'Manifests', 'manifest_tracking_number');
  const grid = results(page, 'Manifests');
  const rows = await grid.locator('.ag-row[row-index="0"]').boundingBox();
  const box = async (colId: string) => {
    const found = await grid.locator(`.ag-row[row-index="0"] [col-id="${colId}"]`).boundingBox();
    if (!found) throw new Error(`no ${colId} cell`);
    return found;
  };
  const containers = await box('container_count');
  expect(containers.x + containers.width).toBeLessThanOrEqual((rows?.x ?? 0) + (rows?.width ?? 0) + 0.5);
  for (const name of ['generator_name', 'transporter', 'designated_facility_name'])
    expect((await box(name)).width).toBeGreaterThanOrEqual(110);

  // Sorted by any column, its header keeps its words whole beside the sort arrow.
  for (const workspace of ['Manifests', 'Generators'] as const) {
    await openWorkspace(page, workspace);
    const headers = results(page, workspace).locator('.ag-header-cell');
    const ids = await headers.evaluateAll((cells) =>
      cells.map((cell) => (cell as unknown as { getAttribute(name: string): string }).getAttribute('col-id')),
    );
    expect(ids.length).toBeGreaterThan(5);
    for (const id of ids) {
      const cell = results(page, workspace).locator(`.ag-header-cell[col-id="${id}"]`);
      await cell.locator('.ag-header-cell-label').click();
      await expect(cell).toHaveAttribute('aria-sort', /ascending|descending/);
      expect(await splitHeaderWords(page, workspace), `sorted by ${id}`).toEqual([]);
    }
  }
});
