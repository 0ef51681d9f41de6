/**
 * npm run start:browser -- [--port P] [--user-data DIR] [--db FILE] [--no-build]
 *
 * The app without Electron: builds it, starts the reference server on its demo database and the loopback
 * browser bridge in front of the real main handlers, and prints the URL to open (it holds the per-run
 * secret). "Keep me signed in" is refused here: a browser offers no OS key store. As in Electron, the app
 * outlives its server and then shows it as unreachable. Ctrl-C stops everything.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBridge } from '../main/src/bridge/server.ts';
import { existsSync } from 'node:fs';
import { BUILD_ROOT, buildApp, onInterrupt, reportServerStop, startDemoServer } from './launch.ts';
import { DEMO_ACCOUNTS } from '../server/src/auth/demo-accounts.ts';

const USAGE = 'usage: npm run start:browser -- [--port P] [--user-data DIR] [--db FILE] [--no-build]';

interface Options {
  port: number;
  userDataDir: string | undefined;
  /** A database to serve instead of the demo one. */
  db: string | undefined;
  /** Reuse the app already built in out/. */
  build: boolean;
}

function options(): Options {
  try {
    const { values } = parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        'user-data': { type: 'string' },
        db: { type: 'string' },
        'no-build': { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new Error(`--port must be 0–65535, got ${values.port}`);
    if (values.db !== undefined && !existsSync(values.db))
      throw new Error(`--db names no file: ${values.db}`);
    if (values['no-build'] && !existsSync(join(BUILD_ROOT, 'renderer/index.html')))
      throw new Error('--no-build needs a built app in out/; run without it once');
    return { port, userDataDir: values['user-data'], db: values.db, build: !values['no-build'] };
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const { port, userDataDir, db, build } = options();
  if (build) await buildApp();
  const server = await startDemoServer({ db });
  const running = await startBridge({
    rendererRoot: join(BUILD_ROOT, 'renderer'),
    preloadFile: join(BUILD_ROOT, 'preload/index.cjs'),
    port,
    userDataDir,
    apiBaseUrl: server.url,
  }).catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  let stopping = false;
  onInterrupt(async () => {
    stopping = true;
    await running.close();
    await server.stop();
  });
  reportServerStop(server, () => stopping, 'Ctrl-C stops the bridge');
  console.error(`Tracker API on ${server.url} (process ${server.pid})`);
  const accounts = DEMO_ACCOUNTS.map((account) => `${account.username} / ${account.password}`);
  // Another database has the accounts its owner added, which the demo's need not be among.
  console.error(
    db === undefined
      ? `Sign in with ${accounts.join(' (or ')}${')'.repeat(accounts.length - 1)}.`
      : `Sign in with an account of ${db}: npm run users -- --db ${db} list names them ` +
          `(a demo database has ${accounts.join(', ')}).`,
  );
  console.error(
    "Open this address in Chromium or Chrome; it holds this run's secret, so keep it to yourself:",
  );
  console.log(running.url);
  console.error('Ctrl-C stops the app and the server.');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
