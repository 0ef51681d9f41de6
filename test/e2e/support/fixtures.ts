/**
 * Playwright fixtures: one `App` (server and bridge) per worker, started once, and a fresh `AppWindow` per
 * test in its own browser context (its own IndexedDB), opened on a signed-out app.
 */
import { test as base } from '@playwright/test';
import { App, type AppWindow } from './app.ts';

export const test = base.extend<{ window: AppWindow }, { app: App }>({
  app: [
    // Playwright reads a fixture's dependencies from its first parameter, so it must be a destructuring.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const app = await App.start();
      await use(app);
      await app.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  window: async ({ app, context }, use) => {
    await app.reset();
    const window = await app.open(context);
    await use(window);
    await window.close();
  },
});

export { expect } from '@playwright/test';
