/**
 * npm run bench:server -- --db postgres://… [--manifests N] [--requests R] [--only PATTERN] [--part PART]...
 *
 * The tracker API on PostgreSQL over the same national-scale dataset as SQLite's bench (data/bench-1m.db,
 * built on first use, loaded into the database when it is empty: the load's time is reported), for the
 * requests bench:server times on SQLite (bench/server-cases.ts). Per request, in the same run:
 * - "HTTP": R sequential requests to `npm run server -- --db postgres://…` in its own process;
 * - "client alone": the statements that request sends on a warm process (captured from the store in this
 *   process at its second asking), run R times with the client and nothing else, as the store runs them (a
 *   page and its count at once): the psql-level time of the query;
 * - "count, first request": a list's count statement alone, where the process keeps the count for the data
 *   version (pg-reads.ts `countOf`) and a warm request does not send it: what a filter's first page adds;
 * - SQLite's HTTP p50 for the same row, read from the SQLite part of docs/benchmarks/server.md.
 * Then throughput of the app's manifests page at 10 connections: one server process against `--workers 2`
 * (bench/server-workers.ts).
 * Writes its section of docs/benchmarks/server.md (between the postgres markers), leaving SQLite's, after a
 * full run; `--only` (requests whose group and name match) and `--part rows|throughput` only print.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { buildApp } from '../server/src/app.ts';
import { openDatabase } from '../server/src/db/open.ts';
import { isEmpty, loadIntoPostgres } from '../server/src/postgres/pg-load.ts';
import { migrateOrRefuse, openPostgresStore, connect } from '../server/src/postgres/pg-store.ts';
import { redactUrl } from '../server/src/postgres/pg-url.ts';
import { DEMO_USERS } from '../test/helpers/demo-users.ts';
import { benchCases, type Case } from './server-cases.ts';
import {
  CONNECTIONS,
  SECONDS,
  WARM_UP_SECONDS,
  describeRun,
  measureLoad,
  type LoadRun,
} from './server-workers.ts';
import { benchDatabasePath, ensureBenchDatabase, startPrintingOrigin } from './tracker-server.ts';

const root = resolve(import.meta.dirname, '..');
const REPORT = resolve(root, 'docs/benchmarks/server.md');
export const POSTGRES_START = '<!-- postgres:start -->';
export const POSTGRES_END = '<!-- postgres:end -->';

/** The PostgreSQL section of a report, markers included, or '' when it has none. */
export function postgresSection(report: string): string {
  const start = report.indexOf(POSTGRES_START);
  const end = report.indexOf(POSTGRES_END);
  return start >= 0 && end > start ? report.slice(start, end + POSTGRES_END.length) : '';
}

/** The issue's targets on PostgreSQL, by the kind of request. */
function targetOf(item: Case): string {
  if (/aggregated_data/.test(item.path))
    return /searchKey|search/.test(item.name) ? 'p50 ≤ 100' : 'p50 ≤ 100';
  // A search row is named by its key and match count; its group says it is a search.
  if (item.group === 'searchKey') return 'p50 ≤ 50';
  return 'p50 ≤ 10, p99 ≤ 50';
}

function meets(target: string, p50: number, p99: number): boolean {
  return [...target.matchAll(/p(50|99) ≤ (\d+)/g)].every(
    ([, which, limit]) => (which === '50' ? p50 : p99) <= Number(limit),
  );
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

function summary(times: number[]): { p50: number; p99: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

async function send(
  origin: string,
  item: Pick<Case, 'method' | 'path' | 'body'>,
  token: string,
): Promise<string> {
  const response = await fetch(`${origin}${item.path}`, {
    method: item.method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(item.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(item.body === undefined ? {} : { body: JSON.stringify(item.body) }),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`${item.path} answered ${response.status}: ${text.slice(0, 200)}`);
  return text;
}

async function signIn(origin: string): Promise<string> {
  const response = await fetch(`${origin}/api/tracker/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_USERS.inspector),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** SQLite's HTTP p50 by "group|name", from the SQLite part of the report. */
function sqliteRows(report: string): Map<string, string> {
  const rows = new Map<string, string>();
  let group = '';
  for (const line of report
    .slice(0, report.indexOf(POSTGRES_START) >= 0 ? report.indexOf(POSTGRES_START) : undefined)
    .split('\n')) {
    const heading = /^\| \*\*(.+)\*\* \|/.exec(line);
    if (heading?.[1]) group = heading[1];
    else if (line.startsWith('| ') && group) {
      const cells = line.split('|').map((cell) => cell.trim());
      if (cells[1] && cells[2]) rows.set(`${group}|${cells[1]}`, cells[2]);
    }
  }
  return rows;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/** What a run times: every row and the throughput (and then it writes the report), or some of them. */
export interface PostgresRun {
  url: string;
  manifests: number;
  requests: number;
  /** Only the rows whose "group name" matches. */
  only: RegExp | undefined;
  rows: boolean;
  throughput: boolean;
}

/** The count statement of a list request, where its process reads one. */
const COUNT_STATEMENT = /^SELECT count\(\*\)/;

export async function benchPostgres(run: PostgresRun): Promise<void> {
  const { url, manifests, requests } = run;
  const fullRun = run.only === undefined && run.rows && run.throughput;
  const loadAtStart = loadavg();
  const dbPath = benchDatabasePath(manifests);
  await ensureBenchDatabase(dbPath, manifests);
  let loadLine = 'The database already held the dataset (not loaded in this run).';
  // Two connections: the load's index build runs its trigram indexes beside the others (pg-finalize.ts).
  const admin = await connect(url, { max: 2 });
  try {
    await migrateOrRefuse(admin, url);
    if (await isEmpty(admin)) {
      console.error(`Loading ${dbPath} into ${redactUrl(url)}…`);
      const started = performance.now();
      await loadIntoPostgres(dbPath, admin, (step, seconds) =>
        console.error(`  ${step.slice(0, 80)} ${seconds.toFixed(1)} s`),
      );
      const seconds = (performance.now() - started) / 1000;
      loadLine = `Loading the dataset into the empty database (COPY, then the indexes, then ANALYZE): ${seconds.toFixed(0)} s (target ≤ 300 s).`;
    }
    // The load's pages written out now rather than by a checkpoint in the middle of the timed requests
    // (gigabytes of writes that held up whichever rows they met). Only a superuser or a member of
    // pg_checkpoint may ask; otherwise the timings are taken as the server's own checkpoints fall.
    await admin`CHECKPOINT`.catch((error: unknown) =>
      console.error(`No CHECKPOINT before timing: ${error instanceof Error ? error.message : String(error)}`),
    );
  } finally {
    await admin.end();
  }

  const db = openDatabase(dbPath);
  const all = benchCases(db);
  db.close();
  const cases = all.cases.filter(
    (item) => run.rows && (!run.only || run.only.test(`${item.group} ${item.name}`)),
  );
  const load = run.throughput ? all.load : [];

  // The statements each request sends, captured once from the store in this process.
  let captured: { query: string; parameters: unknown[] }[] = [];
  const store = await openPostgresStore(url, {
    debug: (_connection, query, parameters) => captured.push({ query, parameters }),
  });
  // Warmed as a server process is at start, so that what it reads once per data version (the generators'
  // matches, in a transaction of their own) is not taken for a request's statements.
  await store.warm();
  await store.matchesReady();
  const app = buildApp({ store, warm: false });
  const login = await app.inject({
    method: 'POST',
    url: '/api/tracker/auth/login/',
    payload: DEMO_USERS.inspector,
  });
  const injectedToken = login.json<{ access_token: string }>().access_token;

  const server = await startPrintingOrigin(
    [resolve(root, 'server/src/cli/server.ts'), '--db', url, '--port', '0', '--log-level', 'silent'],
    120_000,
  );
  const rows: string[] = [];
  let met = 0;
  const sqlite = sqliteRows(readFileSync(REPORT, 'utf8'));
  try {
    const token = await signIn(server.origin);
    // Every request once before any is timed: the server starts reading the generators' filter matches at
    // start without waiting for them (seconds over 100,000 generators), and the first rows timed would
    // otherwise share the machine with that read.
    for (const item of cases) await send(server.origin, item, token);
    let group = '';
    for (const item of cases) {
      const inject = () =>
        app.inject({
          method: item.method,
          url: item.path,
          headers: {
            authorization: `Bearer ${injectedToken}`,
            ...(item.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(item.body === undefined ? {} : { payload: JSON.stringify(item.body) }),
        });
      // Captured from the second of two requests: what a warm process sends for it. The first reads what is
      // kept once per data version (an unfiltered count, a lookup list, bookmarks), which the HTTP server,
      // warmed the same way below, does not read again either; replayed as if every request read it, it
      // made the column, and a run, many times longer.
      captured = [];
      await inject();
      const counts = captured.filter(({ query }) => COUNT_STATEMENT.test(query));
      captured = [];
      await inject();
      const statements = captured.filter(({ query }) => !/data_version|FROM tokens|FROM users/.test(query));
      // The count a list keeps, where the first request read it and the second did not.
      const kept = counts.filter(({ query }) => !statements.some((statement) => statement.query === query));
      for (let warm = 0; warm < 3; warm += 1) await send(server.origin, item, token);
      const http: number[] = [];
      for (let index = 0; index < requests; index += 1) {
        const started = performance.now();
        await send(server.origin, item, token);
        http.push(performance.now() - started);
      }
      const alone: number[] = [];
      for (let index = 0; index < requests; index += 1) {
        const started = performance.now();
        await Promise.all(
          statements.map(({ query, parameters }) =>
            store.sql.unsafe(query, parameters as never[], { prepare: true }),
          ),
        );
        alone.push(performance.now() - started);
      }
      const counting: number[] = [];
      for (let index = 0; index < (kept.length > 0 ? requests : 0); index += 1) {
        const started = performance.now();
        await Promise.all(
          kept.map(({ query, parameters }) =>
            store.sql.unsafe(query, parameters as never[], { prepare: true }),
          ),
        );
        counting.push(performance.now() - started);
      }
      const h = summary(http);
      const a = summary(alone);
      const c = counting.length > 0 ? summary(counting).p50.toFixed(2) : '–';
      const target = targetOf(item);
      const ok = meets(target, h.p50, h.p99);
      if (ok) met += 1;
      if (item.group !== group) {
        group = item.group;
        rows.push(`| **${group}** | | | | | | | | |`);
      }
      rows.push(
        `| ${item.name} | ${h.p50.toFixed(2)} | ${h.p99.toFixed(2)} | ${a.p50.toFixed(2)} | ${a.p99.toFixed(2)} | ${c} | ${
          sqlite.get(`${item.group}|${item.name}`) ?? '–'
        } | ${target} | ${ok ? 'yes' : 'no'} |`,
      );
      console.log(rows.at(-1));
    }
  } finally {
    await stop(server.child);
  }

  const page = load[0];
  let throughput = 'not measured (no load case)';
  if (page) {
    const run = async (workers: number): Promise<LoadRun> => {
      const started = await startPrintingOrigin(
        [
          resolve(root, 'server/src/cli/server.ts'),
          ...['--db', url, '--port', '0', '--log-level', 'silent'],
          ...(workers > 1 ? ['--workers', String(workers)] : []),
        ],
        120_000,
      );
      try {
        const { pid } = started.child;
        if (pid === undefined) throw new Error('the server has no process id');
        return await measureLoad(
          { url: `${started.origin}${page.path}`, body: page.body, token: await signIn(started.origin), pid },
          store.sql,
        );
      } finally {
        await stop(started.child);
      }
    };
    const one = await run(1);
    const two = await run(2);
    throughput = `${page.name}, ${CONNECTIONS} connections for ${SECONDS} s from autocannon in its own process, after a ${WARM_UP_SECONDS} s warm-up run, the same for both:

- one process: ${describeRun(one)};
- \`--workers 2\`: ${describeRun(two)};

**${(two.perSecond / one.perSecond).toFixed(2)}×** (target ≥ 1.5×). Nothing in the server serialises the workers: a
request reads the data version, checks its token (a read: nothing is written per request) and reads its page
and count, each process with its own pool of 8 connections and no lock shared. What limits the ratio is the
CPU: the server, PostgreSQL and the load generator share the machine's ${availableParallelism()} cores with other
work, which were busy with one process already, and two workers spend more server CPU per answer than one
(two heaps and two compiled copies of the request's path in the same caches). On this machine the ratio says
what the cores left free allow, not what a second process adds where it has a core of its own.`;
    console.log(throughput);
  }
  await app.close();
  await store.close();
  if (!fullRun) return;

  const loadAtEnd = loadavg();
  const section = `${POSTGRES_START}
## On PostgreSQL

\`npm run bench:server -- --db postgres://…\` on ${new Date().toISOString().slice(0, 10)}, PostgreSQL over loopback, the same
dataset (\`${dbPath.slice(root.length + 1)}\` loaded into it). ${loadLine}
Load average (1, 5, 15 min) on this machine's ${availableParallelism()} cores, shared with other work: ${loadAtStart.map((value) => value.toFixed(2)).join(', ')} at the start, ${loadAtEnd.map((value) => value.toFixed(2)).join(', ')} at the end.

Each row: ${requests} sequential requests over HTTP to \`npm run server -- --db postgres://…\` ("HTTP"; after a
CHECKPOINT, every request sent once, and each row's own 3 warm-up requests), and the
statements that request sends once its process is warm, run ${requests} times with the client alone as the
store runs them ("client alone": the psql-level time of the query, no HTTP, no server; 0.00 where the answer
is kept in memory for the data version); "count, first request": the list's count statement alone, client
alone p50, where the server keeps a filtered or searched list's count for the data version (the grid asks for it
with every page; \`countOf\` in server/src/postgres/pg-reads.ts), so that the rows time a filter paged through
and a filter's first page takes about this much longer; "SQLite HTTP p50" is the same row of the
SQLite table above. Targets (issue 22): lists, lookups and details p50 ≤ 10, p99 ≤ 50; search p50 ≤ 50;
aggregates p50 ≤ 100. Times in milliseconds. ${met} of ${cases.length} rows meet their targets.

| request | HTTP p50 | HTTP p99 | client alone p50 | client alone p99 | count, first request | SQLite HTTP p50 | target | met |
|---|---:|---:|---:|---:|---:|---:|---|---|
${rows.join('\n')}

Throughput: ${throughput}
${POSTGRES_END}`;
  const report = readFileSync(REPORT, 'utf8');
  const existing = postgresSection(report);
  writeFileSync(REPORT, existing ? report.replace(existing, section) : `${report.trimEnd()}\n\n${section}\n`);
  console.log('wrote the PostgreSQL section of docs/benchmarks/server.md');
}
