/**
 * Offline, end to end in Chromium against the real server behind a gate the test can shut (as if the server
 * stopped) or make hang (as if it were paused, or a captive portal swallowed the traffic), and reopen on the
 * same address: pages seen stay browsable with the banner and freshness labels, offline packs download,
 * survive an interrupted network, resume with nothing missing or twice, and are deleted; inside a pack a new
 * search answers with the server's rows; a full quota says so and keeps what is saved; a second user sees
 * none of the first's data. Every story about a server gone is told twice: stopped, and hanging.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, type Locator, type Page, type Route } from '@playwright/test';
import { DEMO_USERS, type App, type AppWindow } from './support/app.ts';
import { screenshot } from './support/files.ts';
import { appTest } from './support/fixtures.ts';
import type { ServerFailure } from './support/server-gate.ts';
import { savedData } from './support/saved-data.ts';
import {
  boxes,
  column,
  expectCount,
  manifestTruth,
  openWorkspace,
  results,
  signInThroughUi,
} from './support/workspace.ts';

// Enough manifests that a pack takes several pages and hundreds of generator details.
const test = appTest({ manifests: 3000, gate: true }, 120_000);

/** Starts a pack of the workspace's current query and follows it on the Offline data screen. */
async function makeAvailableOffline(page: Page, title: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Make available offline' }).click();
  await openOfflineData(page);
  return page.getByRole('row', { name: title });
}

/** The notice beside "Make available offline" in the workspace on screen. */
function downloadNotice(page: Page, text: string | RegExp): Locator {
  return page.getByRole('status').filter({ hasText: text });
}

async function openOfflineData(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Workspaces' })
    .getByRole('button', { name: 'Offline data' })
    .click();
}

/** The app started again (its held requests let go), on the Offline data screen. */
async function reopenOnOfflineData(window: AppWindow): Promise<void> {
  await window.page.unroute('**/invoke');
  await window.page.reload();
  await window.waitForTracker();
  await openOfflineData(window.page);
}

function gate(app: App) {
  if (!app.gate) throw new Error('this suite needs the server gate');
  return app.gate;
}

/** Every story about a server gone: one that refuses at once, and one that takes connections and hangs. */
const FAILURES: readonly ServerFailure[] = ['stopped', 'hanging'];

/**
 * How long the app may take to find a hanging server out of reach: a request's short wait (1.5 s) and the
 * probe's (3 s), with room for a busy machine. A stopped server is found at once.
 */
const FOUND_OUT = { timeout: 15_000 };

for (const failure of FAILURES) {
  test(`pages seen stay browsable with the server ${failure}, with the banner and freshness labels`, async ({
    app,
    window,
  }) => {
    test.setTimeout(90_000);
    const { page } = window;
    await signInThroughUi(page, DEMO_USERS.inspector);
    const onlineIds = await column(page, 'Generators', 'epa_handler_id');
    const onlineBoxes = await boxes(page, 'Generators');
    await expect(page.getByRole('note', { name: 'Freshness of the generators list' })).toHaveText(
      'Up to date',
    );
    const [id] = onlineIds;
    await results(page, 'Generators')
      .getByRole('button', { name: new RegExp(`profile of ${id}`) })
      .click();
    await expect(page.getByRole('note', { name: 'Freshness of the profile' })).toHaveText('Up to date');
    await page.getByRole('button', { name: 'Back' }).click();
    await openWorkspace(page, 'Manifests');
    const manifestIds = await column(page, 'Manifests', 'manifest_tracking_number');

    await gate(app).fail(failure);
    // Saved answers younger than the pipeline's freshness window are shown without asking the server; wait
    // past it so coming back asks, and learns the server is gone.
    await page.waitForTimeout(2_500);
    await page.reload();
    await window.waitForTracker();
    await openWorkspace(page, 'Generators');
    expect(await column(page, 'Generators', 'epa_handler_id')).toEqual(onlineIds);
    expect(await boxes(page, 'Generators')).toEqual(onlineBoxes);
    await expect(page.getByRole('status', { name: 'Offline' })).toContainText(
      /Offline — showing data saved (just now|\d+ minutes? ago)/,
      FOUND_OUT,
    );
    await expect(page.getByRole('note', { name: 'Freshness of the generators list' })).toHaveText(/^Saved /);
    await expect(page.getByRole('note', { name: 'Freshness of the summary' })).toHaveText(/^Saved /);
    await results(page, 'Generators')
      .getByRole('button', { name: new RegExp(`profile of ${id}`) })
      .click();
    await expect(page.getByRole('note', { name: 'Freshness of the profile' })).toHaveText(/^Saved /);
    await page.getByRole('button', { name: 'Back' }).click();
    await openWorkspace(page, 'Manifests');
    expect(await column(page, 'Manifests', 'manifest_tracking_number')).toEqual(manifestIds);

    // A request never seen says what is missing and how to get it, and does not spin.
    await openWorkspace(page, 'Generators');
    await page.getByRole('searchbox', { name: 'Search generators' }).fill('never searched before');
    const workspace = page.getByRole('region', { name: 'Generators', exact: true });
    await expect(workspace.getByRole('alert')).toContainText('Make available offline', FOUND_OUT);

    // No click: the app finds the server back within seconds, and the view asks again by itself.
    await gate(app).reopen();
    await expect(page.getByRole('status', { name: 'Offline' })).toHaveCount(0, FOUND_OUT);
    await expect(workspace.getByRole('alert')).toHaveCount(0);
    await expect(page.getByRole('note', { name: 'Freshness of the generators list' })).toHaveText(
      'Up to date',
    );
  });
}

/** Batches of generator details held unanswered, and a way to let them go on to the server. */
interface HeldBatches {
  count: () => number;
  /** Lets every held batch, and every later one, go on to the server as it is now. */
  release: () => Promise<void>;
}

/**
 * Holds every batch of generator details the page asks main for, unanswered: the download stays mid-way, as
 * when the app closes during it, or until the test has made the server fail.
 */
async function holdDetailBatches(page: Page): Promise<HeldBatches> {
  const held: Route[] = [];
  let holding = true;
  await page.route('**/invoke', async (route) => {
    if (holding && route.request().postData()?.includes('"tracker:generators.details"')) {
      held.push(route);
      return;
    }
    await route.continue();
  });
  return {
    count: () => held.length,
    release: async () => {
      holding = false;
      await Promise.all(held.splice(0).map((route) => route.continue()));
    },
  };
}

/** Every manifest's key, and every generator the manifests name, as the server's database holds them. */
function manifestPackTruth(app: App): { keys: string[]; generators: string[] } {
  const keys = (
    app.server.db.prepare('SELECT manifest_tracking_number AS key FROM manifests ORDER BY 1').all() as {
      key: string;
    }[]
  ).map((row) => row.key);
  const generators = (
    app.server.db.prepare('SELECT DISTINCT generator_epa_id AS id FROM manifests ORDER BY 1').all() as {
      id: string;
    }[]
  ).map((row) => row.id);
  return { keys, generators };
}

/** The stored pack holds every manifest and every generator and profile they name, each exactly once. */
async function expectWholePack(page: Page, app: App): Promise<void> {
  const truth = manifestPackTruth(app);
  const stored = (await savedData(page, 'inspector')).packs[0]!;
  expect(stored.status).toBe('complete');
  expect([...stored.rowKeys].sort()).toEqual(truth.keys);
  expect([...stored.generatorIds].sort()).toEqual(truth.generators);
  expect([...stored.detailIds].sort()).toEqual(truth.generators);
}

/**
 * Signs in and starts a pack of every manifest whose generator profiles are held unanswered, as when the
 * app closes during that part: once a batch is held, every manifest page is stored and no profile is.
 */
async function packHeldAtProfiles(page: Page): Promise<Locator> {
  await signInThroughUi(page, DEMO_USERS.inspector);
  await openWorkspace(page, 'Manifests');
  const held = await holdDetailBatches(page);
  const pack = await makeAvailableOffline(page, 'All manifests');
  await expect.poll(held.count, { timeout: 20_000 }).toBeGreaterThan(0);
  return pack;
}

for (const failure of FAILURES) {
  test(`a pack downloads, survives a ${failure} server midway, resumes by itself with nothing missing or twice, and is deleted`, async ({
    app,
    window,
  }) => {
    test.setTimeout(90_000);
    const { page } = window;
    await signInThroughUi(page, DEMO_USERS.inspector);
    await openWorkspace(page, 'Manifests');
    const truth = await window.call('manifests', 'list', {
      filterFields: {},
      searchKey: '',
      pageInfo: { page: 0, pageSize: 1, selectedFields: 'manifest_tracking_number' },
    });
    if (!truth.ok) throw new Error(truth.error.message);
    expect(manifestPackTruth(app).keys).toHaveLength(truth.data.totalElements);

    // The first batch of generator profiles waits until the server has failed: every manifest page is in
    // by then, and however fast the machine, the download cannot finish before the failure.
    const held = await holdDetailBatches(page);
    const pack = await makeAvailableOffline(page, 'All manifests');
    await expect(pack).toBeVisible();
    await expect.poll(held.count, { timeout: 20_000 }).toBeGreaterThan(0);
    await gate(app).fail(failure);
    await held.release();
    await expect(pack.getByRole('alert')).toHaveText(/connection was lost; the download resumes/, FOUND_OUT);
    // Waiting to resume by itself: Pause, and no Resume beside it.
    await expect(pack.getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect(pack.getByRole('button', { name: 'Resume' })).toHaveCount(0);
    if (failure === 'stopped') {
      await page.setViewportSize({ width: 1280, height: 800 });
      await screenshot(page, 'offline-data.png');
    }
    const interrupted = (await savedData(page, 'inspector')).packs[0]!;
    expect(interrupted.status).toBe('interrupted');
    expect(interrupted.detailIds.length).toBeLessThan(interrupted.generatorIds.length);
    // The workspace that started the download says why it stopped, not that it is still downloading.
    await openWorkspace(page, 'Manifests');
    await expect(downloadNotice(page, /connection was lost.*Follow it in Offline data/)).toBeVisible();
    await expect(downloadNotice(page, 'Downloading')).toHaveCount(0);

    // No click: the download notices the server is back and completes.
    await gate(app).reopen();
    await openOfflineData(page);
    await expect(pack.getByRole('cell', { name: 'just now' })).toBeVisible({ timeout: 60_000 });
    // Resumed by itself and complete: the workspace's notice goes rather than repeat an old state.
    await openWorkspace(page, 'Manifests');
    await expect(downloadNotice(page, /Downloading|connection was lost|Available offline/)).toHaveCount(0, {
      timeout: 10_000,
    });
    await openOfflineData(page);
    await expectWholePack(page, app);

    // Delete asks first; keeping it changes nothing.
    await page.getByRole('button', { name: 'Delete All manifests' }).click();
    const confirm = page.getByRole('group', { name: 'Delete All manifests?' });
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await expect(pack).toBeVisible();
    await page.getByRole('button', { name: 'Delete All manifests' }).click();
    await confirm.getByRole('button', { name: 'Delete for good' }).click();
    await expect(pack).toHaveCount(0);
    expect((await savedData(page, 'inspector')).packs).toEqual([]);
  });
}

test('a pack download cut short by closing the app resumes by itself when the app starts again', async ({
  app,
  window,
}) => {
  const { page } = window;
  const pack = await packHeldAtProfiles(page);
  const midway = (await savedData(page, 'inspector')).packs[0]!;
  expect(midway.status).toBe('downloading');
  expect(midway.detailIds.length).toBeLessThan(midway.generatorIds.length);

  await reopenOnOfflineData(window);
  await expect(pack.getByRole('cell', { name: 'just now' })).toBeVisible({ timeout: 60_000 });
  await expectWholePack(page, app);
});

test('a paused pack stays paused when the app starts again', async ({ window }) => {
  const { page } = window;
  const pack = await packHeldAtProfiles(page);
  await pack.getByRole('button', { name: 'Pause' }).click();
  await expect(pack.getByRole('button', { name: 'Resume' })).toBeVisible();
  const paused = (await savedData(page, 'inspector')).packs[0]!;
  expect(paused.status).toBe('paused');
  expect(paused.detailIds.length).toBeLessThan(paused.generatorIds.length);

  await reopenOnOfflineData(window);
  await expect(pack.getByRole('button', { name: 'Resume' })).toBeVisible();
  // Long enough for a resume at start, or a retry, to have stored something.
  await page.waitForTimeout(3_000);
  const after = (await savedData(page, 'inspector')).packs[0]!;
  expect(after.status).toBe('paused');
  expect(after.detailIds).toEqual(paused.detailIds);
  await pack.getByRole('button', { name: 'Resume' }).click();
  await expect(pack.getByRole('cell', { name: 'just now' })).toBeVisible({ timeout: 60_000 });
});

test('a full quota says "storage full" and keeps what was saved', async ({ app }, testInfo) => {
  await gate(app).reopen();
  await app.reset();
  // An on-disk profile: the in-memory one of a default context keeps no quota to override.
  const profile = mkdtempSync(join(tmpdir(), 'tracker-quota-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...testInfo.project.use.launchOptions,
    headless: true,
  });
  try {
    const window = await app.open(context);
    const { page } = window;
    // Room for a few pages browsed, not for a pack of every manifest (~5 MB). Chromium's quota accounting
    // lags the writes (a 3 MB quota let the whole pack through), so the quota is far below the pack's size.
    const origin = new URL(page.url()).origin;
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 100 * 1024 });
    await signInThroughUi(page, DEMO_USERS.inspector);
    const ids = await column(page, 'Generators', 'epa_handler_id');
    await boxes(page, 'Generators');
    const before = await savedData(page, 'inspector');
    expect(before.answers.length).toBeGreaterThan(0);

    await openWorkspace(page, 'Manifests');
    await page.getByRole('button', { name: 'Make available offline' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Storage full' })).toBeVisible({
      timeout: 20_000,
    });
    const after = await savedData(page, 'inspector');
    expect(after.answers).toEqual(expect.arrayContaining(before.answers));
    // The half-written pack is kept, paused, and holds no row twice.
    const [pack] = after.packs;
    expect(pack?.status).toBe('paused');
    expect(new Set(pack?.rowKeys).size).toBe(pack?.rowKeys.length);
    await openOfflineData(page);
    await expect(page.getByRole('row', { name: 'All manifests' }).getByRole('alert')).toHaveText(
      /Storage is full/,
    );

    await page.getByRole('switch', { name: 'Work offline' }).check();
    await openWorkspace(page, 'Generators');
    expect(await column(page, 'Generators', 'epa_handler_id')).toEqual(ids);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('a second user signing in on the same profile sees none of the first user’s saved data', async ({
  window,
}) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  await column(page, 'Generators', 'epa_handler_id');
  // Offline before the second user's first request, so only saved data can answer it.
  await page.getByRole('switch', { name: 'Work offline' }).check();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await signInThroughUi(page, DEMO_USERS.generatorsOnly);
  await expect(
    page.getByRole('region', { name: 'Generators', exact: true }).getByRole('alert'),
  ).toContainText('Nothing saved on this machine');
  await expect(page.getByRole('note', { name: 'Freshness of the generators list' })).toHaveCount(0);
  const saved = await savedData(page, 'generators-only');
  expect(saved.answers).toEqual([]);
  expect(saved.databases.filter((name) => name.startsWith('waste-tracker '))).toHaveLength(2);
});

for (const failure of FAILURES) {
  test(`inside a pack, with the server ${failure}, a new search answers with the rows and boxes the server gave`, async ({
    app,
    window,
  }) => {
    test.setTimeout(90_000);
    const { page } = window;
    await signInThroughUi(page, DEMO_USERS.inspector);
    await openWorkspace(page, 'Manifests');
    // A search the app has never sent: only the pack's engine can answer it offline.
    const truth = await manifestTruth(window, {}, 'co');
    expect(truth.total).toBeGreaterThan(0);

    // Started and followed from the workspace: the notice says it runs, then that it is done, then goes.
    await page.getByRole('button', { name: 'Make available offline' }).click();
    await expect(downloadNotice(page, 'Downloading: follow it in Offline data.')).toBeVisible();
    await expect(downloadNotice(page, 'Available offline.')).toBeVisible({ timeout: 60_000 });
    await expect(downloadNotice(page, 'Downloading')).toHaveCount(0);
    await expect(downloadNotice(page, 'Available offline.')).toHaveCount(0, { timeout: 10_000 });
    await gate(app).fail(failure);

    await openWorkspace(page, 'Manifests');
    await page.getByRole('searchbox', { name: 'Search manifests' }).fill('co');
    // The pack answers after the short wait (1.5 s, and opening the pack), before the app has decided the
    // server is gone; far sooner than the request timeout (20 s) it waited before.
    await expectCount(page, 'Manifests', truth.total, { timeout: 10_000 });
    expect(await boxes(page, 'Manifests')).toEqual(truth.boxes);
    expect(await column(page, 'Manifests', 'manifest_tracking_number')).toEqual(truth.ids);
    await expect(page.getByRole('status', { name: 'Offline' })).toBeVisible(FOUND_OUT);
    if (failure === 'stopped') await screenshot(page, 'offline-pack-search.png');
    await gate(app).reopen();
  });
}
