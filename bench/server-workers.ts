/**
 * Throughput of one request at a fixed concurrency against `npm run server -- --db postgres://…` with one
 * process and with `--workers 2` (bench/server-postgres.ts), and where the machine's CPU went meanwhile.
 *
 * The load generator (autocannon) runs as its own process with the same connections and duration for both
 * servers, after a warm-up run that is not counted (each worker compiles the request's path and reads its
 * in-memory lists on its own: two workers warm up twice). While it runs, the CPU time of each party is read from /proc: the server's processes
 * (the primary and its workers), the database server's (every process of the cluster the benchmark's
 * connection reaches, when it runs on this machine), the load generator's, and the machine's busy share of
 * all its cores. On a machine whose cores are already busy with one server process, a second one cannot
 * add answers: the CPU per answer says what would.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { spawn } from 'node:child_process';
import type { Sql } from 'postgres';

const root = resolve(import.meta.dirname, '..');

/** Clock ticks a second (USER_HZ): 100 on every Linux machine Node runs on. */
const TICKS = 100;

/** A process's fields after its name in /proc/PID/stat (index 0 is field 3, the state). */
function statFields(pid: number | 'self'): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** User and system ticks of a process (0 once it has gone). */
function ticksOf(pid: number): number {
  const fields = statFields(pid);
  return fields ? Number(fields[11]) + Number(fields[12]) : 0;
}

/** User and system ticks of the children this process has waited for (the load generator, once it exits). */
function reapedChildTicks(): number {
  const fields = statFields('self');
  return fields ? Number(fields[13]) + Number(fields[14]) : 0;
}

/** `pid` and every process below it. */
function tree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = Number(statFields(Number(entry))?.[1]);
    if (!Number.isFinite(parent)) continue;
    parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const visit = (at: number) => {
    found.push(at);
    for (const child of parents.get(at) ?? []) visit(child);
  };
  visit(pid);
  return found;
}

/** Busy and total ticks of the whole machine, every core. */
function machineTicks(): { busy: number; total: number } {
  const [, ...values] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/);
  const numbers = values.map(Number);
  const total = numbers.reduce((sum, value) => sum + value, 0);
  const idle = (numbers[3] ?? 0) + (numbers[4] ?? 0);
  return { busy: total - idle, total };
}

/** CPU seconds a set of processes used between two readings, new processes counted from zero. */
class TreeClock {
  private readonly root: () => number | undefined;
  private start = new Map<number, number>();

  constructor(root: () => number | undefined) {
    this.root = root;
  }

  private read(): Map<number, number> {
    const pid = this.root();
    return new Map(pid === undefined ? [] : tree(pid).map((each) => [each, ticksOf(each)]));
  }

  begin(): void {
    this.start = this.read();
  }

  seconds(): number {
    let ticks = 0;
    for (const [pid, now] of this.read()) ticks += now - (this.start.get(pid) ?? 0);
    return ticks / TICKS;
  }
}

/** The database server's main process, when the connection reaches a cluster on this machine. */
async function postmasterOf(sql: Sql): Promise<number | undefined> {
  const [row] = await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  const parent = row && Number(statFields(row.pid)?.[1]);
  return parent && Number.isFinite(parent) ? parent : undefined;
}

export interface LoadRun {
  answers: number;
  perSecond: number;
  /** CPU milliseconds per answer, by party; undefined where it could not be read. */
  cpu: { server: number; database: number | undefined; loadGenerator: number };
  /** Share of all the machine's cores busy meanwhile (everything on it, other work included). */
  machineBusy: number;
}

export interface LoadTarget {
  url: string;
  body: unknown;
  token: string;
  /** The server's process (with `--workers`, the primary; its workers are below it). */
  pid: number;
}

export const CONNECTIONS = 10;
export const SECONDS = 10;
/** Long enough for each worker's JIT to have compiled the request's path: a cold process spends twice the CPU an answer. */
export const WARM_UP_SECONDS = 10;

function autocannon(target: LoadTarget, seconds: number): Promise<{ answers: number; perSecond: number }> {
  const child = spawn(
    process.execPath,
    [
      resolve(root, 'node_modules/autocannon/autocannon.js'),
      ...['--connections', String(CONNECTIONS), '--duration', String(seconds), '--json', '--method', 'POST'],
      ...['--headers', `authorization=Bearer ${target.token}`, '--headers', 'content-type=application/json'],
      ...['--body', JSON.stringify(target.body), target.url],
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', () => {
      const result = JSON.parse(output) as {
        requests: { average: number; total: number };
        non2xx: number;
        errors: number;
      };
      if (result.non2xx + result.errors > 0) {
        fail(new Error(`${result.non2xx + result.errors} requests failed under load`));
      } else done({ answers: result.requests.total, perSecond: result.requests.average });
    });
  });
}

/** A warm-up run, then the counted one with the CPU each party used. */
export async function measureLoad(target: LoadTarget, database: Sql): Promise<LoadRun> {
  await autocannon(target, WARM_UP_SECONDS);
  const postmaster = await postmasterOf(database);
  const server = new TreeClock(() => target.pid);
  const db = new TreeClock(() => postmaster);
  server.begin();
  db.begin();
  const machineBefore = machineTicks();
  const reapedBefore = reapedChildTicks();
  const { answers, perSecond } = await autocannon(target, SECONDS);
  const machineAfter = machineTicks();
  const perAnswer = (seconds: number) => (seconds * 1000) / Math.max(1, answers);
  return {
    answers,
    perSecond,
    cpu: {
      server: perAnswer(server.seconds()),
      database: postmaster === undefined ? undefined : perAnswer(db.seconds()),
      loadGenerator: perAnswer((reapedChildTicks() - reapedBefore) / TICKS),
    },
    machineBusy:
      (machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total),
  };
}

/** One run's line: answers/s, CPU per answer by party, the machine's busy share. */
export function describeRun(run: LoadRun): string {
  const ms = (value: number | undefined) => (value === undefined ? 'not read' : `${value.toFixed(2)} ms`);
  const sum = run.cpu.server + (run.cpu.database ?? 0) + run.cpu.loadGenerator;
  return `${run.perSecond.toFixed(0)} answers/s; CPU per answer: server ${ms(run.cpu.server)}, PostgreSQL ${ms(
    run.cpu.database,
  )}, load generator ${ms(run.cpu.loadGenerator)} (${sum.toFixed(2)} ms together: at most ${(
    (availableParallelism() * 1000) /
    sum
  ).toFixed(
    0,
  )} answers/s on ${availableParallelism()} cores); the machine's cores ${(run.machineBusy * 100).toFixed(0)} % busy`;
}
