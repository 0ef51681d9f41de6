/** Starts the tracker API over one database file: open, warm, listen. */
import type { FastifyInstance } from 'fastify';
import type { Dialect } from '../../shared/api/index.ts';
import { buildApp } from './app.ts';
import { openDatabase } from './db/open.ts';

export interface ServeOptions {
  db: string;
  host: string;
  port: number;
  dialect: Dialect;
  tokenTtlMs?: number;
  logLevel: 'info' | 'warn' | 'error' | 'silent';
}

export interface RunningServer {
  app: FastifyInstance;
  /** e.g. http://127.0.0.1:4010 */
  origin: string;
  close(): Promise<void>;
}

export async function serve(options: ServeOptions): Promise<RunningServer> {
  const db = openDatabase(options.db);
  const app = buildApp({
    db,
    dialect: options.dialect,
    tokenTtlMs: options.tokenTtlMs,
    logger:
      options.logLevel === 'silent'
        ? false
        : { level: options.logLevel, redact: ['req.headers.authorization', 'body.password'] },
  });
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    app,
    origin: `http://${host}:${port}`,
    async close() {
      await app.close();
      db.close();
    },
  };
}
