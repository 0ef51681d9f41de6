/**
 * A real tracker API server for tests: a demo database built by the generator in a temp dir, served over
 * real HTTP on 127.0.0.1 with a free port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { Dialect } from '../../shared/api/index.ts';
import { buildApp } from '../../server/src/app.ts';
import type { ThrottleOptions } from '../../server/src/auth/throttle.ts';
import { buildDemoDatabase } from '../../server/src/data/demo/build-demo.ts';
import { openDatabase } from '../../server/src/db/open.ts';
import { DEMO_USERS } from './demo-users.ts';

export interface TrackerServerOptions {
  /** Manifests in the demo dataset; default 3,000. */
  manifests?: number;
  seed?: number;
  dialect?: Dialect;
  tokenTtlMs?: number;
  throttle?: ThrottleOptions;
  /** Serve this database file instead of building one. */
  dbPath?: string;
  /** Refuse every addition to the spec, as a server that implements only the spec would. */
  specOnly?: boolean;
}

export interface TrackerServer {
  /** e.g. http://127.0.0.1:41234 — the API lives under /api/tracker/. */
  baseUrl: string;
  dbPath: string;
  db: Database;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Builds a demo database in a new temp dir; the caller removes `dir` when done. */
export async function buildTestDatabase(manifests = 3000, seed = 7): Promise<{ dir: string; path: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'tracker-test-'));
  const path = join(dir, 'tracker.db');
  await buildDemoDatabase(path, { manifests, seed });
  return { dir, path };
}

export async function startTrackerServer(options: TrackerServerOptions = {}): Promise<TrackerServer> {
  const built = options.dbPath ? undefined : await buildTestDatabase(options.manifests, options.seed);
  const dbPath = options.dbPath ?? built?.path ?? '';
  const db = openDatabase(dbPath);
  const app = buildApp({
    db,
    dialect: options.dialect ?? 'sample',
    tokenTtlMs: options.tokenTtlMs,
    throttle: options.throttle,
    specOnly: options.specOnly ?? false,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the test server has no port');
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    dbPath,
    db,
    app,
    async close() {
      await app.close();
      db.close();
      if (built) rmSync(built.dir, { recursive: true, force: true });
    },
  };
}

/** Signs in over HTTP and returns the bearer token. */
export async function signIn(
  baseUrl: string,
  username = DEMO_USERS.inspector.username,
  password = DEMO_USERS.inspector.password,
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/tracker/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in as ${username} answered ${response.status}`);
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}
