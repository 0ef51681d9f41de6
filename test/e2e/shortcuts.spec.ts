/**
 * The app's commands from the keyboard in the browser, as the Electron menu runs them on the desktop:
 * switching workspaces, search, refresh (without the browser reloading the page), settings, and Help's
 * list of shortcuts. UPDATE_SCREENSHOTS=1 rewrites the README's picture of that list.
 */
import { COMMANDS, shortcutText } from '../../shared/commands/commands.ts';
import { DEMO_USERS } from './support/app.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { screenshot } from './support/files.ts';
import { results, signInThroughUi } from './support/workspace.ts';

test('the shortcuts switch workspaces, search, refresh in place and open settings', async ({ window }) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  const nav = page.getByRole('navigation', { name: 'Workspaces' });
  await expect(results(page, 'Generators').locator('.ag-row[row-index="0"]')).toBeVisible();

  await page.keyboard.press('Control+2');
  await expect(nav.getByRole('button', { name: 'Manifests' })).toHaveAttribute('aria-current', 'page');
  await expect(results(page, 'Manifests')).toBeVisible();
  await page.keyboard.press('Control+1');
  await expect(nav.getByRole('button', { name: 'Generators' })).toHaveAttribute('aria-current', 'page');

  await page.keyboard.press('Control+f');
  await expect(page.getByRole('searchbox', { name: 'Search generators' })).toBeFocused();

  // F5 asks for the rows again inside the page; the browser's reload would lose this marker.
  await page.evaluate(() => {
    (globalThis as unknown as { marker?: number }).marker = 1;
  });
  const again = page.waitForRequest(
    (request) => request.url().endsWith('/invoke') && (request.postData() ?? '').includes('generators.list'),
  );
  await page.keyboard.press('F5');
  await again;
  expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(1);
  await expect(results(page, 'Generators').locator('.ag-row[row-index="0"]')).toBeVisible();

  await page.keyboard.press('Control+,');
  await expect(page.getByRole('region', { name: 'Settings' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('region', { name: 'Settings' })).toBeHidden();
});

test('Help lists every shortcut of the shared command list, and passes axe', async ({ window }) => {
  const { page } = window;
  await signInThroughUi(page, DEMO_USERS.inspector);
  await expect(results(page, 'Generators').locator('.ag-row[row-index="0"]')).toBeVisible();
  await page.keyboard.press('Control+/');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  for (const info of Object.values(COMMANDS)) {
    if (!info.shortcut) continue;
    const row = help.getByRole('row', { name: new RegExp(`^${info.label.replace(/…$/, '')}`) });
    await expect(row).toContainText(shortcutText(info.shortcut));
  }
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'keyboard-shortcuts.png');
  await help.getByRole('button', { name: 'Close' }).click();
  await expect(help).toBeHidden();
});
