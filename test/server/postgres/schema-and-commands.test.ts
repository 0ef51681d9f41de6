/**
 * PostgreSQL's schema holds the same tables and columns as SQLite's (a load copies every column; a
 * missing one would be lost), and the commands an operator runs work on it: `data:demo --out postgres://…`
 * into an empty database, refusing one that holds data without --force, and `npm run users`; and the lock
 * that keeps one writer at a time in a database is that database's alone.
 */
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTables } from '../../../server/src/db/schema.ts';
import { PostgresSink } from '../../../server/src/import/postgres/pg-sink.ts';
import { COPIED_TABLES } from '../../../server/src/postgres/pg-load.ts';
import { connect } from '../../../server/src/postgres/pg-store.ts';
import {
  holdsWriterLock,
  takeWriterLock,
  writerLockHolder,
} from '../../../server/src/postgres/pg-writer-lock.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres-database.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

function run(
  script: string,
  args: string[],
  password?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(ROOT, script), ...args], {
      env: { ...process.env, TRACKER_PASSWORD: password ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

describe('the PostgreSQL schema', () => {
  it('has every column of every table SQLite keeps (and only the stored search text besides)', async () => {
    const sqlite = new Database(':memory:');
    createTables(sqlite);
    const sql = await connect(database.url, { max: 1 });
    try {
      for (const table of COPIED_TABLES) {
        const expected = sqlite
          .prepare('SELECT name FROM pragma_table_info(?)')
          .pluck()
          .all(table) as string[];
        const actual = (
          await sql<{ name: string }[]>`
            SELECT column_name AS name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = ${table} ORDER BY ordinal_position`
        ).map((row) => row.name);
        expect(
          actual.filter((name) => name !== 'search_text'),
          table,
        ).toEqual(expected);
      }
    } finally {
      await sql.end();
      sqlite.close();
    }
  });
});

describe('the commands on PostgreSQL', () => {
  it('data:demo builds the demo data into an empty database and refuses one with data', async () => {
    const built = await run('server/src/cli/data-demo.ts', [
      '--out',
      database.url,
      '--manifests',
      '200',
      '--seed',
      '3',
    ]);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toMatch(/200 manifests/);
    const sql = await connect(database.url, { max: 1 });
    try {
      const [counts] = await sql<{ manifests: number; lines: number }[]>`
        SELECT (SELECT count(*) FROM manifests)::int AS manifests, (SELECT count(*) FROM waste_lines)::int AS lines`;
      expect(counts?.manifests).toBe(200);
      expect(counts?.lines).toBeGreaterThan(200);
      // A waste-line filter probes each manifest's line sets by (manifest, member, code): the index the
      // build makes for it, and no narrower one on the manifest alone beside it.
      const lineSetIndexes = await sql<{ definition: string }[]>`
        SELECT indexdef AS definition FROM pg_indexes WHERE tablename = 'manifest_line_sets' ORDER BY indexname`;
      const manifestLed = lineSetIndexes
        .map((index) => /\((.+)\)$/.exec(index.definition)?.[1])
        .filter((columns) => columns?.startsWith('manifest_id'));
      expect(manifestLed).toEqual(['manifest_id, member, code']);
    } finally {
      await sql.end();
    }
    const again = await run('server/src/cli/data-demo.ts', ['--out', database.url, '--manifests', '200']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already holds data; add --force/);

    // While an import writes into it, not even --force: the build would empty the tables under the import.
    const importing = await PostgresSink.open(database.url);
    try {
      const refused = await run('server/src/cli/data-demo.ts', [
        '--out',
        database.url,
        '--manifests',
        '100',
        '--force',
      ]);
      expect(refused.code).toBe(2);
      expect(refused.stderr.trim()).toMatch(
        /^another import or load is writing into .+: wait until it ends$/,
      );
    } finally {
      await importing.close();
    }
    const counted = await connect(database.url, { max: 1 });
    try {
      const [kept] = await counted<{ manifests: number }[]>`SELECT count(*)::int AS manifests FROM manifests`;
      expect(kept?.manifests).toBe(200);
    } finally {
      await counted.end();
    }
  });

  it('npm run users adds, lists and removes accounts', async () => {
    const added = await run(
      'server/src/cli/users.ts',
      ['--db', database.url, 'add', 'grace', '--scopes', 'manifests'],
      'grace-password-1',
    );
    expect(added.code, added.stderr).toBe(0);
    const listed = await run('server/src/cli/users.ts', ['--db', database.url, 'list']);
    expect(listed.stdout).toMatch(/^grace\tmanifests\t/m);
    expect(listed.stdout).toMatch(/^inspector\tgenerators,manifests\t/m);
    const duplicate = await run(
      'server/src/cli/users.ts',
      ['--db', database.url, 'add', 'grace', '--scopes', 'manifests'],
      'grace-password-2',
    );
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toMatch(/user "grace" already exists/);
    expect((await run('server/src/cli/users.ts', ['--db', database.url, 'remove', 'grace'])).code).toBe(0);
    expect((await run('server/src/cli/users.ts', ['--db', database.url, 'list'])).stdout).not.toMatch(
      /^grace/m,
    );
  });
});

describe('the lock that keeps one writer at a time', () => {
  it("is each database's own: writers into two databases of one cluster each hold theirs", async () => {
    const other = await createTestDatabase();
    const writers = await Promise.all(
      [database.url, other.url].map((url) => connect(url, { max: 1, lasting: true })),
    );
    try {
      for (const writer of writers) expect(await takeWriterLock(writer)).toBe(true);
      for (const writer of writers) {
        const [session] = await writer<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        expect(await holdsWriterLock(writer)).toBe(true);
        expect(await writerLockHolder(writer)).toBe(session?.pid);
      }
    } finally {
      await Promise.all(writers.map((writer) => writer.end()));
      await other.drop();
    }
  });
});
