/**
 * The benchmarks' tracker server: the national-scale demo dataset, built on first use, served by the real
 * server CLI in its own process, so what a benchmark does in its own process (load generation, a browser
 * bridge) does not share the server's event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { buildDemoDatabase } from '../server/src/data/demo/build-demo.ts';
import { hasCurrentSchema } from '../server/src/db/open.ts';

const root = resolve(import.meta.dirname, '..');

/** data/bench-1m.db for 1,000,000 manifests: one file per dataset size, gitignored with data/. */
export function benchDatabasePath(manifests: number): string {
  return resolve(root, `data/bench-${manifests / 1_000_000}m.db`);
}

/**
 * Builds the dataset into `dbPath` unless a file of the current schema is already there (a 1M build takes
 * minutes); one from an older schema is rebuilt, as the server does with its demo database.
 */
export async function ensureBenchDatabase(dbPath: string, manifests: number): Promise<void> {
  const stale = existsSync(dbPath) && !hasCurrentSchema(dbPath);
  if (existsSync(dbPath) && !stale) return;
  console.error(
    `${stale ? 'Rebuilding (older schema)' : 'Building'} ${dbPath} (${manifests.toLocaleString('en-US')} manifests)…`,
  );
  mkdirSync(resolve(dbPath, '..'), { recursive: true });
  await buildDemoDatabase(dbPath, { manifests, seed: 1, force: stale });
}

/**
 * Starts `npm run server` on `dbPath` with a free loopback port and resolves with its origin once it prints
 * it. With `timeoutMs`, a server that has not printed its origin by then is stopped and the start fails.
 */
export async function startServerProcess(
  dbPath: string,
  options: { timeoutMs?: number } = {},
): Promise<{ origin: string; child: ChildProcess }> {
  return startPrintingOrigin(
    [resolve(root, 'server/src/cli/server.ts'), '--db', dbPath, '--port', '0', '--log-level', 'silent'],
    options.timeoutMs,
  );
}

/**
 * Runs a Node script that prints its origin (a line starting with http://; bench/paired-servers.ts prints
 * two on that line) and then serves. What it writes after that (request logs) is read and dropped.
 */
export async function startPrintingOrigin(
  args: string[],
  timeoutMs?: number,
): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const { stdout } = child;
  if (!stdout) throw new Error('the server has no output');
  const lines = createInterface({ input: stdout });
  let timedOut = false;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          child.kill('SIGTERM');
          lines.close();
        }, timeoutMs);
  let origin: string | undefined;
  try {
    for await (const line of lines) {
      if (line.startsWith('http://')) {
        origin = line.trim();
        break;
      }
    }
  } finally {
    clearTimeout(timer);
  }
  if (origin !== undefined) {
    // Leaving the loop closed the reader and paused the pipe: keep draining what follows (request logs), so
    // the server never blocks on a full pipe.
    stdout.resume();
    return { origin, child };
  }
  throw new Error(
    timedOut
      ? `the server did not print its URL within ${timeoutMs} ms`
      : 'the server exited before printing its URL',
  );
}
