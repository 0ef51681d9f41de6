/**
 * End-to-end tests in Chromium against the real reference server, the real main handlers behind the
 * loopback bridge, and the built renderer with the real preload (no Electron binary is needed). Debian's
 * Chromium is used, never a downloaded one: CHROMIUM_PATH, else /usr/bin/chromium.
 */
import { defineConfig } from '@playwright/test';
import { SUITE_ENVIRONMENT } from './test/helpers/suite-environment.ts';

// The servers these tests start, in this process or as commands, hash passwords at the suites' cost.
Object.assign(process.env, SUITE_ENVIRONMENT);

export default defineConfig({
  testDir: 'test/e2e',
  globalSetup: './test/e2e/support/global-setup.ts',
  // One worker: the app under test is one main process with one session, as on the desktop.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // A safety net, not a measure: every expectation has its own timeout. The unit suite runs beside this one
  // in npm test, and a story of a sign-in, two grids and a reload can take 30 s on a busy two-core machine.
  timeout: 60_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    // The smallest window the app is laid out for; test/e2e/layout.spec.ts also checks 1920×1080.
    viewport: { width: 1280, height: 800 },
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
