/**
 * Playwright fixtures: one `App` (server and bridge) per worker, started once, and a fresh `AppWindow` per
 * test in its own browser context (its own IndexedDB), opened on a signed-out app.
 */
import { test as base } from '@playwright/test';
import { App, type AppOptions, type AppWindow } from './app.ts';

/**
 * The fixtures over an app started with `options` (a larger dataset, a gate in front of the server); each
 * test's window finds the gate open again, whatever the test before it left.
 */
export function appTest(options: AppOptions = {}, startTimeoutMs = 60_000) {
  return base.extend<{ window: AppWindow }, { app: App }>({
    app: [
      // Playwright reads a fixture's dependencies from its first parameter, so it must be a destructuring.
      // eslint-disable-next-line no-empty-pattern
      async ({}, use) => {
        const app = await App.start(options);
        await use(app);
        await app.close();
      },
      { scope: 'worker', timeout: startTimeoutMs },
    ],
    window: async ({ app, context }, use) => {
      await app.gate?.reopen();
      await app.reset();
      const window = await app.open(context);
      await use(window);
      await window.close();
    },
  });
}

export const test = appTest();

export { expect } from '@playwright/test';
