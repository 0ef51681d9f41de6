/**
 * npm start: builds the app, starts the reference server on its demo database, and opens the Electron app
 * pointed at it. The app outlives the server (it then shows the server as unreachable); closing the app
 * stops the server. Without an Electron binary (some machines can neither ship nor download one) it says so
 * and names the browser fallback instead of half-starting.
 */
import { spawn } from 'node:child_process';
import { API_BASE_URL_OPTION } from '../main/src/settings/launch-options.ts';
import { ROOT, buildApp, electronBinary, onInterrupt, reportServerStop, startDemoServer } from './launch.ts';

async function main(): Promise<void> {
  const electron = electronBinary();
  if (!electron) {
    console.error(
      'There is no Electron binary on this machine (node_modules/electron has no dist/), so the desktop app ' +
        'cannot open here.\nRun the same app in a browser instead:  npm run start:browser',
    );
    process.exit(1);
  }
  await buildApp();
  const server = await startDemoServer();
  console.error(`Tracker API on ${server.url}; opening Waste Tracker…`);
  const env = { ...process.env };
  // Set in a parent Electron process, it would make this one a plain Node and never open a window.
  delete env.ELECTRON_RUN_AS_NODE;
  const app = spawn(electron, [ROOT, `${API_BASE_URL_OPTION}=${server.url}`], {
    cwd: ROOT,
    stdio: 'inherit',
    env,
  });
  let stopping = false;
  onInterrupt(async () => {
    stopping = true;
    app.kill('SIGTERM');
    await server.stop();
  });
  app.once('exit', (code) => {
    stopping = true;
    void server.stop().then(() => process.exit(code ?? 1));
  });
  reportServerStop(server, () => stopping, 'closing it (or Ctrl-C) ends this run');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
