/**
 * What `npm start` and `npm run start:browser` share: building the app, running the reference server on
 * its demo database as a child process, keeping the app up when that server stops, and finding the
 * Electron binary without triggering the electron package's download-on-require.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { FALLBACK_API_BASE_URL } from '../main/src/settings/launch-options.ts';

export const ROOT = resolve(import.meta.dirname, '..');
export const BUILD_ROOT = join(ROOT, 'out');

/** electron-vite build: main, the preload bundle and the renderer, into out/. */
export function buildApp(): Promise<void> {
  console.error('Building the app (electron-vite build)…');
  const cli = join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js');
  const build = spawn(process.execPath, [cli, 'build', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  return new Promise((resolvePromise, reject) => {
    build.once('error', reject);
    build.once('exit', (code, signal) =>
      code === 0
        ? resolvePromise()
        : reject(new Error(`The build failed (${signal ?? `exit code ${code}`}).`)),
    );
  });
}

export interface DemoServer {
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  /** The server's process id, so a stop that was not asked for can be told apart and tested. */
  pid: number;
  /** Resolves when the server process has ended, however it ended. */
  exited: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The demo server's port from one launch to the next: the app's fallback address (which is also the
 * server's own default). A signed-in session is kept for one server address only, so a random port would
 * throw away "Keep me signed in" on every `npm start`.
 */
export const DEMO_SERVER_PORT = Number(new URL(FALLBACK_API_BASE_URL).port);

/** Whether nothing listens on 127.0.0.1:port right now (another run, another engineer's server). */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const probe = createServer();
    probe.once('error', () => resolvePromise(false));
    probe.listen({ host: '127.0.0.1', port, exclusive: true }, () => {
      probe.close(() => resolvePromise(true));
    });
  });
}

export interface DemoServerOptions {
  /** Serve this database instead of the demo one under data/ (created on the first run). */
  db?: string;
  /** The port to try first; when it is taken, a free port is used and the console says why. */
  port?: number;
}

/**
 * The reference server over its demo database on loopback, on DEMO_SERVER_PORT when that is free. Its
 * stderr (progress, the demo accounts) goes to ours; its first stdout line is its URL.
 */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const preferred = options.port ?? DEMO_SERVER_PORT;
  if (preferred !== 0 && (await isPortFree(preferred))) {
    // The port can still be taken between the probe and the server's bind; then a free one is used.
    const started = await spawnServer(options.db, preferred).catch(() => undefined);
    if (started) return started;
  }
  if (preferred !== 0) {
    console.error(
      `Port ${preferred} is in use, so the demo server takes a free port; a remembered sign-in is for ` +
        'another address and will not apply this time.',
    );
  }
  return spawnServer(options.db, 0);
}

function spawnServer(db: string | undefined, port: number): Promise<DemoServer> {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'server/src/cli/server.ts'),
      ...(db === undefined ? [] : ['--db', db]),
      '--port',
      String(port),
      '--log-level',
      'warn',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  return new Promise((resolvePromise, reject) => {
    child.once('error', reject);
    void exited.then(() => reject(new Error(`The tracker server stopped before it was ready.`)));
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      resolvePromise({
        url: line.trim(),
        pid: child.pid ?? 0,
        exited,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}

/**
 * When the demo server stops without being asked to, the app keeps running: in Electron the API is a
 * remote service that can go away, and the app shows it as unreachable in its normal error display.
 * Only the console is told, so whoever started it knows why.
 */
export function reportServerStop(server: DemoServer, stopping: () => boolean, howToEnd: string): void {
  void server.exited.then(() => {
    if (stopping()) return;
    console.error(
      `The demo server stopped. The app keeps running and shows the server as unreachable; ${howToEnd}.`,
    );
  });
}

/**
 * The Electron binary, or undefined when there is none. The electron package's own entry tries to download
 * the binary when it is missing, so its path file is read here instead of requiring it.
 */
export function electronBinary(): string | undefined {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return undefined;
  }
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override
    ? join(override, relative ?? 'electron')
    : relative && join(packageDir, 'dist', relative);
  return binary && existsSync(binary) ? binary : undefined;
}

/** Runs `stop` once on Ctrl-C or SIGTERM, then exits with `code`. */
export function onInterrupt(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    console.error('\nStopping…');
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
