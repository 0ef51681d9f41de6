/**
 * Helpers of the import tests, one suite for both backends (TRACKER_TEST_BACKEND, vitest.config.ts): an
 * import target, a new SQLite file or a new PostgreSQL database, that `importFiles` writes into and the
 * test reads back with the same SQL on either (`?` parameters, counts cast to integers); and a database's
 * content as comparable values, read by key (tracking number, EPA handler id) rather than by row id so
 * that two databases built in different ways, or on different backends, compare.
 */
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { join } from 'node:path';
import type { Sql } from 'postgres';
import { expect } from 'vitest';
import { lookupLists } from '../../../server/src/db/lookup-lists.ts';
import { lookupSearchTable } from '../../../server/src/db/lookup-index.ts';
import { createTables } from '../../../server/src/db/schema.ts';
import { DEMO_ACCOUNTS, createDemoAccounts } from '../../../server/src/auth/demo-accounts.ts';
import type { ImportSink } from '../../../server/src/import/model/sink.ts';
import { PostgresSink } from '../../../server/src/import/postgres/pg-sink.ts';
import { ONE_PER_ROW } from '../../../server/src/postgres/pg-lookup-lists.ts';
import { numbered } from '../../../server/src/import/postgres/pg-steps.ts';
import { SqliteSink } from '../../../server/src/import/sqlite/sqlite-sink.ts';
import { pgUsers } from '../../../server/src/postgres/pg-accounts.ts';
import { connect } from '../../../server/src/postgres/pg-store.ts';
import { TEST_BACKEND, createTestDatabase, type TestDatabase } from '../../helpers/postgres-database.ts';

export const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;

/** Rows as arrays of values, in column order. */
type Rows = unknown[][];

export interface ImportTarget {
  backend: 'sqlite' | 'postgres';
  /** What importFiles is given: the file's path, or the database's URL. */
  db: string;
  rows(sql: string, ...params: unknown[]): Promise<Record<string, unknown>[]>;
  row(sql: string, ...params: unknown[]): Promise<Record<string, unknown> | undefined>;
  value(sql: string, ...params: unknown[]): Promise<unknown>;
  values(sql: string): Promise<Rows>;
  /** Runs a statement that returns nothing (DDL). */
  exec(sql: string): Promise<void>;
  /** Closes the test's connection; drops a PostgreSQL database. */
  close(): Promise<void>;
}

function sqliteTarget(path: string): ImportTarget {
  let open: Database | undefined;
  // Opened on first read, after the import has created the file.
  const db = () => (open ??= new BetterSqlite3(path));
  return {
    backend: 'sqlite',
    db: path,
    rows: (sql, ...params) =>
      Promise.resolve(
        db()
          .prepare(sql)
          .all(...params) as Record<string, unknown>[],
      ),
    row: (sql, ...params) =>
      Promise.resolve(
        db()
          .prepare(sql)
          .get(...params) as Record<string, unknown> | undefined,
      ),
    value: (sql, ...params) =>
      Promise.resolve(
        db()
          .prepare(sql)
          .pluck()
          .get(...params),
      ),
    values: (sql) => Promise.resolve(db().prepare(sql).raw().all() as Rows),
    exec: (sql) => {
      db().exec(sql);
      return Promise.resolve();
    },
    close: () => {
      open?.close();
      return Promise.resolve();
    },
  };
}

async function postgresTarget(): Promise<ImportTarget> {
  const database: TestDatabase = await createTestDatabase();
  const sql: Sql = await connect(database.url, { max: 1 });
  const run = (text: string, params: unknown[]) => sql.unsafe(numbered(text), params as never[]);
  return {
    backend: 'postgres',
    db: database.url,
    rows: async (text, ...params) => (await run(text, params)).map((row) => ({ ...row })),
    row: async (text, ...params) => {
      const [first] = await run(text, params);
      return first && { ...first };
    },
    value: async (text, ...params) => ((await run(text, params).values()) as Rows)[0]?.[0],
    values: async (text) => (await run(text, []).values()) as Rows,
    exec: async (text) => {
      await sql.unsafe(text);
    },
    close: async () => {
      await sql.end();
      await database.drop();
    },
  };
}

/** A new, empty target on the backend this run tests: `name` names its file in `dir` on SQLite. */
export async function newTarget(dir: string, name: string): Promise<ImportTarget> {
  return TEST_BACKEND === 'postgres' ? await postgresTarget() : sqliteTarget(join(dir, name));
}

/** A SQLite target whatever the backend: what a PostgreSQL import is compared with. */
export function sqliteFile(path: string): ImportTarget {
  return sqliteTarget(path);
}

/** Each table's columns as SQLite's schema orders them (PostgreSQL's add their own, such as search_text). */
const COLUMNS = (() => {
  const db = new BetterSqlite3(':memory:');
  try {
    createTables(db);
    const of = (table: string) =>
      db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[];
    return {
      generators: of('generators').filter((column) => column !== 'id'),
      manifests: of('manifests').filter((column) => !['id', 'generator_id', 'import_run'].includes(column)),
      lines: of('waste_lines').filter((column) => column !== 'manifest_id'),
      lineSetTotals: of('manifest_line_set_totals'),
    };
  } finally {
    db.close();
  }
})();

/**
 * Every served table's rows by key, and the lookup lists in their stored order: on SQLite all of them, on
 * PostgreSQL the two of one value per row (it reads the others from the rows: it keeps no other lists).
 */
export async function contentOf(target: ImportTarget): Promise<Record<string, unknown[]>> {
  const rows = (sql: string) => target.values(sql);
  const byGenerator = (table: string, column: string) =>
    rows(
      `SELECT g.epa_handler_id, s.${column} FROM ${table} s JOIN generators g ON g.id = s.generator_id ORDER BY 1, 2`,
    );
  const content: Record<string, unknown[]> = {
    generators: await rows(`SELECT ${COLUMNS.generators.join(', ')} FROM generators ORDER BY epa_handler_id`),
    naics: await rows(
      `SELECT g.epa_handler_id, n.naics_code, n.naics_desc, n.is_active FROM generator_naics n
       JOIN generators g ON g.id = n.generator_id ORDER BY 1, 2`,
    ),
    shippedYears: await byGenerator('generator_shipped_years', 'year'),
    wasteCodes: await byGenerator('generator_waste_codes', 'code'),
    handlingCodes: await byGenerator('generator_handling_codes', 'code'),
    statuses: await byGenerator('generator_statuses', 'status'),
    methodLines: await rows(
      `SELECT g.epa_handler_id, s.code, s.lines FROM generator_method_lines s
       JOIN generators g ON g.id = s.generator_id ORDER BY 1, 2`,
    ),
    manifests: await rows(
      `SELECT ${COLUMNS.manifests.map((column) => `m.${column}`).join(', ')}, g.epa_handler_id
       FROM manifests m JOIN generators g ON g.id = m.generator_id ORDER BY m.manifest_tracking_number`,
    ),
    wasteLines: await rows(
      `SELECT m.manifest_tracking_number, ${COLUMNS.lines.map((column) => `w.${column}`).join(', ')}
       FROM waste_lines w JOIN manifests m ON m.id = w.manifest_id ORDER BY 1, w.waste_line_number`,
    ),
    transporters: await rows(
      `SELECT m.manifest_tracking_number, t.transporter_order, t.epa_id, t.name FROM manifest_transporters t
       JOIN manifests m ON m.id = t.manifest_id ORDER BY 1, 2`,
    ),
    lineSets: await rows(
      `SELECT member, code, shipped_date, manifest_tracking_number, tons, containers, streams
       FROM manifest_line_sets ORDER BY 1, 2, 3, 4`,
    ),
    lineSetTotals: await rows(
      `SELECT ${COLUMNS.lineSetTotals.join(', ')} FROM manifest_line_set_totals ORDER BY 1, 2`,
    ),
    wasteLinesJson: await rows(
      `SELECT m.manifest_tracking_number, j.json FROM manifest_waste_lines_json j
       JOIN manifests m ON m.id = j.manifest_id ORDER BY 1`,
    ),
    // Stored before rounding, as each database sums them (SQLite in floating point, PostgreSQL exactly in
    // numeric: 5.8652999999999995 and 5.8653), and rounded as the definition says when read (db/tallies.ts).
    tallies: (await rows('SELECT name, value FROM data_tallies ORDER BY name')).map(([name, value]) => [
      name,
      Number(Number(value).toPrecision(12)),
    ]),
  };
  if (target.backend === 'sqlite') {
    for (const [name] of lookupLists()) {
      content[name] = await rows(`SELECT value, text FROM ${lookupSearchTable(name)} ORDER BY rowid`);
    }
  } else {
    for (const { name, table } of ONE_PER_ROW) {
      content[name] = await rows(`SELECT value, value FROM ${table} ORDER BY pos`);
    }
  }
  return content;
}

/** The lists of one value per row, which both backends keep in their stored order. */
export function onePerRowLists(content: Record<string, unknown[]>): Record<string, unknown[]> {
  return Object.fromEntries(ONE_PER_ROW.map(({ name }) => [name, content[name] ?? []]));
}

/** The content two backends both hold (SQLite's lookup lists left out). */
export function servedContent(content: Record<string, unknown[]>): Record<string, unknown[]> {
  const names = new Set(lookupLists().map(([name]) => name));
  return Object.fromEntries(Object.entries(content).filter(([name]) => !names.has(name)));
}

/**
 * Each search index holds exactly its table's rows: FTS5's own check on SQLite; on PostgreSQL, where search
 * reads a generated column of the row itself (pg-schema.ts), that each trigram index is valid and ready.
 */
export async function expectSearchIndexesIntact(target: ImportTarget): Promise<void> {
  if (target.backend === 'postgres') {
    const indexes = await target.values(
      `SELECT c.relname, i.indisvalid AND i.indisready FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE c.relname IN ('manifests_search', 'generators_search') ORDER BY 1`,
    );
    expect(indexes).toEqual([
      ['generators_search', true],
      ['manifests_search', true],
    ]);
    return;
  }
  const db = new BetterSqlite3(target.db);
  try {
    for (const table of ['manifests_search', 'generators_search']) {
      expect(
        () => db.exec(`INSERT INTO ${table} (${table}) VALUES ('integrity-check')`),
        table,
      ).not.toThrow();
    }
  } finally {
    db.close();
  }
}

/**
 * How many times `run` updates a row of manifests and of waste_lines, changed or not (a row it inserts is
 * not counted, nor its update in the transaction that inserts it on neither backend: a trigger per row
 * updated, added for the run, then dropped).
 */
export async function rowsWritten(
  target: ImportTarget,
  run: () => Promise<unknown>,
): Promise<{ manifests: number; wasteLines: number }> {
  const tables = ['manifests', 'waste_lines'];
  const setUp =
    target.backend === 'postgres'
      ? [
          'CREATE TABLE test_written (tbl text NOT NULL)',
          `CREATE FUNCTION test_written() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN INSERT INTO test_written VALUES (TG_TABLE_NAME); RETURN NULL; END $$`,
          ...tables.map(
            (table) =>
              `CREATE TRIGGER test_${table}_written AFTER UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION test_written()`,
          ),
        ]
      : [
          'CREATE TABLE test_written (tbl TEXT NOT NULL)',
          ...tables.map(
            (table) => `CREATE TRIGGER test_${table}_written AFTER UPDATE ON ${table}
             BEGIN INSERT INTO test_written VALUES ('${table}'); END`,
          ),
        ];
  const tearDown = [
    ...tables.map((table) =>
      target.backend === 'postgres'
        ? `DROP TRIGGER test_${table}_written ON ${table}`
        : `DROP TRIGGER test_${table}_written`,
    ),
    'DROP TABLE test_written',
    ...(target.backend === 'postgres' ? ['DROP FUNCTION test_written()'] : []),
  ];
  for (const statement of setUp) await target.exec(statement);
  try {
    await run();
    const counted = new Map(
      (await target.values('SELECT tbl, count(*) FROM test_written GROUP BY tbl')).map(([table, count]) => [
        String(table),
        Number(count),
      ]),
    );
    return { manifests: counted.get('manifests') ?? 0, wasteLines: counted.get('waste_lines') ?? 0 };
  } finally {
    for (const statement of tearDown) await target.exec(statement);
  }
}

/** The sink importFiles would open on the target, for tests that wrap it. */
export async function openSink(target: ImportTarget): Promise<ImportSink> {
  return target.backend === 'postgres' ? await PostgresSink.open(target.db) : new SqliteSink(target.db);
}

/** `sink` with some of its calls replaced (to look between batches, or to die in one), the rest passed on. */
export function wrapSink(sink: ImportSink, replaced: Partial<ImportSink>): ImportSink {
  return {
    begin: (files, options) => sink.begin(files, options),
    write: (batch) => sink.write(batch),
    releaseHeld: (after, limit) => sink.releaseHeld(after, limit),
    finish: (onPhase) => sink.finish(onPhase),
    reportRows: () => sink.reportRows(),
    close: () => sink.close(),
    ...replaced,
  };
}

/** The demo's accounts (docs/api.md) in the target, so that a server on it signs them in. */
export async function addDemoAccounts(target: ImportTarget): Promise<void> {
  if (target.backend === 'sqlite') {
    const db = new BetterSqlite3(target.db);
    try {
      await createDemoAccounts(db);
    } finally {
      db.close();
    }
    return;
  }
  const sql = await connect(target.db, { max: 1 });
  try {
    for (const account of DEMO_ACCOUNTS) {
      await pgUsers.add(sql, account.username, account.password, account.scopes, { replace: true });
    }
  } finally {
    await sql.end();
  }
}
