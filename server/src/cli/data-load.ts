/**
 * npm run data:load -- --from FILE --out postgres://… [--force]
 *
 * Copies a tracker database file (one `data:import` or `data:demo` built) into an empty PostgreSQL database
 * with COPY, then builds its indexes and lookup lists (postgres/pg-load.ts): the quick way to put a national
 * dataset into PostgreSQL, where `data:import` writes a row at a time (docs/deploy.md "Loading data"). The
 * importer's ledger comes along, so that later imports into PostgreSQL apply the rows still pending. The
 * database must be empty unless --force, which empties it first; a file whose import has not finished is
 * refused, and so is the database while an import or another load writes into it (pg-writer-lock.ts).
 * Progress and the summary go to stderr; exit code 2 for bad arguments or a file or database refused.
 */
import { resolve } from 'node:path';
import { isPostgresUrl, redactUrl } from '../postgres/pg-url.ts';
import { DatabaseError } from '../db/database-error.ts';
import { readArguments, refuse, usageError } from './arguments.ts';

const USAGE = 'usage: npm run data:load -- --from FILE --out postgres://… [--force]';

const fail: (message: string) => never = usageError(USAGE);

const count = (value: number) => value.toLocaleString('en-US');

/** Both databases' code, loaded once the arguments are accepted: a refusal of one is told at once. */
async function loadParts() {
  const [{ default: Database }, open, schema, pgLoad, store, lock] = await Promise.all([
    import('better-sqlite3'),
    import('../db/open.ts'),
    import('../db/schema.ts'),
    import('../postgres/pg-load.ts'),
    import('../postgres/pg-store.ts'),
    import('../postgres/pg-writer-lock.ts'),
  ]);
  return { Database, open, schema, pgLoad, store, lock };
}

type Parts = Awaited<ReturnType<typeof loadParts>>;

/** What the file holds, read before anything is written: its rows, and an import it has not finished. */
function describeFile(
  { Database, open, schema }: Parts,
  path: string,
): { manifests: number; generators: number; pending: number } {
  if (!open.hasCurrentSchema(path)) {
    refuse(
      `${path} is not a tracker database of schema version ${schema.SCHEMA_VERSION} (or does not exist)`,
    );
  }
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const value = (text: string) => Number(db.prepare(text).pluck().get() ?? 0);
    if (value("SELECT count(*) FROM import_runs WHERE state = 'running'") > 0) {
      refuse(
        `${path} holds an import that has not finished: run it again to its end (or with --restart) first`,
      );
    }
    return {
      manifests: value('SELECT count(*) FROM manifests'),
      generators: value('SELECT count(*) FROM generators'),
      pending: value('SELECT count(*) FROM import_pending'),
    };
  } finally {
    db.close();
  }
}

async function main(): Promise<void> {
  const values = readArguments(USAGE, {
    from: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean', default: false },
  })?.values;
  if (!values) return;
  if (values.from === undefined || values.from === '') fail('--from FILE is required');
  if (values.out === undefined || !isPostgresUrl(values.out)) fail('--out postgres://… is required');
  const from = resolve(values.from);
  const url = values.out;
  const parts = await loadParts();
  const held = describeFile(parts, from);
  // Taken before the database is looked at: two loads at once would each find it empty and fill it.
  await parts.lock.withWriterLock(url, () => load(parts, from, url, values.force, held));
}

async function load(
  { pgLoad, store }: Parts,
  from: string,
  url: string,
  force: boolean,
  held: ReturnType<typeof describeFile>,
) {
  const started = performance.now();
  // Two connections: the trigram indexes are built beside the others (pg-finalize.ts).
  const sql = await store.connect(url, { max: 2 });
  try {
    await store.migrateOrRefuse(sql, url);
    if (!(await pgLoad.isEmpty(sql))) {
      if (!force) fail(`${redactUrl(url)} already holds data; add --force to replace it`);
      await pgLoad.emptyTables(sql);
    }
    console.error(
      `Loading ${from} into ${redactUrl(url)}: ${count(held.manifests)} manifests, ` +
        `${count(held.generators)} generators, ${count(held.pending)} rows pending`,
    );
    await pgLoad.loadIntoPostgres(from, sql, (step, seconds) =>
      console.error(pgLoad.loadStepLine(step, seconds)),
    );
    console.error(`Loaded ${redactUrl(url)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await sql.end();
  }
}

main().catch((error: unknown) => {
  if (error instanceof DatabaseError) refuse(error.message);
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
