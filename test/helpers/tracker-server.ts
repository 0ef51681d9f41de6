/**
 * A real tracker API server for tests: a demo database built by the generator in a temp dir (and, with
 * TRACKER_TEST_BACKEND=postgres, loaded into a throwaway PostgreSQL database that the server then serves
 * instead: one suite, two backends), served over real HTTP on 127.0.0.1 with a free port, or with `socket: false` answered through Fastify's `inject()`,
 * the whole request pipeline without a socket, for the route tests that need none (the connection limits,
 * the Host check, the read pool and every client in another process keep a real socket). `send` calls
 * either the same way, by the server's base URL.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { Sql } from 'postgres';
import type { Dialect } from '../../shared/api/index.ts';
import { buildApp, type AppOptions } from '../../server/src/app.ts';
import type { ThrottleOptions } from '../../server/src/auth/throttle.ts';
import { buildDemoDatabase } from '../../server/src/data/demo/build-demo.ts';
import { addUser } from '../../server/src/auth/users.ts';
import { openDatabase } from '../../server/src/db/open.ts';
import { pgUsers } from '../../server/src/postgres/pg-accounts.ts';
import { openPostgresStore } from '../../server/src/postgres/pg-store.ts';
import type { TrackerStore } from '../../server/src/store/store.ts';
import type { Scope } from '../../shared/api/index.ts';
import { DEMO_USERS } from './demo-users.ts';
import { TEST_BACKEND, createTestDatabase } from './postgres-database.ts';

export interface TrackerServerOptions {
  /** Manifests in the demo dataset; default 3,000. */
  manifests?: number;
  seed?: number;
  dialect?: Dialect;
  tokenTtlMs?: number;
  throttle?: ThrottleOptions;
  /** Serve this database file instead of building one. */
  dbPath?: string;
  /**
   * With TRACKER_TEST_BACKEND=postgres: serve this PostgreSQL database as it is (the caller made it and
   * drops it) instead of loading `dbPath` into a new one.
   */
  databaseUrl?: string;
  /** False: no socket, requests are injected (`send`); the base URL is then a name no network knows. */
  socket?: boolean;
  /** Refuse every addition to the spec, as a server that implements only the spec would. */
  specOnly?: boolean;
}

export interface TrackerServer {
  /** e.g. http://127.0.0.1:41234, or inject://tracker-1 without a socket — the API lives under /api/tracker/. */
  baseUrl: string;
  /** The database file the data was built in: what the server serves on SQLite, the truth on both. */
  dbPath: string;
  db: Database;
  app: FastifyInstance;
  backend: 'sqlite' | 'postgres';
  /** What another app over the same data is built from: buildApp({ ...server.source, … }). */
  source: Pick<AppOptions, 'store' | 'db'>;
  /** The served PostgreSQL database's URL (backend postgres). */
  databaseUrl?: string;
  /** Adds an account (`npm run users add`) to the database the server serves. */
  addUser(
    username: string,
    password: string,
    scopes: Scope[],
    options?: Parameters<typeof addUser>[4],
  ): Promise<void>;
  /** Cuts the server off from its database, so every read fails (a test of the 500 answer). */
  breakDatabase(): Promise<void>;
  /** Rows of a query over the database the server serves (`?`-free SQL both backends read). */
  storedRows(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/**
 * Demo databases this process built, by size and seed, in a folder removed when it exits: a test gets a
 * copy, so every copy of one is the same file to the byte, which lets a PostgreSQL test database loaded
 * from one be copied from the first (postgres-database.ts) instead of loaded again.
 */
const demoBuilds = new Map<string, Promise<string>>();
let builtDir: string | undefined;

function demoDatabase(manifests: number, seed: number): Promise<string> {
  const key = `${manifests}-${seed}`;
  let path = demoBuilds.get(key);
  if (!path) {
    if (!builtDir) {
      const dir = mkdtempSync(join(tmpdir(), 'tracker-test-built-'));
      process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
      builtDir = dir;
    }
    const file = join(builtDir, `${key}.db`);
    path = buildDemoDatabase(file, { manifests, seed }).then(
      () => file,
      (error: unknown) => {
        demoBuilds.delete(key);
        throw error;
      },
    );
    demoBuilds.set(key, path);
  }
  return path;
}

/** A demo database in a new temp dir, the caller's to change; the caller removes `dir` when done. */
export async function buildTestDatabase(manifests = 3000, seed = 7): Promise<{ dir: string; path: string }> {
  const original = await demoDatabase(manifests, seed);
  const dir = mkdtempSync(join(tmpdir(), 'tracker-test-'));
  const path = join(dir, 'tracker.db');
  copyFileSync(original, path);
  return { dir, path };
}

export async function startTrackerServer(options: TrackerServerOptions = {}): Promise<TrackerServer> {
  const built = options.dbPath ? undefined : await buildTestDatabase(options.manifests, options.seed);
  const dbPath = options.dbPath ?? built?.path ?? '';
  const db = openDatabase(dbPath);
  const served =
    TEST_BACKEND === 'postgres' && !options.databaseUrl ? await createTestDatabase(dbPath) : undefined;
  const databaseUrl = TEST_BACKEND === 'postgres' ? (options.databaseUrl ?? served?.url) : undefined;
  const store: (TrackerStore & { sql: Sql }) | undefined =
    databaseUrl === undefined ? undefined : await openPostgresStore(databaseUrl);
  const app = buildApp({
    ...(store ? { store } : { db }),
    dialect: options.dialect ?? 'sample',
    tokenTtlMs: options.tokenTtlMs,
    throttle: options.throttle,
    specOnly: options.specOnly ?? false,
  });
  let baseUrl: string;
  if (options.socket === false) {
    await app.ready();
    injected += 1;
    baseUrl = `inject://tracker-${injected}`;
    INJECTED.set(baseUrl, app);
  } else {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('the test server has no port');
    baseUrl = `http://127.0.0.1:${address.port}`;
  }
  return {
    baseUrl,
    dbPath,
    db,
    app,
    backend: TEST_BACKEND,
    source: store ? { store } : { db },
    databaseUrl,
    async addUser(username, password, scopes, userOptions) {
      if (store) await pgUsers.add(store.sql, username, password, scopes, userOptions);
      else await addUser(db, username, password, scopes, userOptions);
    },
    async breakDatabase() {
      if (store) await store.sql.end();
      else db.close();
    },
    async storedRows(sql) {
      if (store) return (await store.sql.unsafe(sql)).map((row) => ({ ...row }));
      return db.prepare(sql).all() as Record<string, unknown>[];
    },
    async close() {
      INJECTED.delete(baseUrl);
      await app.close();
      await store?.close();
      await served?.drop();
      db.close();
      if (built) rmSync(built.dir, { recursive: true, force: true });
    },
  };
}

/** The servers without a socket, by base URL. */
const INJECTED = new Map<string, FastifyInstance>();
let injected = 0;

/** One request as `send` makes it. */
export interface SendInit {
  method: string;
  headers?: Record<string, string>;
  body?: string;
}

/** An answer as `send` reads it. */
export interface SentAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * `path` (with its query) on the server at `baseUrl`: injected into a server started without a socket, else
 * fetched over HTTP.
 */
export async function send(baseUrl: string, path: string, init: SendInit): Promise<SentAnswer> {
  const app = INJECTED.get(baseUrl);
  if (!app) {
    const response = await fetch(`${baseUrl}${path}`, init);
    return { status: response.status, headers: response.headers, text: await response.text() };
  }
  const response = await app.inject({
    method: init.method as 'GET',
    url: path,
    headers: init.headers ?? {},
    ...(init.body === undefined ? {} : { payload: init.body }),
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, String(one));
  }
  return { status: response.statusCode, headers, text: response.body };
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
