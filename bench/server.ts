/**
 * npm run bench:server [-- --db FILE] [--manifests N] [--requests R] [--only PATTERN] [--part PART]...
 * npm run bench:server -- --db postgres://… [--manifests N] [--requests R]   (bench/server-postgres.ts)
 *
 * The tracker API over loopback HTTP on a national-scale dataset (default 1M manifests, built on first run
 * into data/bench-1m.db): p50 and p99 per request kind. Beside each, in the same run, the raw baselines:
 * the same request to a bare node:http server that calls the same repository query, and the same query
 * called in this process (SQLite plus row shaping, no HTTP). Then throughput at 10 connections for
 * filtered first pages (autocannon), and a first page's wait while two other clients repeat the slowest
 * search. Writes docs/benchmarks/server.md after a full run (no --only or --part).
 *
 * Both servers run in one process of their own (bench/paired-servers.ts), so the load generator does not
 * share their event loop, and the scheduler cannot favour one server over the other.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { Agent, request as httpRequest } from 'node:http';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../server/src/db/open.ts';
import { isPostgresUrl } from '../server/src/postgres/pg-url.ts';
import { benchCases, type Case } from './server-cases.ts';
import { benchPostgres, postgresSection } from './server-postgres.ts';
import { benchDatabasePath, ensureBenchDatabase, startPrintingOrigin } from './tracker-server.ts';
import { DEMO_USERS } from '../test/helpers/demo-users.ts';

const root = resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    manifests: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '200' },
    /** Time only the requests whose name matches this regular expression (the report is not written). */
    only: { type: 'string' },
    /** Run only these parts: rows, isolation, throughput (repeatable; the report is not written). */
    part: { type: 'string', multiple: true },
  },
  strict: true,
});
const manifestCount = Number(args.manifests);
const requests = Number(args.requests);
const dbPath = args.db ?? benchDatabasePath(manifestCount);
const PARTS = ['rows', 'isolation', 'throughput'] as const;
const parts = new Set(args.part ?? PARTS);
for (const part of parts) {
  if (!(PARTS as readonly string[]).includes(part)) {
    console.error(`--part must be one of ${PARTS.join(', ')}; got "${part}"`);
    process.exit(2);
  }
}
/** The report covers every row and part; a partial run only prints its lines. */
const fullRun = args.only === undefined && parts.size === PARTS.length;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function timeMs(run: () => unknown, count: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return times;
}

/** Reads a target such as "p50 ≤ 5, p99 ≤ 25" and checks the measured times against it. */
function meetsTarget(target: string, p50: number, p99: number): boolean {
  return [...target.matchAll(/p(50|99) ≤ (\d+)/g)].every(
    ([, which, limit]) => (which === '50' ? p50 : p99) <= Number(limit),
  );
}

/** Concurrent connections of the throughput part's clients. */
const CONNECTIONS = 10;
/** Seconds of each autocannon round; THROUGHPUT_ROUNDS rounds per server, taken in turn. */
const THROUGHPUT_ROUND_SECONDS = 5;
const THROUGHPUT_ROUNDS = 2;

/** One load round against one server: answers a second, latency percentiles (ms), failed requests. */
interface LoadRound {
  perSecond: number;
  p50: number;
  p99: number;
  failed: number;
}

type Load = (url: string, body: unknown, headers: Record<string, string>) => Promise<LoadRound>;

async function autocannon(url: string, body: unknown, headers: Record<string, string>): Promise<LoadRound> {
  const child = spawn(
    process.execPath,
    [
      resolve(root, 'node_modules/autocannon/autocannon.js'),
      '--connections',
      String(CONNECTIONS),
      '--duration',
      String(THROUGHPUT_ROUND_SECONDS),
      '--json',
      '--method',
      'POST',
      ...Object.entries({ ...headers, 'content-type': 'application/json' }).flatMap(([name, value]) => [
        '--headers',
        `${name}=${value}`,
      ]),
      '--body',
      JSON.stringify(body),
      url,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise((done) => child.on('exit', done));
  const result = JSON.parse(output) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  return {
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors,
  };
}

/**
 * The app's way of reading an answer under load: CONNECTIONS clients, each sending the request with fetch and
 * parsing the whole body with `response.json()` before sending the next, for THROUGHPUT_ROUND_SECONDS. Unlike
 * autocannon, which discards bodies, this client pays for every byte it is sent, as main's API client does.
 */
async function parsingThroughput(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<LoadRound> {
  const times: number[] = [];
  let failed = 0;
  const text = JSON.stringify(body);
  const started = performance.now();
  const end = started + THROUGHPUT_ROUND_SECONDS * 1000;
  const client = async () => {
    while (performance.now() < end) {
      const sent = performance.now();
      try {
        const answer = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: text,
        });
        await answer.json();
        if (answer.status === 200) times.push(performance.now() - sent);
        else failed += 1;
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, client));
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    perSecond: times.length / seconds,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    failed,
  };
}

/** Ratio of the tracker server's p50 to the bare baseline's, held on every row. */
const RATIO_TARGET = 1.5;
/** Requests a second at 10 connections, for each filtered first page under load. */
const THROUGHPUT_TARGET = 2000;
/** Rounds over every row, each timing requests / PASSES of its requests. */
const PASSES = 4;

type Send = (
  item: Pick<Case, 'method' | 'path' | 'body'>,
  headers?: Record<string, string>,
) => Promise<number>;

/**
 * A client holding one keep-alive connection to `origin`; sending resolves with the status once the whole
 * answer is read. node:http rather than fetch: fetch adds ~0.3 ms of its own to every round trip here.
 */
function client(origin: string, token?: string): Send {
  const url = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return (item, headers = {}) =>
    new Promise((done, fail) => {
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: item.path,
          method: item.method,
          agent,
          headers: {
            'content-type': 'application/json',
            ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
            ...headers,
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => done(response.statusCode ?? 0));
          response.on('error', fail);
        },
      );
      request.on('error', fail);
      request.end(item.body === undefined ? undefined : JSON.stringify(item.body));
    });
}

/** The body of one answer, for checking that both servers answer alike before they are timed. */
async function answerText(
  origin: string,
  item: Pick<Case, 'name' | 'method' | 'path' | 'body'>,
  headers: Record<string, string>,
): Promise<string> {
  const answer = await fetch(`${origin}${item.path}`, {
    method: item.method,
    headers: { 'content-type': 'application/json', ...headers },
    body: item.body === undefined ? undefined : JSON.stringify(item.body),
  });
  if (answer.status !== 200) throw new Error(`${item.name}: ${item.path} answered ${answer.status}`);
  return answer.text();
}

interface Sender {
  send: Send;
  headers: Record<string, string>;
}

/** Times `count` rounds of the senders in turn, so that drift in the machine's speed touches each alike. */
async function timeEach(item: Case, senders: Sender[], count: number): Promise<number[][]> {
  const times = senders.map((): number[] => []);
  for (let i = 0; i < count; i += 1) {
    for (const [index, { send, headers }] of senders.entries()) {
      const start = performance.now();
      const status = await send(item, headers);
      times[index]?.push(performance.now() - start);
      if (status !== 200) throw new Error(`${item.name}: ${item.path} answered ${status}`);
    }
  }
  return times;
}

/** Requests from the third client while two others repeat the slow search. */
const ISOLATION_REQUESTS = 200;
/** The third client stops sooner than ISOLATION_REQUESTS once this long has passed (the bare baseline). */
const ISOLATION_MAX_MS = 60_000;
/** p99 of those first pages, in milliseconds. */
const ISOLATION_P99_TARGET = 25;

interface IsolationResult {
  p50: number;
  p99: number;
  /** First pages answered. */
  answered: number;
  slowAnswered: number;
  /** Requests of any of the three clients that failed, each as "<which>: <why>". */
  failures: string[];
}

/** What a request that failed went through, as the report names it. */
function failureText(which: string, error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : undefined;
  return `${which}: ${code ?? (error instanceof Error ? error.message : String(error))}`;
}

/**
 * While two clients each repeat `slow` back to back, a third times first pages, ISOLATION_REQUESTS of them
 * or as many as ISOLATION_MAX_MS allows: how long one user waits while others run the slowest search. A
 * request that fails (a reset connection, a status other than 200) is counted and named in the report rather
 * than ending the run, and its client goes on with a new connection.
 */
async function isolationRun(
  origin: string,
  token: string | undefined,
  slow: Pick<Case, 'method' | 'path' | 'body'>,
  firstPage: Pick<Case, 'method' | 'path' | 'body'>,
  bare: boolean,
): Promise<IsolationResult> {
  const header = (name: string): Record<string, string> => (bare ? { 'x-bench-isolation': name } : {});
  const failures: string[] = [];
  const attempt = async (send: Send, item: Pick<Case, 'method' | 'path' | 'body'>, which: string) => {
    try {
      const status = await send(item, header(which));
      if (status === 200) return true;
      failures.push(`${which}: status ${status}`);
    } catch (error) {
      failures.push(failureText(which, error));
    }
    return false;
  };
  let running = true;
  const loops = [0, 1].map(async () => {
    const send = client(origin, token);
    let answered = 0;
    while (running) if (await attempt(send, slow, 'slow')) answered += 1;
    return answered;
  });
  const send = client(origin, token);
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < ISOLATION_REQUESTS && performance.now() - started < ISOLATION_MAX_MS; i += 1) {
    const start = performance.now();
    if (await attempt(send, firstPage, 'firstPage')) times.push(performance.now() - start);
  }
  running = false;
  const slowAnswered = (await Promise.all(loops)).reduce((sum, count) => sum + count, 0);
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    answered: times.length,
    slowAnswered,
    failures,
  };
}

/** "none", or how many requests failed and the kinds of failure, e.g. "3 (2× slow: ECONNRESET, …)". */
function failureSummary(failures: readonly string[]): string {
  if (failures.length === 0) return 'none';
  const kinds = new Map<string, number>();
  for (const failure of failures) kinds.set(failure, (kinds.get(failure) ?? 0) + 1);
  return `${failures.length} (${[...kinds].map(([kind, count]) => `${count}× ${kind}`).join(', ')})`;
}

/** Reads the whole file once, so that the operating system holds it and no row measures the disk. */
function readThrough(path: string): void {
  const buffer = Buffer.alloc(16 * 1024 * 1024);
  const fd = openSync(path, 'r');
  try {
    while (readSync(fd, buffer) > 0);
  } finally {
    closeSync(fd);
  }
}

async function main(): Promise<void> {
  if (args.db !== undefined && isPostgresUrl(args.db)) {
    await benchPostgres({
      url: args.db,
      manifests: manifestCount,
      requests,
      only: args.only === undefined ? undefined : new RegExp(args.only),
      rows: parts.has('rows'),
      throughput: parts.has('throughput'),
    });
    return;
  }
  await ensureBenchDatabase(dbPath, manifestCount);
  readThrough(dbPath);
  // Other work on the machine moves every number here; the report says how busy it was.
  const loadAtStart = loadavg();
  const db = openDatabase(dbPath);
  const all = benchCases(db);
  const only = args.only === undefined ? undefined : new RegExp(args.only);

  const servers = await startPrintingOrigin(
    [resolve(root, 'bench/paired-servers.ts'), '--db', dbPath],
    120_000,
  );
  const [trackerOrigin = '', bareOrigin = ''] = servers.origin.split(' ');
  try {
    const login = await fetch(`${trackerOrigin}/api/tracker/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DEMO_USERS.inspector),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const names = (await (await fetch(`${bareOrigin}/cases`)).json()) as string[];
    if (JSON.stringify(names) !== JSON.stringify(all.cases.map((item) => item.name)))
      throw new Error('the bare server built other cases than this process');
    const compared = [
      ...(['slow', 'firstPage'] as const).map((name) => ({
        item: { ...all.isolation[name], method: 'POST' as const },
        header: { 'x-bench-isolation': name },
      })),
      ...all.cases.map((item, index) => ({ item, header: { 'x-bench-case': String(index) } })),
      ...all.load.map((item, index) => ({
        item: { ...item, method: 'POST' as const },
        header: { 'x-bench-load': String(index) },
      })),
    ];
    for (const { item, header } of compared) {
      const [fromTracker, fromBare] = await Promise.all([
        answerText(trackerOrigin, item, { authorization: `Bearer ${token}` }),
        answerText(bareOrigin, item, header),
      ]);
      if (fromTracker !== fromBare)
        throw new Error(`${item.name}: the bare server's answer differs from the tracker server's`);
    }
    const toTracker = client(trackerOrigin, token);
    const toBare = client(bareOrigin);

    // Each row is measured in PASSES rounds spread over the whole run, so that a stretch of a second or two
    // in which this shared machine runs one process slower falls on a few samples of many rows rather than
    // on all the samples of a few.
    const selected = [...all.cases.entries()].filter(
      ([, item]) => parts.has('rows') && (!only || only.test(`${item.group} ${item.name}`)),
    );
    const samples = selected.map(() => ({
      http: [] as number[],
      bare: [] as number[],
      direct: [] as number[],
    }));
    const perPass = Math.ceil(requests / PASSES);
    for (let pass = 1; pass <= PASSES; pass += 1) {
      console.error(`pass ${pass} of ${PASSES}`);
      for (const [position, [index, item]] of selected.entries()) {
        const pair: Sender[] = [
          { send: toTracker, headers: {} },
          { send: toBare, headers: { 'x-bench-case': String(index) } },
        ];
        const sample = samples[position];
        if (!sample) continue;
        timeMs(item.direct, 5);
        await timeEach(item, pair, 10);
        sample.direct.push(...timeMs(item.direct, perPass));
        const [http = [], baseline = []] = await timeEach(item, pair, perPass);
        sample.http.push(...http);
        sample.bare.push(...baseline);
      }
    }

    const rows: string[] = [];
    let group = '';
    let met = 0;
    for (const [position, [, item]] of selected.entries()) {
      const sample = samples[position];
      if (!sample) continue;
      const sorted = (times: number[]) => times.sort((a, b) => a - b);
      const http = sorted(sample.http);
      const p50 = percentile(http, 50);
      const p99 = percentile(http, 99);
      const bareSorted = sorted(sample.bare);
      const bare50 = percentile(bareSorted, 50);
      const bare99 = percentile(bareSorted, 99);
      const direct50 = percentile(sorted(sample.direct), 50);
      if (item.group !== group) {
        group = item.group;
        rows.push(`| **${group}** | | | | | | | | | |`);
      }
      const ratio = p50 / bare50;
      const meets = meetsTarget(item.target, p50, p99) && ratio <= RATIO_TARGET;
      if (meets) met += 1;
      const target = `${item.target}, ratio ≤ ${RATIO_TARGET}×`;
      const line = `| ${item.name} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${bare50.toFixed(2)} | ${bare99.toFixed(2)} | ${ratio.toFixed(2)}× | ${direct50.toFixed(2)} | ${(p50 / Math.max(direct50, 0.01)).toFixed(1)}× | ${target} | ${meets ? 'yes' : '**no**'} |`;
      rows.push(line);
      console.log(line);
    }

    const isolationLines: string[] = [];
    if (parts.has('isolation')) {
      const { slow, firstPage } = all.isolation;
      const slowPost = { ...slow, method: 'POST' as const };
      const firstPost = { ...firstPage, method: 'POST' as const };
      const isolated = await isolationRun(trackerOrigin, token, slowPost, firstPost, false);
      const isolatedBare = await isolationRun(bareOrigin, undefined, slowPost, firstPost, true);
      const slowAlone = timeMs(slow.direct, 5).sort((a, b) => a - b);
      const isolationMet = isolated.p99 <= ISOLATION_P99_TARGET && isolated.failures.length === 0;
      const line = `| ${firstPage.name}, while 2 clients repeat ${slow.name} | ${isolated.p50.toFixed(2)} | ${isolated.p99.toFixed(2)} | ${isolated.answered} | ${isolated.slowAnswered} | ${failureSummary(isolated.failures)} | ${isolatedBare.p50.toFixed(2)} | ${isolatedBare.p99.toFixed(2)} | ${isolatedBare.answered} | ${isolatedBare.slowAnswered} | ${failureSummary(isolatedBare.failures)} | ${percentile(slowAlone, 50).toFixed(1)} | ${isolationMet ? 'yes' : '**no**'} |`;
      isolationLines.push(line);
      console.log(line);
    }
    /**
     * THROUGHPUT_ROUNDS rounds of `load` on each server, taking turns so that a stretch in which this shared
     * machine is slower falls on both: mean answers a second of each, the tracker's worst p50 and p99, and the
     * requests that failed on either.
     */
    const inTurn = async (load: Load, path: string, body: unknown, index: number) => {
      const tracker: LoadRound[] = [];
      const bare: LoadRound[] = [];
      for (let round = 0; round < THROUGHPUT_ROUNDS; round += 1) {
        tracker.push(await load(`${trackerOrigin}${path}`, body, { authorization: `Bearer ${token}` }));
        bare.push(await load(`${bareOrigin}${path}`, body, { 'x-bench-load': String(index) }));
      }
      const mean = (rounds: LoadRound[]) =>
        rounds.reduce((sum, round) => sum + round.perSecond, 0) / rounds.length;
      return {
        perSecond: mean(tracker),
        barePerSecond: mean(bare),
        p50: Math.max(...tracker.map((round) => round.p50)),
        p99: Math.max(...tracker.map((round) => round.p99)),
        failed: [...tracker, ...bare].reduce((sum, round) => sum + round.failed, 0),
      };
    };
    const loadLine = (name: string, result: Awaited<ReturnType<typeof inTurn>>, met: boolean) =>
      `| ${name} | ${Math.round(result.perSecond).toLocaleString('en-US')} | ${Math.round(result.barePerSecond).toLocaleString('en-US')} | ${(result.barePerSecond / result.perSecond).toFixed(2)}× | ${Number(result.p50.toFixed(1))} | ${Number(result.p99.toFixed(1))} | ${result.failed} | ${met ? 'yes' : '**no**'} |`;
    const throughputRows: string[] = [];
    /** The app's page read by a client that parses every answer (parsingThroughput). */
    let parsingLine = '';
    for (const [index, { name, path, body }] of all.load.entries()) {
      if (!parts.has('throughput') || (only && !only.test(name))) continue;
      const result = await inTurn(autocannon, path, body, index);
      const line = loadLine(name, result, result.perSecond >= THROUGHPUT_TARGET && result.failed === 0);
      throughputRows.push(line);
      console.log(line);
      if (index === 0) {
        const parsed = await inTurn(parsingThroughput, path, body, index);
        const met = parsed.barePerSecond / parsed.perSecond <= RATIO_TARGET && parsed.failed === 0;
        parsingLine = loadLine(`${name}, each answer read with fetch and parsed`, parsed, met);
        console.log(parsingLine);
      }
    }
    if (!fullRun) return;

    const counts = db
      .prepare(
        'SELECT (SELECT count(*) FROM generators), (SELECT count(*) FROM manifests), (SELECT count(*) FROM waste_lines)',
      )
      .raw()
      .get() as number[];
    const report = `# Server benchmark

\`npm run bench:server\` on ${new Date().toISOString().slice(0, 10)}, ${process.platform} ${process.arch}, Node ${process.version}.
Dataset: ${counts
      .map((n, index) => `${n.toLocaleString('en-US')} ${['generators', 'manifests', 'waste lines'][index]}`)
      .join(', ')} (\`${dbPath.replace(root + '/', '')}\`).
Load average (1, 5, 15 min) on this machine's ${availableParallelism()} cores, shared with other work: ${loadAtStart.map((value) => value.toFixed(2)).join(', ')} at the start, ${loadavg()
      .map((value) => value.toFixed(2))
      .join(', ')} at the end.

Each row: ${requests} sequential requests over one keep-alive loopback connection, in ${PASSES} rounds over all rows
(each after a warm-up), to
- the tracker server ("HTTP"), started as its CLI starts it, with its default request log;
- the bare baseline ("bare"): a node:http server with no framework, token, validation or log, calling the
  same repository query and writing its JSON, asked in turn with the tracker server. Both servers share one
  process (bench/paired-servers.ts), and before timing the bench checks that they answer every request with
  the same bytes;
- and the same query called in the benchmark's process, SQLite plus row shaping with no HTTP ("in-process").

Ratio = HTTP p50 / bare p50, target ≤ ${RATIO_TARGET}× on every row: what the server adds (Fastify, the Bearer
check, validation, the request log) to the raw query and its round trip. HTTP / in-process is shown too; below
a millisecond it mostly measures the loopback round trip, which no server can avoid. Times in milliseconds.
${met} of ${all.cases.length} rows meet their targets. A p99 far above its p50 beside a bare p99 as high is
the machine's other work pausing both servers alike, not the request.

| request | HTTP p50 | HTTP p99 | bare p50 | bare p99 | ratio | in-process p50 | HTTP / in-process | target | met |
|---|---:|---:|---:|---:|---:|---:|---:|---|---|
${rows.join('\n')}

## One slow search among other users

Two clients each repeat the slowest search found, back to back, while a third sends first pages one after
another (${ISOLATION_REQUESTS}, or as many as ${ISOLATION_MAX_MS / 1000} s allow); the third client's times, in milliseconds. The tracker server runs
that search (a key too short for the trigram index, so every manifest is read) in its read pool's worker
threads, at the lowest CPU priority (docs/api.md); the bare baseline runs it on its only thread, as the tracker server did before.
"answered": first pages answered; "slow answered": slow searches answered meanwhile; "failed": requests of
any of the three clients that failed, by kind (a server whose event loop is held past its 5 s keep-alive
timeout closes a waiting keep-alive connection before reading its request: ECONNRESET); "slow alone": that
search's p50 in-process. Target: the tracker's p99 ≤ ${ISOLATION_P99_TARGET} ms with no failure.

| request | HTTP p50 | HTTP p99 | answered | slow answered | failed | bare p50 | bare p99 | bare answered | bare slow answered | bare failed | slow alone p50 | met |
|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---|
${isolationLines.join('\n')}

## Throughput (autocannon)

10 connections to the tracker server, then to the bare baseline ("bare req/s"), in turn, ${THROUGHPUT_ROUNDS} rounds of ${THROUGHPUT_ROUND_SECONDS} s each:
req/s is the mean over the rounds, p50 and p99 the tracker's worst round's; ratio = bare req/s / tracker req/s; errors: failed requests to either server. Target: ≥ ${THROUGHPUT_TARGET.toLocaleString('en-US')} req/s with no errors. The load generator shares the machine's
two cores with the server. The first row is the request the manifests grid sends for its first page (its
default page size, its columns and the waste lines, with the page info the main process fills in): ~137 KB of
JSON, against ~70 KB for 50 rows with every field and ~20 KB without the lines. The waste lines are stored
as JSON per manifest, spliced into the page and written once into one buffer (server/src/db/waste-lines-json.ts,
ManifestsRepository.pageBytes), in the tracker server and the bare baseline alike.

| request | req/s | bare req/s | ratio | p50 ms | p99 ms | errors | met |
|---|---:|---:|---:|---:|---:|---:|---|
${throughputRows.join('\n')}

The same first page as the app's client reads it: ${CONNECTIONS} clients in the benchmark's process, each sending
it with \`fetch\` and parsing the whole answer (\`response.json()\`) before sending the next, ${THROUGHPUT_ROUNDS} rounds of ${THROUGHPUT_ROUND_SECONDS} s per server,
in turn. The client's own reading and parsing of ~137 KB a page shares the two cores with the server, so req/s is
lower than autocannon's for both servers; the ratio says what the tracker server adds. Target: ratio ≤ ${RATIO_TARGET}×
with no errors.

| request | req/s | bare req/s | ratio | p50 ms | p99 ms | errors | met |
|---|---:|---:|---:|---:|---:|---:|---|
${parsingLine}
`;
    mkdirSync(resolve(root, 'docs/benchmarks'), { recursive: true });
    // The PostgreSQL section (bench/server-postgres.ts) is kept as its own run wrote it.
    const reportPath = resolve(root, 'docs/benchmarks/server.md');
    const postgres = existsSync(reportPath) ? postgresSection(readFileSync(reportPath, 'utf8')) : '';
    writeFileSync(reportPath, postgres ? `${report.trimEnd()}\n\n${postgres}\n` : report);
    console.log('wrote docs/benchmarks/server.md');
  } finally {
    servers.child.kill('SIGTERM');
    db.close();
  }
}

await main();
