/**
 * npm run server -- --db FILE --port P --host 127.0.0.1 [--dialect sample|typed] [--token-ttl-minutes M]
 *   [--allowed-host NAME]... [--spec-only]
 *
 * With no --db: creates (on first run) and serves the demo database under data/, and prints the demo
 * accounts. Port 0 picks a free port; the URL is printed either way.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Dialect } from '../../../shared/api/index.ts';
import { DEMO_ACCOUNTS } from '../auth/demo-accounts.ts';
import { buildDemoDatabase } from '../data/demo/build-demo.ts';
import { DatabaseError, hasCurrentSchema } from '../db/open.ts';
import { hostName } from '../http/host-check.ts';
import { serve } from '../server.ts';

const USAGE =
  'usage: npm run server -- [--db FILE] [--port P] [--host 127.0.0.1] [--dialect sample|typed] ' +
  '[--token-ttl-minutes M] [--allowed-host NAME]... [--log-level info|warn|error|silent] [--demo-manifests N] ' +
  '[--spec-only]';

export const DEMO_DATABASE = resolve(import.meta.dirname, '../../../data/demo.db');
const DEMO_MANIFESTS = 50_000;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function positiveInteger(
  text: string | undefined,
  name: string,
  fallback: number,
  allowZero = false,
): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    fail(`--${name} must be a${allowZero ? ' non-negative' : ' positive'} integer, got "${text}"`);
  }
  return value;
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      options: {
        db: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        dialect: { type: 'string', default: 'sample' },
        'token-ttl-minutes': { type: 'string' },
        'allowed-host': { type: 'string', multiple: true },
        'log-level': { type: 'string', default: 'info' },
        'demo-manifests': { type: 'string' },
        'spec-only': { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const dialect = Dialect.safeParse(args.dialect);
  if (!dialect.success) fail(`--dialect must be sample or typed, got "${args.dialect}"`);
  const logLevel = args['log-level'];
  if (logLevel !== 'info' && logLevel !== 'warn' && logLevel !== 'error' && logLevel !== 'silent') {
    fail(`--log-level must be info, warn, error or silent, got "${logLevel}"`);
  }
  const port = positiveInteger(args.port, 'port', 4010, true);
  if (port > 65535) fail(`--port must be at most 65535, got ${port}`);
  const ttlMinutes = args['token-ttl-minutes'];
  const allowedHosts = args['allowed-host'] ?? [];
  for (const name of allowedHosts) {
    if (hostName(name) !== name.toLowerCase() || name.startsWith('[')) {
      fail(
        `--allowed-host takes a host name without port or scheme, e.g. tracker.example.org; got "${name}"`,
      );
    }
  }

  let db = args.db;
  if (db === undefined) {
    db = DEMO_DATABASE;
    const stale = existsSync(db) && !hasCurrentSchema(db);
    if (stale)
      console.error(`The demo database ${db} is from an older version of this server; rebuilding it.`);
    if (!existsSync(db) || stale) {
      const manifests = positiveInteger(args['demo-manifests'], 'demo-manifests', DEMO_MANIFESTS);
      console.error(`Creating the demo database ${db} (${manifests.toLocaleString('en-US')} manifests)…`);
      mkdirSync(resolve(db, '..'), { recursive: true });
      await buildDemoDatabase(db, { manifests, seed: 1, force: stale });
    }
    console.error('Demo accounts (demo data only, never for a real deployment):');
    for (const account of DEMO_ACCOUNTS) {
      console.error(`  ${account.username} / ${account.password}  (${account.scopes.join(', ')})`);
    }
  }

  const server = await serve({
    db,
    host: args.host,
    port,
    dialect: dialect.data,
    tokenTtlMs:
      ttlMinutes === undefined ? undefined : positiveInteger(ttlMinutes, 'token-ttl-minutes', 480) * 60_000,
    allowedHosts,
    logLevel,
    specOnly: args['spec-only'],
  });
  const mode = args['spec-only'] ? ', spec only: no lookups or sign-in details beyond the spec' : '';
  console.error(`Tracker API (${dialect.data} dialect${mode}) on ${server.origin}/api/tracker/`);
  console.log(server.origin);
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (error instanceof DatabaseError) fail(error.message);
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
