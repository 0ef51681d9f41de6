/**
 * The renderer end to end, as a user drives it: sign in, both workspaces with boxes and rows that agree
 * with the API, every kind of filter, sorting, the column chooser, waste lines, the generator profile,
 * missing permission, session expiry mid-work, and what survives a switch or a restart. Every screen that
 * theme.spec.ts does not scan with axe-core is scanned here.
 */
import { DEMO_USERS } from './support/app.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { screenshot } from './support/files.ts';
import {
  boxes,
  column,
  expectCount,
  filterMember,
  generatorTruth,
  manifestTruth,
  openWorkspace,
  results,
  signInThroughUi,
} from './support/workspace.ts';

/** The grid's viewport, seen from the test's types (which have no DOM). */
type Scrollable = { scrollTop: number };

/** Text as a regular expression that matches it literally. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('sign in, then both workspaces show boxes and rows that match the API', async ({ window }) => {
  // axe scans these screens in theme.spec.ts (the sign-in, the generators grid, a manifest's waste lines).
  const { page } = window;
  // The README's screenshots are taken at 1280 × 800, the smallest screen the layout is made for.
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInThroughUi(page, DEMO_USERS.inspector);

  const generators = await generatorTruth(window, {});
  expect(await boxes(page, 'Generators')).toEqual(generators.boxes);
  await expectCount(page, 'Generators', generators.total);
  expect(await column(page, 'Generators', 'epa_handler_id')).toEqual(generators.ids);
  await screenshot(page, 'generators.png');

  await openWorkspace(page, 'Manifests');
  const manifests = await manifestTruth(window, {});
  expect(await boxes(page, 'Manifests')).toEqual(manifests.boxes);
  await expectCount(page, 'Manifests', manifests.total);
  expect(await column(page, 'Manifests', 'manifest_tracking_number')).toEqual(manifests.ids);
  await results(page, 'Manifests').locator('.ag-row[row-index="0"]').click();
  await expect(page.getByRole('table', { name: /^Waste lines of manifest/ })).toBeVisible();
  await screenshot(page, 'manifests.png');
});

test('a lookup filter with type-to-search and load-more narrows rows and boxes alike', async ({ window }) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  const cities = await filterMember(page, 'Generator filters', 'City');
  const options = cities.getByRole('checkbox');
  await expect(options).toHaveCount(50);
  await cities.getByRole('button', { name: 'Load more City' }).click();
  await expect.poll(() => options.count()).toBeGreaterThan(50);

  const states = await filterMember(page, 'Generator filters', 'State');
  await states.getByRole('searchbox', { name: 'Search State' }).fill('c');
  await expect(states.getByRole('checkbox', { name: 'TX' })).toHaveCount(0);
  await states.getByRole('checkbox', { name: 'CA' }).check();
  await states.getByRole('checkbox', { name: 'CO' }).check();

  const truth = await generatorTruth(window, { states: ['CA', 'CO'] });
  expect(truth.total).toBeGreaterThan(0);
  await expectCount(page, 'Generators', truth.total);
  expect(await boxes(page, 'Generators')).toEqual(truth.boxes);
  expect(await column(page, 'Generators', 'epa_handler_id')).toEqual(truth.ids);

  const chips = page.getByRole('group', { name: 'Active filters' });
  await chips.getByRole('button', { name: 'Remove filter State: CA' }).click();
  const onlyCo = await generatorTruth(window, { states: ['CO'] });
  await expectCount(page, 'Generators', onlyCo.total);
  expect(await boxes(page, 'Generators')).toEqual(onlyCo.boxes);

  await chips.getByRole('button', { name: 'Clear all' }).click();
  await expectCount(page, 'Generators', (await generatorTruth(window, {})).total);
});

test('the search box narrows rows and boxes, and an empty result offers to clear', async ({ window }) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  const search = page.getByRole('searchbox', { name: 'Search generators' });
  await search.fill('chem');
  const truth = await generatorTruth(window, {}, 'chem');
  expect(truth.total).toBeGreaterThan(0);
  await expectCount(page, 'Generators', truth.total);
  expect(await boxes(page, 'Generators')).toEqual(truth.boxes);
  expect(await column(page, 'Generators', 'epa_handler_id')).toEqual(truth.ids);

  await search.fill('no generator is called this');
  await expect(page.getByText('No generators match these filters.')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(search).toHaveValue('');
  await expectCount(page, 'Generators', (await generatorTruth(window, {})).total);
});

test('date ranges filter manifests; a start after the end is refused and says why', async ({ window }) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  await openWorkspace(page, 'Manifests');
  await page.getByLabel('Shipped date from').fill('2023-01-01');
  await page.getByLabel('Shipped date to').fill('2023-12-31');
  const truth = await manifestTruth(window, {
    shipped_date_start: '2023-01-01',
    shipped_date_end: '2023-12-31',
  });
  expect(truth.total).toBeGreaterThan(0);
  await expectCount(page, 'Manifests', truth.total);
  expect(await boxes(page, 'Manifests')).toEqual(truth.boxes);
  const shipped = await column(page, 'Manifests', 'shipped_date');
  expect(shipped.every((date) => date >= '2023-01-01' && date <= '2023-12-31')).toBe(true);

  await page.getByLabel('Shipped date from').fill('2024-06-01');
  await expect(page.getByRole('alert').filter({ hasText: 'start date is after the end date' })).toBeVisible();
  await expectCount(page, 'Manifests', truth.total);

  const dot = await filterMember(page, 'Manifest filters', 'DOT ID');
  const first = dot.getByRole('checkbox').first();
  const value = (await first.locator('xpath=..').innerText()).trim();
  await first.check();
  const lookup = await window.call('manifests', 'lookup', { field: 'dot_id_no', search: '', page: 1 });
  if (!lookup.ok) throw new Error(lookup.error.message);
  const picked = lookup.data.results.find((entry) => entry.text === value)?.value ?? value;
  const both = await manifestTruth(window, {
    dot_id_nos: [picked],
    shipped_date_start: '2023-01-01',
    shipped_date_end: '2023-12-31',
  });
  await expectCount(page, 'Manifests', both.total);
  expect(await boxes(page, 'Manifests')).toEqual(both.boxes);
});

test('sorting asks the server for that order; sort and columns survive a switch and a restart', async ({
  window,
}) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  const grid = results(page, 'Generators');
  const totalWaste = grid.getByRole('columnheader', { name: 'Total waste (tons)' });
  // As a user does: the second click once the first one's arrow shows. Clicked back to back on a loaded
  // machine, the grid once asked the server for the ascending order only.
  await totalWaste.click();
  await expect(totalWaste).toHaveAttribute('aria-sort', 'ascending');
  await totalWaste.click();
  await expect(totalWaste).toHaveAttribute('aria-sort', 'descending');
  const list = await window.call('generators', 'list', {
    filterFields: {},
    searchKey: '',
    pageInfo: { page: 0, pageSize: 5, sort: 'total_waste desc', selectedFields: 'epa_handler_id' },
  });
  if (!list.ok) throw new Error(list.error.message);
  const expected = list.data.content.map((row) => row.epa_handler_id);
  await expect.poll(() => column(page, 'Generators', 'epa_handler_id')).toEqual(expected);

  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'City' }).uncheck();
  await page.getByRole('checkbox', { name: 'Contact' }).check();
  await page.keyboard.press('Escape');
  await expect(grid.getByRole('columnheader', { name: 'City' })).toHaveCount(0);
  const contacts = await window.call('generators', 'list', {
    filterFields: {},
    searchKey: '',
    pageInfo: { page: 0, pageSize: 1, sort: 'total_waste desc', selectedFields: 'contact_name' },
  });
  if (!contacts.ok) throw new Error(contacts.error.message);
  await expect
    .poll(() => column(page, 'Generators', 'contact_name', 1))
    .toEqual([contacts.data.content[0]?.contact_name]);

  await openWorkspace(page, 'Manifests');
  await openWorkspace(page, 'Generators');
  await expect(grid.getByRole('columnheader', { name: 'Contact' })).toBeVisible();

  await page.reload();
  await window.waitForTracker();
  await expect(grid.getByRole('columnheader', { name: 'Contact' })).toBeVisible();
  await expect(grid.getByRole('columnheader', { name: 'City' })).toHaveCount(0);
  await expect(grid.getByRole('columnheader', { name: 'Total waste (tons)' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect.poll(() => column(page, 'Generators', 'epa_handler_id')).toEqual(expected);
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('button', { name: 'Reset columns' }).click();
  await expect(grid.getByRole('columnheader', { name: 'City' })).toBeVisible();
});

test('the generator profile opens from both workspaces and comes back to the same place', async ({
  window,
}) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  const [id] = await column(page, 'Generators', 'epa_handler_id', 1);
  if (!id) throw new Error('no generator rows');
  // Asked before the click: main keeps one detail request in flight, and the page's is the one under test.
  const detail = await window.call('generators', 'detail', { handler_id: id });
  if (!detail.ok) throw new Error(detail.error.message);
  await results(page, 'Generators')
    .getByRole('button', { name: new RegExp(`profile of ${id}`) })
    .click();
  const profile = page.getByRole('heading', {
    level: 2,
    name: new RegExp(escaped(detail.data.generator_data.generator_name)),
  });
  await expect(profile).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  // The profile scrolls inside the window; a tall window shows all of it in the screenshot.
  await page.setViewportSize({ width: 1440, height: 1000 });
  await screenshot(page, 'profile.png');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(results(page, 'Generators')).toBeVisible();

  await openWorkspace(page, 'Manifests');
  const name = (await column(page, 'Manifests', 'generator_name', 1))[0] ?? '';
  await results(page, 'Manifests')
    .locator('.ag-row[row-index="0"] [col-id="generator_name"]')
    .getByRole('button')
    .click();
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(escaped(name)) })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(results(page, 'Manifests')).toBeVisible();
});

test('a generators-only user is told which permission Manifests needs, once, and offered nothing that would fail', async ({
  window,
}) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.generatorsOnly);
  await expect(results(page, 'Generators').locator('.ag-row').first()).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Workspaces' })
    .getByRole('button', { name: 'Manifests' })
    .click();
  const manifests = page.getByRole('region', { name: 'Manifests', exact: true });
  await expect(manifests.getByRole('heading', { name: 'Manifests are not available to you' })).toBeVisible();
  await expect(manifests).toContainText('does not have the “manifests” permission');
  await expect(page.getByRole('alert')).toHaveCount(0);
  for (const name of ['Retry', 'Export to Excel', 'Export CSV', 'Make available offline'])
    await expect(manifests.getByRole('button', { name })).toHaveCount(0);
  await expect(page.getByText(/Loading/)).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
});

test('a session that expires mid-work asks to sign in, then carries on in the same place', async ({
  window,
  app,
}) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  await openWorkspace(page, 'Manifests');
  await page.getByLabel('Shipped date from').fill('2000-01-01');
  // The filter holds every manifest, so the count does not change: its chip says it is applied.
  await expect(page.getByRole('button', { name: 'Remove filter Shipped from: 2000-01-01' })).toBeVisible();
  const truth = await manifestTruth(window, { shipped_date_start: '2000-01-01' });
  await expectCount(page, 'Manifests', truth.total);
  const grid = results(page, 'Manifests');
  await grid.locator('.ag-row[row-index="2"]').click();
  const lines = page.getByRole('table', { name: /^Waste lines of manifest/ });
  const caption = await lines.locator('caption').innerText();

  // The server forgets every token: the next page the grid asks for meets an expired session.
  app.server.db.prepare('DELETE FROM tokens').run();
  const viewport = grid.locator('.ag-grid-viewport');
  const target = 400;
  await viewport.evaluate((element, top) => {
    (element as unknown as Scrollable).scrollTop = top;
  }, target * 34);
  const dialog = page.getByRole('dialog', { name: 'Your session has expired' });
  await expect(dialog).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await expect(dialog.getByLabel('User name')).toHaveValue(DEMO_USERS.inspector.username);
  await dialog.getByLabel('Password').fill(DEMO_USERS.inspector.password);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog).toBeHidden();

  const row = grid.locator(`.ag-row[row-index="${target}"] [col-id="manifest_tracking_number"]`);
  await expect(row).not.toBeEmpty();
  expect(await viewport.evaluate((element) => (element as unknown as Scrollable).scrollTop)).toBe(
    target * 34,
  );
  await expect(page.getByLabel('Shipped date from')).toHaveValue('2000-01-01');
  await expect(lines.locator('caption')).toHaveText(caption);
  expect(await boxes(page, 'Manifests')).toEqual(truth.boxes);
});

test('the grids work from the keyboard: arrows move the selection, Enter opens the profile', async ({
  window,
}) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  const names = await column(page, 'Generators', 'generator_name', 2);
  await results(page, 'Generators').locator('.ag-row[row-index="0"] [col-id="location_city"]').click();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('heading', { level: 2, name: new RegExp(escaped(names[1] ?? '')) }),
  ).toBeVisible();
  await page.keyboard.press('Escape');

  await openWorkspace(page, 'Manifests');
  const numbers = await column(page, 'Manifests', 'manifest_tracking_number', 2);
  await results(page, 'Manifests').locator('.ag-row[row-index="0"] [col-id="shipped_date"]').click();
  const caption = page.getByRole('table', { name: /^Waste lines of manifest/ }).locator('caption');
  await expect(caption).toHaveText(`Waste lines of manifest ${numbers[0]}`);
  await page.keyboard.press('ArrowDown');
  await expect(caption).toHaveText(`Waste lines of manifest ${numbers[1]}`);
});
