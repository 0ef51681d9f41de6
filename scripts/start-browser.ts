/**
 * npm run start:browser -- [--port P] [--user-data DIR]
 *
 * The app without Electron: builds it, starts the reference server on its demo database and the loopback
 * browser bridge in front of the real main handlers, and prints the URL to open (it holds the per-run
 * secret). "Keep me signed in" is refused here: a browser offers no OS key store. Ctrl-C stops everything.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBridge } from '../main/src/bridge/server.ts';
import { BUILD_ROOT, buildApp, onInterrupt, startDemoServer } from './launch.ts';

const USAGE = 'usage: npm run start:browser -- [--port P] [--user-data DIR]';

function options(): { port: number; userDataDir: string | undefined } {
  try {
    const { values } = parseArgs({
      options: { port: { type: 'string', default: '0' }, 'user-data': { type: 'string' } },
      strict: true,
      allowPositionals: false,
    });
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new Error(`--port must be 0–65535, got ${values.port}`);
    return { port, userDataDir: values['user-data'] };
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const { port, userDataDir } = options();
  await buildApp();
  const server = await startDemoServer();
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
  void server.exited.then(async () => {
    if (stopping) return;
    console.error('The tracker server stopped; stopping the bridge.');
    await running.close();
    process.exit(1);
  });
  console.error(`Tracker API on ${server.url}`);
  console.error('Sign in with inspector / inspector-demo (or generators-only / generators-demo).');
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
