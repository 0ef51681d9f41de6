/**
 * What `npm start` and `npm run start:browser` share: building the app, running the reference server on
 * its demo database as a child process, and finding the Electron binary without triggering the electron
 * package's download-on-require.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

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
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** Resolves when the server process has ended, however it ended. */
  exited: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The reference server over data/demo.db (created on the first run, which takes a while), on a free
 * loopback port. Its stderr (progress, the demo accounts) goes to ours; its first stdout line is its URL.
 */
export function startDemoServer(): Promise<DemoServer> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'server/src/cli/server.ts'), '--port', '0', '--log-level', 'warn'],
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
