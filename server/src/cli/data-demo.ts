/**
 * npm run data:demo -- --out FILE|postgres://… --manifests N [--seed S] [--force]
 *
 * Builds a deterministic demo database (same seed and N → the same rows). Progress goes to stderr, the
 * summary too; exit code 2 for bad arguments. Into PostgreSQL: the rows are built in a temporary SQLite
 * file, then copied with COPY and indexed after the load (postgres/pg-load.ts); the database must be empty
 * unless --force, which empties it first. Either is refused while an import or a load writes into it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { DemoBuildEvent } from '../data/demo/build-demo.ts';
import { DEFAULT_SEED, MAX_DEMO_MANIFESTS } from '../data/demo/demo-size.ts';
import { isPostgresUrl, redactUrl } from '../postgres/pg-url.ts';
import { DatabaseError } from '../db/database-error.ts';
import { passwordCostProblem } from '../auth/passwords.ts';
import { isFolder, readArguments, refuse, usageError } from './arguments.ts';

const USAGE = 'usage: npm run data:demo -- --out FILE|postgres://… --manifests N [--seed S] [--force]';

const fail: (message: string) => never = usageError(USAGE);

function integer(text: string, name: string, min: number, max: number): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = min === 0 ? 'a non-negative integer' : 'a positive integer';
    fail(`--${name} must be ${range} (at most ${max}), got "${text}"`);
  }
  return value;
}

const count = (value: number) => value.toLocaleString('en-US');

/** Prints each phase's time, and the row rate about every 5 % of the manifests. */
function reporter(): (event: DemoBuildEvent) => void {
  let printed = 0;
  return (event) => {
    if (event.kind === 'phase') {
      console.error(`  ${event.phase.padEnd(11)} ${event.seconds.toFixed(1).padStart(7)} s`);
      return;
    }
    if (event.done < event.total && event.done - printed < event.total / 20) return;
    printed = event.done;
    const rows = event.done + event.wasteLines;
    console.error(
      `  manifests ${count(event.done)} / ${count(event.total)}, waste lines ${count(event.wasteLines)}` +
        ` (${count(Math.round(rows / Math.max(event.seconds, 1e-3)))} rows/s)`,
    );
  };
}

function size(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(2)} GiB`;
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

/**
 * The builder, loaded once the arguments are read: a refusal of them does not wait for it (about 0.4 s of
 * loading).
 */
async function loadBuilder() {
  const [demo, load, store, lock] = await Promise.all([
    import('../data/demo/build-demo.ts'),
    import('../postgres/pg-load.ts'),
    import('../postgres/pg-store.ts'),
    import('../postgres/pg-writer-lock.ts'),
  ]);
  return {
    buildDemoDatabase: demo.buildDemoDatabase,
    load,
    store,
    withWriterLock: lock.withWriterLock,
    /** What refused, said in a sentence: its message alone is printed. */
    refusals: [demo.DemoBuildError, DatabaseError],
  };
}

type Builder = Awaited<ReturnType<typeof loadBuilder>>;

async function main(): Promise<void> {
  const values = readArguments(USAGE, {
    out: { type: 'string' },
    manifests: { type: 'string' },
    seed: { type: 'string' },
    force: { type: 'boolean', default: false },
  })?.values;
  if (!values) return;
  const costProblem = passwordCostProblem();
  if (costProblem !== undefined) fail(costProblem);
  if (values.out === undefined || values.out === '') fail('--out FILE is required');
  if (values.manifests === undefined) fail('--manifests N is required');
  const manifests = integer(values.manifests, 'manifests', 1, MAX_DEMO_MANIFESTS);
  const seed =
    values.seed === undefined ? DEFAULT_SEED : integer(values.seed, 'seed', 0, Number.MAX_SAFE_INTEGER);
  const url = values.out;
  const postgres = isPostgresUrl(url);
  const out = postgres ? url : resolve(url);
  if (!postgres) {
    if (!existsSync(dirname(out))) fail(`the folder ${dirname(out)} does not exist`);
    if (isFolder(out))
      fail(`${out} is a folder: --out names the database file (such as ${join(out, 'demo.db')})`);
    if (existsSync(out) && !values.force) fail(`${out} already exists; add --force to replace it`);
  }

  const builder = await loadBuilder();
  try {
    if (postgres) {
      // Taken before the database is looked at: two builds at once would each find it empty and fill it.
      await builder.withWriterLock(url, () => buildInPostgres(builder, url, manifests, seed, values.force));
      return;
    }
    console.error(`Building ${out}: ${count(manifests)} manifests, seed ${seed}`);
    const result = await builder.buildDemoDatabase(out, {
      manifests,
      seed,
      force: values.force,
      onProgress: reporter(),
    });
    console.error(
      `Built ${result.path}: ${count(result.generators)} generators, ${count(result.manifests)} manifests, ` +
        `${count(result.wasteLines)} waste lines in ${result.seconds.toFixed(1)} s (${size(result.bytes)})`,
    );
  } catch (error) {
    if (builder.refusals.some((refusal) => error instanceof refusal)) refuse((error as Error).message);
    throw error;
  }
}

/** The demo rows into a PostgreSQL database, through a temporary file. */
async function buildInPostgres(
  { buildDemoDatabase, load, store }: Builder,
  url: string,
  manifests: number,
  seed: number,
  force: boolean,
): Promise<void> {
  const started = performance.now();
  const sql = await store.connect(url, { max: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'tracker-demo-'));
  try {
    await store.migrateOrRefuse(sql, url);
    if (!(await load.isEmpty(sql))) {
      if (!force) fail(`${redactUrl(url)} already holds data; add --force to replace it`);
      await load.emptyTables(sql);
    }
    console.error(`Building ${redactUrl(url)}: ${count(manifests)} manifests, seed ${seed}`);
    const file = join(dir, 'demo.db');
    const built = await buildDemoDatabase(file, { manifests, seed, forLoad: true, onProgress: reporter() });
    console.error(`  rows built in ${built.seconds.toFixed(1)} s; loading into PostgreSQL`);
    await load.loadIntoPostgres(file, sql, (step, seconds) =>
      console.error(load.loadStepLine(step, seconds)),
    );
    console.error(
      `Built ${redactUrl(url)}: ${count(built.generators)} generators, ${count(built.manifests)} manifests, ` +
        `${count(built.wasteLines)} waste lines in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await sql.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
