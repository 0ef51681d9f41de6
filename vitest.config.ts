import { defineConfig } from 'vitest/config';
import { SUITE_ENVIRONMENT } from './test/helpers/suite-environment.ts';

/**
 * The server suite's files that talk to the API as a client does: run a second time against PostgreSQL
 * (project `server-postgres`) when TRACKER_TEST_POSTGRES_URL names a cluster (.ci/run starts one; README
 * "Tests"). The files that test one backend's own machinery (SQLite's read pool, bookmarks, FTS5 search
 * strategies, the connection limits) run once, in `node`.
 */
const BOTH_BACKENDS = [
  'test/server/aggregates.test.ts',
  'test/server/auth.test.ts',
  'test/server/detail.test.ts',
  'test/server/errors.test.ts',
  'test/server/generators-list.test.ts',
  'test/server/import/import.test.ts',
  'test/server/import/serving.test.ts',
  'test/server/lookups.test.ts',
  'test/server/manifests-list.test.ts',
  'test/server/properties.test.ts',
  'test/server/query-semantics.test.ts',
  'test/server/search-fold.test.ts',
];

/**
 * expect.poll waits 1 s by default: on a busy two-core machine an export or a server's answer can take
 * longer, and a poll that gives up early fails a test that is right. 10 s keeps a real hang failing.
 */
const POLL = { poll: { timeout: 10_000 } };

/**
 * The node-side suites share each worker's loaded modules from file to file rather than loading them again
 * for every file: none mocks a module or stubs a global, and each file starts its own servers and databases.
 * Measured alone on two cores, the node project took 215 s (230 CPU-seconds) this way against 270 s (303),
 * the PostgreSQL project 206 s against 241. The renderer's files keep their own modules: their stores and
 * fake timers are module state.
 */
const SHARED_MODULES = { isolate: false };

const postgresProject = process.env.TRACKER_TEST_POSTGRES_URL
  ? [
      {
        test: {
          name: 'server-postgres',
          include: [...BOTH_BACKENDS, 'test/server/postgres/**/*.test.ts'],
          globalSetup: ['test/server/postgres/support/global-setup.ts'],
          environment: 'node',
          env: { ...SUITE_ENVIRONMENT, TRACKER_TEST_BACKEND: 'postgres' },
          ...SHARED_MODULES,
          expect: POLL,
          // Each server loads its own database first, or copies one loaded from the same file before:
          // a few seconds more per server on a busy machine.
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ]
  : [];

export default defineConfig({
  test: {
    projects: [
      ...postgresProject,
      {
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/renderer/**', 'test/e2e/**', 'test/server/postgres/**'],
          environment: 'node',
          env: SUITE_ENVIRONMENT,
          ...SHARED_MODULES,
          expect: POLL,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'renderer',
          include: ['test/renderer/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          env: SUITE_ENVIRONMENT,
          expect: POLL,
          setupFiles: ['test/renderer/setup.ts'],
          // AG Grid's first render in jsdom takes seconds on a busy two-core machine; 5 s failed tests
          // that were right.
          testTimeout: 15_000,
        },
      },
    ],
  },
});
