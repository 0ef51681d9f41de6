/**
 * A pack's refresh after new data reached the server, end to end in Chromium against the real server: EPA
 * files imported into the database the server is serving (twelve new manifests, one manifest replaced by a
 * newer version), then Refresh on the Offline data screen says what it brought, the manifests grid marks
 * exactly those rows until it has shown them, and their list leaves the grid room for rows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { importFiles } from '../../server/src/import/import-files.ts';
import { DEMO_USERS } from './support/app.ts';
import { screenshot } from './support/files.ts';
import { appTest } from './support/fixtures.ts';
import { boxes, expectCount, openWorkspace, results, signInThroughUi } from './support/workspace.ts';

const test = appTest({ manifests: 300 });

const HEADER = [
  'MANIFEST TRACKING NUMBER',
  'UPDATED DATE',
  'SHIPPED DATE',
  'RECEIVED DATE',
  'GENERATOR ID',
  'GENERATOR NAME',
  'GENERATOR LOCATION STATE',
  'DES FACILITY ID',
  'DES FACILITY NAME',
  'TOTAL QUANTITY TONS',
];

/** The new manifests this week's files bring. */
const NEW = Array.from({ length: 12 }, (_, index) => `${900_000_001 + index}ELC`);

const csv = (rows: string[][]) => rows.map((row) => row.map((value) => `"${value}"`).join(',')).join('\r\n');

test('a refresh says what it brought and the grid marks those rows until it has shown them', async ({
  app,
  window,
}) => {
  // Two whole downloads of the pack beside the sign-in and the import.
  test.setTimeout(120_000);
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  await openWorkspace(page, 'Manifests');
  await page.getByRole('button', { name: 'Make available offline' }).click();
  await page
    .getByRole('navigation', { name: 'Workspaces' })
    .getByRole('button', { name: 'Offline data' })
    .click();
  const pack = page.getByRole('row', { name: 'All manifests' });
  await expect(pack.getByRole('button', { name: 'Refresh' })).toBeVisible({ timeout: 30_000 });

  // This week's files reach the served database: a manifest shipped after every other, and a newer
  // version of the newest one there was.
  const newest = app.server.db
    .prepare(
      `SELECT manifest_tracking_number AS tracking, generator_epa_id AS generator, generator_name AS name,
              generator_location_state AS state, shipped_date AS shipped, received_date AS received
       FROM manifests ORDER BY shipped_date DESC, manifest_tracking_number DESC LIMIT 1`,
    )
    .get() as Record<string, string>;
  const dir = mkdtempSync(join(tmpdir(), 'pack-refresh-'));
  try {
    writeFileSync(
      join(dir, 'EM_MANIFEST.csv'),
      csv([
        HEADER,
        ...NEW.map((tracking, index) => {
          // Shipped after every other manifest, the first of them last: it heads the grid.
          const day = (offset: number) => `2099-01-${String(NEW.length - index + offset).padStart(2, '0')}`;
          return [
            tracking,
            day(1),
            day(0),
            day(1),
            newest.generator!,
            newest.name!,
            newest.state!,
            'TXD900000009',
            'Refresh Test Landfill',
            '2.5',
          ];
        }),
        [
          newest.tracking!,
          '2099-01-03',
          newest.shipped!,
          newest.received!,
          newest.generator!,
          newest.name!,
          newest.state!,
          'TXD900000009',
          'Refresh Test Landfill',
          '3.5',
        ],
      ]),
    );
    const imported = await importFiles({ db: app.server.dbPath, paths: [dir] });
    expect(imported.totals).toMatchObject({ stored: NEW.length, updated: 1, rejected: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  await pack.getByRole('button', { name: 'Refresh' }).click();
  await expect(pack).toContainText(
    /^All manifests12 new manifests, 1 changed since \d{4}-\d\d-\d\d \d\d:\d\d/,
    {
      timeout: 30_000,
    },
  );
  await expect(pack.locator('time')).toContainText('(just now)');

  await openWorkspace(page, 'Manifests');
  const grid = results(page, 'Manifests');
  await expect(page.getByRole('note', { name: 'Marked rows' })).toContainText(
    'New and changed manifests since an offline pack’s last sync',
  );
  const first = grid.locator('.ag-row[row-index="0"]');
  await expect(first).toHaveAttribute('row-id', '900000001ELC');
  await expect(first).toHaveClass(/\brow-new\b/);
  await expect(grid.locator('.ag-row.row-changed')).toHaveAttribute('row-id', newest.tracking!);
  // The boxes count what the grid shows: the new manifests too.
  await expectCount(page, 'Manifests', 312);
  await expect.poll(async () => (await boxes(page, 'Manifests'))['Manifests shipped']).toBe('312');
  await page.screenshot({ path: test.info().outputPath('marked-rows.png') });

  // The legend lists them, wherever they fall in the grid's order, and shows one in the grid on its own.
  await page.getByRole('note', { name: 'Marked rows' }).getByRole('button', { name: 'List them' }).click();
  const listed = page.getByRole('region', { name: 'Marked manifests' }).getByRole('listitem');
  await expect(listed).toHaveCount(NEW.length + 1);
  await expect(listed.first()).toHaveText(/^New 900000001ELC /);
  await expect(listed.filter({ hasText: new RegExp(`^Changed ${newest.tracking!} `) })).toHaveCount(1);
  // Listed, they leave the grid room for rows (at 1280 × 800: the waste lines pane gives way first), and the
  // waste lines pane stays inside the window.
  const frame = await grid.locator('.grid-frame').boundingBox();
  const header = await grid.locator('.ag-header').boundingBox();
  const row = await first.boundingBox();
  expect(((frame?.height ?? 0) - (header?.height ?? 0)) / (row?.height ?? Infinity)).toBeGreaterThanOrEqual(
    5,
  );
  const pane = await page.getByRole('region', { name: 'Waste lines' }).boundingBox();
  expect((pane?.y ?? Infinity) + (pane?.height ?? 0)).toBeLessThanOrEqual(page.viewportSize()!.height);
  await screenshot(page, 'pack-refresh.png');
  await page.getByRole('button', { name: 'Show 900000001ELC in the grid' }).click();
  const search = page.getByRole('searchbox', { name: 'Search manifests' });
  await expect(search).toHaveValue('900000001ELC');
  await expectCount(page, 'Manifests', 1);
  await search.fill('');
  await expectCount(page, 'Manifests', 312);

  // Shown once, the rows are seen: the next time the workspace opens they are not marked.
  await expect(async () => {
    await page
      .getByRole('navigation', { name: 'Workspaces' })
      .getByRole('button', { name: 'Offline data' })
      .click();
    await openWorkspace(page, 'Manifests');
    await expect(grid.locator('.ag-row[row-id="900000001ELC"]')).toBeVisible();
    await expect(grid.locator('.ag-row.row-new, .ag-row.row-changed')).toHaveCount(0, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole('note', { name: 'Marked rows' })).toHaveCount(0);
});
