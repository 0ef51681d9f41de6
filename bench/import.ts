/**
 * npm run bench:import [-- --manifests N] [-- --append N] [-- --batch-rows N] [-- --files-only]
 *
 * The importer at national scale, in EPA's file layout, written to docs/benchmarks/import.md:
 * 1. the 1M-manifest demo dataset (data/bench-1m.db, shared with bench:server) written as EPA files
 *    (HD_REPORTING, EM_MANIFEST, EM_TRANSPORTER, EM_WASTE_LINE parts) under data/bench-import/, once;
 * 2. the raw baseline: the same files read and parsed and every row mapped, with no database work;
 * 3. `npm run data:import` of them into a new database, in its own process: rows/s while loading, the
 *    index build after, and the process's peak RSS (VmHWM, sampled);
 * 4. the floor of the database's side: the rows the import stored, read back and inserted again into a new
 *    database of the same schema, one prepared INSERT per row as any importer binding rows from JavaScript
 *    does, with no parsing, lookups or checks; only the inserts are timed;
 * 5. appending N manifests (default 100,000: the first N of the dataset under new tracking numbers) to
 *    that database while the tracker server serves it and a client asks for the manifests' first page
 *    back to back: the import's time, the client's latency before and during it, and the totals, a lookup
 *    and the list's count the client saw change;
 * 6. the floor of the append: the manifests, transporters and waste lines it stored, inserted alone into a
 *    copy of the database taken before it, every index of those tables in place, set up as an append sets
 *    up its connection, and none of the derived data an append keeps current; only the inserts are timed.
 * `--manifests N` takes only the dataset's first N manifests (and their lines; every handler still), for
 * quicker runs while working on the importer. The document keeps one record per size: the full run's first,
 * then one section per smaller size, each replaced only by a run of its own size (a 100,000 run never
 * takes the place of the 1M record). `--batch-rows N` runs the append in transactions of N rows (data:import's
 * option; the record says so), to weigh an append's time against the client's latency. `--files-only` writes
 * the files and stops.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { createDemoAccounts } from '../server/src/auth/demo-accounts.ts';
import { createTables } from '../server/src/db/schema.ts';
import { CSV_BATCH_ROWS } from '../server/src/import/model/sink.ts';
import { mappingContext, readRows } from '../server/src/import/read-rows.ts';
import { discoverSources } from '../server/src/import/sources.ts';
import { ROWS_CACHE_KIB, WAL_CHECKPOINT_BYTES } from '../server/src/import/sqlite/sqlite-sink.ts';
import { DEMO_USERS } from '../test/helpers/demo-users.ts';
import { writeEpaFiles, type EpaFiles } from '../test/helpers/epa-files.ts';
import { benchDatabasePath, ensureBenchDatabase, startServerProcess } from './tracker-server.ts';

const root = resolve(import.meta.dirname, '..');
const FULL = 1_000_000;
const filesDir = (manifests: number) =>
  resolve(root, manifests === FULL ? 'data/bench-import' : `data/bench-import-${manifests}`);
const importedDb = (manifests: number) =>
  resolve(root, manifests === FULL ? 'data/bench-import.db' : `data/bench-import-${manifests}.db`);

const DOC = resolve(root, 'docs/benchmarks/import.md');
/** The heading that starts a smaller run's record in DOC: its size is read back from it. */
const SMALLER = /^## On the first ([\d,]+) manifests$/;

const count = (value: number) => Math.round(value).toLocaleString('en-US');
const seconds = (ms: number) => (ms / 1000).toFixed(1);
/** A size in MiB, and in MB (10^6 bytes), which the target names. */
const rss = (mib: number) => `${mib.toFixed(0)} MiB (${((mib * 1024 * 1024) / 1e6).toFixed(0)} MB)`;

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Writes the EPA files once (kept with a note of what they hold, as the 1M build takes minutes). */
async function ensureFiles(manifests: number, append: number): Promise<{ base: EpaFiles; added: EpaFiles }> {
  const FILES = filesDir(manifests);
  const note = resolve(FILES, 'files.json');
  if (existsSync(note)) {
    const saved = JSON.parse(readFileSync(note, 'utf8')) as {
      append: number;
      base: EpaFiles;
      added: EpaFiles;
    };
    if (saved.append === append) return saved;
  }
  const source = benchDatabasePath(FULL);
  await ensureBenchDatabase(source, FULL);
  rmSync(FILES, { recursive: true, force: true });
  mkdirSync(resolve(FILES, 'base'), { recursive: true });
  mkdirSync(resolve(FILES, 'append'), { recursive: true });
  const db = new BetterSqlite3(source, { readonly: true });
  try {
    console.error('Writing the dataset as EPA files…');
    const base = await writeEpaFiles(db, resolve(FILES, 'base'), { manifests });
    const added = await writeEpaFiles(db, resolve(FILES, 'append'), {
      handlers: false,
      manifests: append,
      suffix: 'APP',
    });
    writeFileSync(note, JSON.stringify({ append, base, added }));
    return { base, added };
  } finally {
    db.close();
  }
}

/**
 * Reads, parses and maps every row of the files as the import does (readRows), storing nothing: what the
 * import cannot go below.
 */
async function rawRead(dir: string): Promise<{ ms: number; rows: number }> {
  const context = mappingContext();
  const started = performance.now();
  let rows = 0;
  for (const source of await discoverSources([dir])) {
    for await (const event of readRows(source, { skip: 0, batchRows: CSV_BATCH_ROWS }, context)) {
      if (event.kind === 'refused') throw new Error(`${source.path}: ${event.reason}`);
      if (event.kind === 'batch') rows += event.take().rows;
    }
  }
  return { ms: performance.now() - started, rows };
}

/** The tables an import's rows phase writes, in the order it fills them. */
const ROW_TABLES = ['generators', 'generator_naics', 'manifests', 'manifest_transporters', 'waste_lines'];
/** Rows inserted per transaction by the floors, as the importer's batches. */
const FLOOR_CHUNK = 20_000;
/** Where the floors write: a new database, or a copy of the served one. */
const FLOOR_DB = resolve(root, 'data/bench-import-floor.db');

function removeFloorDb(): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${FLOOR_DB}${suffix}`, { force: true });
}

/**
 * The rows of `source` that `select(table)` picks, inserted into `db` by one prepared INSERT each, in
 * transactions of FLOOR_CHUNK rows: the time of the inserts alone.
 */
function insertRows(
  source: BetterSqlite3.Database,
  db: BetterSqlite3.Database,
  tables: readonly string[],
  select: (table: string) => string,
): { ms: number; rows: number } {
  let ms = 0;
  let rows = 0;
  for (const table of tables) {
    const columns = source.prepare(`SELECT * FROM ${table} LIMIT 0`).columns().length;
    const insert = db.prepare(`INSERT INTO ${table} VALUES (${Array(columns).fill('?').join(', ')})`);
    const write = db.transaction((chunk: unknown[][]) => {
      for (const row of chunk) insert.run(...row);
    });
    let chunk: unknown[][] = [];
    const flush = () => {
      const started = performance.now();
      write(chunk);
      ms += performance.now() - started;
      rows += chunk.length;
      chunk = [];
    };
    for (const row of source.prepare(select(table)).raw().iterate() as Iterable<unknown[]>) {
      chunk.push(row);
      if (chunk.length === FLOOR_CHUNK) flush();
    }
    if (chunk.length > 0) flush();
  }
  return { ms, rows };
}

/**
 * The rows of `imported` inserted into a new database of the same schema, set up as the import's rows phase
 * sets up an empty one (rollback journal, no syncs, its page cache).
 */
function insertFloor(imported: string): { ms: number; rows: number } {
  removeFloorDb();
  const source = new BetterSqlite3(imported, { readonly: true });
  const db = new BetterSqlite3(FLOOR_DB);
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = OFF');
    db.pragma(`cache_size = -${ROWS_CACHE_KIB.bulk}`);
    createTables(db);
    return insertRows(source, db, ROW_TABLES, (table) => `SELECT * FROM ${table}`);
  } finally {
    source.close();
    db.close();
    removeFloorDb();
  }
}

/**
 * The manifests, transporters and waste lines `served` holds beyond the copy at FLOOR_DB (the append's),
 * inserted into that copy, set up as an append sets up its connection (WAL, its page cache and checkpoint
 * size), every index of those tables in place.
 */
function appendFloor(served: string): { ms: number; rows: number } {
  const source = new BetterSqlite3(served, { readonly: true });
  const db = new BetterSqlite3(FLOOR_DB);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = OFF');
    db.pragma(`cache_size = -${ROWS_CACHE_KIB.incremental}`);
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    db.pragma(`wal_autocheckpoint = ${Math.floor(WAL_CHECKPOINT_BYTES / pageSize)}`);
    const last = Number(db.prepare('SELECT coalesce(max(id), 0) FROM manifests').pluck().get());
    return insertRows(source, db, ['manifests', 'manifest_transporters', 'waste_lines'], (table) =>
      table === 'manifests'
        ? `SELECT * FROM manifests WHERE id > ${last}`
        : `SELECT * FROM ${table} WHERE manifest_id > ${last}`,
    );
  } finally {
    source.close();
    db.close();
    removeFloorDb();
  }
}

interface ImportRun {
  ms: number;
  /** Until the sink's finish began: reading and storing the rows. */
  loadMs: number;
  /** VmHWM, in MiB. */
  peakRssMib: number;
  summary: string;
}

/**
 * The command line of `npm run data:import` as package.json writes it, Node's heap bounds included (they
 * are what keeps the import's memory flat), run here without npm so that /proc shows the importer itself.
 */
function importCommand(): string[] {
  const scripts = (
    JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const [node, ...args] = (scripts['data:import'] ?? '').split(' ');
  if (node !== 'node') throw new Error('package.json has no data:import script run by node');
  return args.map((arg) => (arg.startsWith('-') ? arg : resolve(root, arg)));
}

/** `npm run data:import` in its own process, its stderr read for the phases and /proc for its peak RSS. */
function importProcess(db: string, dir: string, options: readonly string[] = []): Promise<ImportRun> {
  return new Promise((done, fail) => {
    const started = performance.now();
    let loadMs = Number.NaN;
    let peak = 0;
    let stdout = '';
    const child = spawn(process.execPath, [...importCommand(), ...options, '--db', db, dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const sample = setInterval(() => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        peak = Math.max(peak, kb);
      } catch {
        // The process has ended between two samples.
      }
    }, 100);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      if (Number.isNaN(loadMs) && chunk.toString().includes('finishing'))
        loadMs = performance.now() - started;
    });
    child.on('error', fail);
    child.on('exit', (code) => {
      clearInterval(sample);
      if (code !== 0) fail(new Error(`data:import exited with ${code}`));
      else done({ ms: performance.now() - started, loadMs, peakRssMib: peak / 1024, summary: stdout.trim() });
    });
  });
}

async function post(origin: string, token: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${origin}/api/tracker/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return response.json();
}

const FIRST_PAGE = {
  pageInfo: { page: 0, pageSize: 100, filters: 'all=', selectedFields: '', sort: '' },
  filterFields: {},
  searchKey: '',
};

interface Seen {
  totalElements: number;
  shippedCount: number;
  transporters: number;
}

/** What the client sees: the list's count, the totals box and the transporter lookup's first page. */
async function look(origin: string, token: string): Promise<Seen> {
  const page = (await post(origin, token, 'manifests/', {
    ...FIRST_PAGE,
    pageInfo: { ...FIRST_PAGE.pageInfo, pageSize: 1 },
  })) as {
    totalElements: number;
  };
  const totals = (await post(origin, token, 'manifests/aggregated_data/', {
    filterFields: {},
    searchKey: '',
  })) as {
    shipped_count: string;
  };
  const lookup = await fetch(
    `${origin}/api/tracker/shipments_and_waste_volumes/filters/?field=manifest_number&page=1&search=APP`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  const found = (await lookup.json()) as { results: unknown[] };
  return {
    totalElements: page.totalElements,
    shippedCount: Number(String(totals.shipped_count).replaceAll(/[ ,]/g, '')),
    transporters: found.results.length,
  };
}

async function appendWhileServing(db: string, dir: string, options: readonly string[]) {
  const setup = new BetterSqlite3(db);
  await createDemoAccounts(setup);
  setup.close();
  const { origin, child } = await startServerProcess(db, { timeoutMs: 120_000 });
  try {
    const signIn = await fetch(`${origin}/api/tracker/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: DEMO_USERS.inspector.username,
        password: DEMO_USERS.inspector.password,
      }),
    });
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    const firstPage = async () => {
      const started = performance.now();
      await post(origin, token, 'manifests/', FIRST_PAGE);
      return performance.now() - started;
    };
    for (let warm = 0; warm < 50; warm += 1) await firstPage();
    const before: number[] = [];
    const quietUntil = performance.now() + 5000;
    while (performance.now() < quietUntil) before.push(await firstPage());
    const seenBefore = await look(origin, token);

    const during: number[] = [];
    const seen: Seen[] = [];
    let finished = false;
    const importing = importProcess(db, dir, options).finally(() => {
      finished = true;
    });
    let lastLook = 0;
    while (!finished) {
      during.push(await firstPage());
      if (performance.now() - lastLook > 2000) {
        lastLook = performance.now();
        seen.push(await look(origin, token));
      }
    }
    const run = await importing;
    const seenAfter = await look(origin, token);
    return { run, before, during, seenBefore, seen, seenAfter };
  } finally {
    child.kill('SIGTERM');
  }
}

/**
 * DOC with this run's record in its place: the full run's at the top, a smaller run's in the section of
 * its size (added, larger sizes first, when there is none); every other record as it was.
 */
function withRecord(manifests: number, record: string[]): string {
  const text = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '';
  let full: string[] = [];
  const smaller = new Map<number, string[]>();
  let current = full;
  for (const line of text === '' ? [] : text.replace(/\n$/, '').split('\n')) {
    const size = SMALLER.exec(line)?.[1];
    if (size !== undefined) {
      current = [];
      smaller.set(Number(size.replaceAll(',', '')), current);
    }
    current.push(line);
  }
  if (manifests === FULL) full = record;
  else smaller.set(manifests, record);
  const records = [full, ...[...smaller].sort(([a], [b]) => b - a).map(([, lines]) => lines)];
  return `${records
    .filter((lines) => lines.length > 0)
    .map((lines) => lines.join('\n').trimEnd())
    .join('\n\n')}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      manifests: { type: 'string', default: String(FULL) },
      append: { type: 'string', default: '100000' },
      'batch-rows': { type: 'string' },
      'files-only': { type: 'boolean', default: false },
    },
  });
  const manifests = Number(values.manifests);
  const append = Number(values.append);
  const batchRows = values['batch-rows'];
  if (batchRows !== undefined && !/^[1-9]\d*$/.test(batchRows))
    throw new Error('--batch-rows must be a whole number above 0');
  if (!Number.isInteger(manifests) || manifests < 1 || manifests > FULL)
    throw new Error(`--manifests must be a whole number from 1 to ${FULL}`);
  const FILES = filesDir(manifests);
  const IMPORTED = importedDb(manifests);
  const loadStart = loadavg();
  const { base, added } = await ensureFiles(manifests, append);
  if (values['files-only']) return;

  console.error('Raw read and parse…');
  const raw = await rawRead(resolve(FILES, 'base'));
  console.error(`  ${count(raw.rows)} rows in ${seconds(raw.ms)} s`);

  console.error('Import into a new database…');
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${IMPORTED}${suffix}`, { force: true });
  const imported = await importProcess(IMPORTED, resolve(FILES, 'base'));
  console.error(
    `  ${seconds(imported.ms)} s (rows stored in ${seconds(imported.loadMs)} s), peak RSS ${rss(imported.peakRssMib)}`,
  );

  console.error('The same rows inserted again, alone…');
  const floor = insertFloor(IMPORTED);
  console.error(`  ${count(floor.rows)} rows in ${seconds(floor.ms)} s`);

  // The database as the append finds it, for the append's floor (the import left its WAL empty).
  removeFloorDb();
  copyFileSync(IMPORTED, FLOOR_DB);
  console.error(`Append ${count(append)} manifests while serving…`);
  const served = await appendWhileServing(
    IMPORTED,
    resolve(FILES, 'append'),
    batchRows === undefined ? [] : ['--batch-rows', batchRows],
  );
  console.error(
    `  ${seconds(served.run.ms)} s; first page p99 ${percentile(served.during, 99).toFixed(1)} ms`,
  );
  console.error("The append's rows inserted again into the database as it was, alone…");
  const appendedFloor = appendFloor(IMPORTED);
  console.error(`  ${count(appendedFloor.rows)} rows in ${seconds(appendedFloor.ms)} s`);

  const rows = base.handlers + base.manifests + base.transporters + base.wasteLines;
  const manifestsPerSecond = (base.manifests * 1000) / imported.loadMs;
  const rawManifestsPerSecond = (base.manifests * 1000) / raw.ms;
  const full = manifests === FULL;
  // A smaller run's record is a section of DOC: its headings one level down.
  const h = full ? '##' : '###';
  const lines = [
    full ? '# Import benchmark' : `## On the first ${count(manifests)} manifests`,
    '',
    `\`npm run bench:import${full ? '' : ` -- --manifests ${manifests}`}\` on ${new Date().toISOString().slice(0, 10)}, ${process.platform} ${process.arch}, Node ${process.version}, ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB.`,
    `Load average (1, 5, 15 min), the machine shared with other work: ${loadStart.map((value) => value.toFixed(2)).join(', ')} at the start, ${loadavg()
      .map((value) => value.toFixed(2))
      .join(', ')} at the end.`,
    '',
    `Files: ${full ? 'the 1M demo dataset' : `the first ${count(manifests)} manifests of the 1M demo dataset, their lines and every handler`} (\`data/bench-1m.db\`) written in EPA's layout (\`test/helpers/epa-files.ts\`): ` +
      `HD_REPORTING ${count(base.handlers)} handlers, EM_MANIFEST ${count(base.manifests)}, EM_TRANSPORTER ${count(base.transporters)}, ` +
      `EM_WASTE_LINE ${count(base.wasteLines)} lines in parts of 1,000,000; ${count(rows)} rows.`,
    '',
    `${h} Into a new database`,
    '',
    '| measure | value | target |',
    '|---|---:|---|',
    `| raw read, parse and map, no database (baseline) | ${seconds(raw.ms)} s, ${count(rawManifestsPerSecond)} manifests/s with their lines (${count((raw.rows * 1000) / raw.ms)} rows/s) | |`,
    `| the rows it stores inserted alone, one prepared INSERT each, no parsing or checks (the floor) | ${seconds(floor.ms)} s, ${count((base.manifests * 1000) / floor.ms)} manifests/s with their lines (${count((floor.rows * 1000) / floor.ms)} rows/s) | |`,
    `| \`data:import\`: rows read and stored | ${seconds(imported.loadMs)} s, ${count(manifestsPerSecond)} manifests/s with their lines (${count((rows * 1000) / imported.loadMs)} rows/s), ${(manifestsPerSecond / rawManifestsPerSecond).toFixed(2)}× the baseline's rate | ≥ 50,000 manifests/s |`,
    `| \`data:import\`: then indexes, search and lookup indexes (finalize) | ${seconds(imported.ms - imported.loadMs)} s | |`,
    `| \`data:import\`: whole run | ${seconds(imported.ms)} s, ${count((base.manifests * 1000) / imported.ms)} manifests/s | |`,
    `| peak RSS of the import process | ${rss(imported.peakRssMib)} | ≤ 300 MB |`,
    '',
    `${h} Appending ${count(added.manifests)} manifests (${count(added.wasteLines)} lines) to it while it is served`,
    '',
    'The tracker server (its CLI, own process) serves the imported database; one client asks for the manifests',
    "grid's first page (100 rows with their waste lines) back to back, 5 s before the import and all through it,",
    'and every 2 s reads the list count, the totals box and the manifest-number lookup for "APP" (the appended',
    `manifests' suffix).${batchRows === undefined ? '' : ` The append ran in transactions of ${count(Number(batchRows))} rows (\`--batch-rows\`).`}`,
    '',
    '| measure | value | target |',
    '|---|---:|---|',
    `| import time | ${seconds(served.run.ms)} s | ≤ 60 s |`,
    `| its manifests, transporters and lines inserted alone into the database as it was, every index of their tables in place, no derived data, one prepared INSERT each (the floor) | ${seconds(appendedFloor.ms)} s (${count(appendedFloor.rows)} rows) | |`,
    `| first page before the import: p50 / p99 (${served.before.length} requests) | ${percentile(served.before, 50).toFixed(1)} / ${percentile(served.before, 99).toFixed(1)} ms | |`,
    `| first page during the import: p50 / p99 (${served.during.length} requests) | ${percentile(served.during, 50).toFixed(1)} / ${percentile(served.during, 99).toFixed(1)} ms | p99 ≤ 50 ms |`,
    `| peak RSS of the import process | ${rss(served.run.peakRssMib)} | ≤ 300 MB |`,
    '',
    'What the client saw (list count, totals box, "APP" lookup entries on page 1), every 2 s, the rows where',
    'something changed:',
    '',
    '| when | totalElements | shipped_count | lookup entries |',
    '|---|---:|---:|---:|',
    `| before | ${count(served.seenBefore.totalElements)} | ${count(served.seenBefore.shippedCount)} | ${served.seenBefore.transporters} |`,
    ...served.seen.flatMap((seen, index) => {
      const before = index === 0 ? served.seenBefore : served.seen[index - 1];
      const changed =
        before?.totalElements !== seen.totalElements ||
        before.shippedCount !== seen.shippedCount ||
        before.transporters !== seen.transporters;
      return changed || index === served.seen.length - 1
        ? [
            `| during, ${(index + 1) * 2} s | ${count(seen.totalElements)} | ${count(seen.shippedCount)} | ${seen.transporters} |`,
          ]
        : [];
    }),
    `| after | ${count(served.seenAfter.totalElements)} | ${count(served.seenAfter.shippedCount)} | ${served.seenAfter.transporters} |`,
    '',
    'The import summaries:',
    '',
    '```',
    imported.summary,
    '',
    served.run.summary,
    '```',
    '',
  ];
  writeFileSync(DOC, withRecord(manifests, lines));
  console.error(`Wrote docs/benchmarks/import.md (${full ? 'the full run' : `the ${count(manifests)} run`})`);
}

await main();
