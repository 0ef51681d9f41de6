/** Starts the tracker API over one database (a SQLite file or a postgres:// URL): open, warm, listen. */
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Dialect } from '../../shared/api/index.ts';
import { buildApp } from './app.ts';
import { openDatabase } from './db/open.ts';
import { hostPolicyFor } from './http/host-check.ts';
import { openPostgresStore } from './postgres/pg-store.ts';
import { isPostgresUrl } from './postgres/pg-url.ts';
import type { TrackerStore } from './store/store.ts';

export interface ServeOptions {
  /** A SQLite file, or a PostgreSQL database as postgres://user:password@host:port/name. */
  db: string;
  host: string;
  port: number;
  dialect: Dialect;
  tokenTtlMs?: number;
  /** Host names answered besides loopback ones (bound to loopback) or instead of any (bound elsewhere). */
  allowedHosts?: readonly string[];
  logLevel: 'info' | 'warn' | 'error' | 'silent';
  /** Refuse every addition to the spec (app.ts `specOnly`). */
  specOnly?: boolean;
}

export interface RunningServer {
  app: FastifyInstance;
  /** e.g. http://127.0.0.1:4010 */
  origin: string;
  close(): Promise<void>;
}

export async function serve(options: ServeOptions): Promise<RunningServer> {
  let store: TrackerStore | undefined;
  let file: ReturnType<typeof openDatabase> | undefined;
  if (isPostgresUrl(options.db)) store = await openPostgresStore(options.db);
  else file = openDatabase(options.db);
  const log = options.logLevel === 'silent' ? undefined : batchedStdout();
  const app = buildApp({
    store,
    db: file,
    dialect: options.dialect,
    tokenTtlMs: options.tokenTtlMs,
    hosts: hostPolicyFor(options.host, options.allowedHosts ?? []),
    specOnly: options.specOnly ?? false,
    logger: log && {
      level: options.logLevel,
      redact: ['req.headers.authorization', 'body.password'],
      stream: log.destination,
    },
  });
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await app.close();
    await store?.close();
    file?.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    app,
    origin: `http://${host}:${port}`,
    async close() {
      await app.close();
      await log?.close();
      await store?.close();
      file?.close();
    },
  };
}

/** How long a log line may wait in the batch before it is written. */
const LOG_FLUSH_MS = 1000;

/**
 * Standard output for the log, written in batches of up to 8 KB, off the request path and at most
 * LOG_FLUSH_MS late: a line per request written straight to a pipe costs more than a small query.
 * pino flushes what is left when the process exits.
 */
function batchedStdout() {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 8 * 1024 });
  const timer = setInterval(() => destination.flush(), LOG_FLUSH_MS).unref();
  return {
    destination,
    close: () =>
      new Promise<void>((done) => {
        clearInterval(timer);
        destination.flush(() => done());
      }),
  };
}
