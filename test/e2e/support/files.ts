/** Files the end-to-end tests keep: the app's downloads, and the README's screenshots when asked. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test, type Download, type Page } from '@playwright/test';

const SCREENSHOTS = resolve(import.meta.dirname, '../../../docs/screenshots');

/** Writes docs/screenshots/<name> from the page, only with UPDATE_SCREENSHOTS=1. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS === '1') await page.screenshot({ path: resolve(SCREENSHOTS, name) });
}

/**
 * A new temporary folder for each test of the file, removed after it; returns the function that saves a
 * download there under its suggested name and answers its path.
 */
export function downloadsFolder(prefix: string): (download: Download) => Promise<string> {
  let folder = '';
  test.beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), prefix));
  });
  test.afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  return async (download) => {
    const path = join(folder, download.suggestedFilename());
    await download.saveAs(path);
    return path;
  };
}
