/**
 * npm run server -- --db FILE|postgres://… --port P --host 127.0.0.1 [--dialect sample|typed]
 *   [--token-ttl-minutes M] [--allowed-host NAME]... [--spec-only] [--workers N]
 *
 * --db names a SQLite file or a PostgreSQL database (postgres://user:password@host:port/name); without it,
 * TRACKER_DATABASE_URL when set, else the demo database under data/, created on first run, whose demo
 * accounts are printed. Port 0 picks a free port; the URL is printed either way. --workers N (PostgreSQL
 * only) serves from N processes on one port (workers.ts).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Dialect } from '../../../shared/api/index.ts';
import { DEMO_ACCOUNTS } from '../auth/demo-accounts.ts';
import { MAX_DEMO_MANIFESTS } from '../data/demo/demo-size.ts';
import { hostName } from '../http/host-check.ts';
import { isPostgresUrl } from '../postgres/pg-url.ts';
import { DatabaseError } from '../db/database-error.ts';
import { isWorker, reportListening, startWorkers } from './workers.ts';
import { passwordCostProblem } from '../auth/passwords.ts';
import { readArguments, refuse, usageError } from './arguments.ts';

const USAGE =
  'usage: npm run server -- [--db FILE|postgres://…] [--workers N] [--port P] [--host 127.0.0.1] [--dialect sample|typed] ' +
  '[--token-ttl-minutes M] [--allowed-host NAME]... [--log-level info|warn|error|silent] [--demo-manifests N] ' +
  '[--spec-only]';

export const DEMO_DATABASE = resolve(import.meta.dirname, '../../../data/demo.db');
const DEMO_MANIFESTS = 50_000;

const fail: (message: string) => never = usageError(USAGE);

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
  const args = readArguments(USAGE, {
    db: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    dialect: { type: 'string', default: 'sample' },
    'token-ttl-minutes': { type: 'string' },
    'allowed-host': { type: 'string', multiple: true },
    'log-level': { type: 'string', default: 'info' },
    'demo-manifests': { type: 'string' },
    'spec-only': { type: 'boolean', default: false },
    workers: { type: 'string' },
  })?.values;
  if (!args) return;
  const costProblem = passwordCostProblem();
  if (costProblem !== undefined) fail(costProblem);
  const dialect = Dialect.safeParse(args.dialect);
  if (!dialect.success) fail(`--dialect must be sample or typed, got "${args.dialect}"`);
  const logLevel = args['log-level'];
  if (logLevel !== 'info' && logLevel !== 'warn' && logLevel !== 'error' && logLevel !== 'silent') {
    fail(`--log-level must be info, warn, error or silent, got "${logLevel}"`);
  }
  const port = positiveInteger(args.port, 'port', 4010, true);
  if (port > 65535) fail(`--port must be at most 65535, got ${port}`);
  const ttlMinutes = args['token-ttl-minutes'];
  const tokenTtlMs =
    ttlMinutes === undefined ? undefined : positiveInteger(ttlMinutes, 'token-ttl-minutes', 480) * 60_000;
  const demoManifests = positiveInteger(args['demo-manifests'], 'demo-manifests', DEMO_MANIFESTS);
  if (demoManifests > MAX_DEMO_MANIFESTS) {
    fail(`--demo-manifests must be at most ${MAX_DEMO_MANIFESTS}, got ${demoManifests}`);
  }
  const allowedHosts = args['allowed-host'] ?? [];
  for (const name of allowedHosts) {
    if (hostName(name) !== name.toLowerCase() || name.startsWith('[')) {
      fail(
        `--allowed-host takes a host name without port or scheme, e.g. tracker.example.org; got "${name}"`,
      );
    }
  }

  const workers = positiveInteger(args.workers, 'workers', 1);
  let db = args.db ?? (process.env.TRACKER_DATABASE_URL || undefined);
  if (workers > 1 && (db === undefined || !isPostgresUrl(db))) {
    fail(
      '--workers needs a PostgreSQL database (--db postgres://… or TRACKER_DATABASE_URL): the processes share ' +
        'its tokens and sign-in throttle',
    );
  }
  if (workers > 1 && !isWorker()) {
    const origin = await startWorkers(workers);
    console.error(`Tracker API from ${workers} processes on ${origin}/api/tracker/`);
    console.log(origin);
    return;
  }
  // The server and the database clients load once the arguments are accepted: a refusal is told at once.
  const [{ serve }, { hasCurrentSchema }] = await Promise.all([
    import('../server.ts'),
    import('../db/open.ts'),
  ]);
  if (db === undefined) {
    db = DEMO_DATABASE;
    const stale = existsSync(db) && !hasCurrentSchema(db);
    if (stale)
      console.error(`The demo database ${db} is from an older version of this server; rebuilding it.`);
    if (!existsSync(db) || stale) {
      console.error(`Creating the demo database ${db} (${demoManifests.toLocaleString('en-US')} manifests)…`);
      mkdirSync(resolve(db, '..'), { recursive: true });
      const { buildDemoDatabase } = await import('../data/demo/build-demo.ts');
      await buildDemoDatabase(db, { manifests: demoManifests, seed: 1, force: stale });
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
    tokenTtlMs,
    allowedHosts,
    logLevel,
    specOnly: args['spec-only'],
  });
  const mode = args['spec-only'] ? ', spec only: no lookups or sign-in details beyond the spec' : '';
  if (isWorker()) reportListening(server.origin);
  else {
    console.error(`Tracker API (${dialect.data} dialect${mode}) on ${server.origin}/api/tracker/`);
    console.log(server.origin);
  }
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
  if (error instanceof DatabaseError) refuse(error.message);
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
