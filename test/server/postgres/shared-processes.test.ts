/**
 * Several server processes on one PostgreSQL database (docs/deploy.md): each started as an operator starts
 * it (`npm run server -- --db postgres://…`), in a process of its own. A token issued by one works on the
 * other, a logout on one is refused by the other, failed sign-ins sent to both are counted together, and
 * rows committed to the database while a client reads are in both processes' next answers (totals, lookups
 * and pages), whatever each kept in memory, whether an operator's SQL or `npm run data:import` in another
 * process wrote them. `--workers 2` serves one port from two processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POOL_SIZE, connect } from '../../../server/src/postgres/pg-store.ts';
import { createTestDatabase, endWhileWaiting, type TestDatabase } from '../../helpers/postgres-database.ts';
import { buildTestDatabase } from '../../helpers/tracker-server.ts';
import { INSPECTOR, PATHS, expectProblem, get, listBody, post, signInAs } from '../support.ts';

const CLI = resolve(import.meta.dirname, '../../../server/src/cli/server.ts');
const IMPORT_CLI = resolve(import.meta.dirname, '../../../server/src/cli/data-import.ts');
const FIXTURES = resolve(import.meta.dirname, '../import/fixtures');

interface Running {
  origin: string;
  child: ChildProcess;
}

/** `npm run server` on the database, on a free port; resolves with its origin once it listens. */
function startServer(url: string, extra: string[] = []): Promise<Running> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [CLI, '--db', url, '--port', '0', '--log-level', 'silent', ...extra],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      const origin = /http:\/\/\S+/.exec(chunk.toString())?.[0];
      if (origin) done({ origin, child });
    });
    child.on('exit', (code) => fail(new Error(`the server exited (${code}): ${stderr}`)));
  });
}

function stop(running: Running | undefined): Promise<void> {
  if (!running || running.child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    running.child.once('exit', () => done());
    running.child.kill('SIGTERM');
  });
}

let dir: string;
let database: TestDatabase;
let first: Running;
let second: Running;

beforeAll(async () => {
  const built = await buildTestDatabase(1500, 11);
  dir = built.dir;
  database = await createTestDatabase(built.path);
  [first, second] = await Promise.all([startServer(database.url), startServer(database.url)]);
});

afterAll(async () => {
  await Promise.all([stop(first), stop(second)]);
  await database?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('two server processes on one database', () => {
  it('accept a token issued by either, and refuse it on both after a logout on one', async () => {
    const session = await signInAs(first.origin, INSPECTOR.username, INSPECTOR.password);
    expect((await post(second.origin, PATHS.generatorTotals, session.token, {})).status).toBe(200);
    expect((await post(first.origin, PATHS.generatorTotals, session.token, {})).status).toBe(200);
    expect((await post(second.origin, PATHS.logout, session.token, undefined)).status).toBe(204);
    expectProblem(await post(first.origin, PATHS.generatorTotals, session.token, {}), 401);
    expectProblem(await post(second.origin, PATHS.generatorTotals, session.token, {}), 401);
  });

  it('count failed sign-ins sent to both together: the sixth guess is refused, wherever it goes', async () => {
    const login = (origin: string, password: string) =>
      post(origin, PATHS.login, undefined, { username: 'generators-only', password });
    const answers = await Promise.all(
      [first, second, first, second, first].map((server, index) => login(server.origin, `wrong-${index}`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401]);
    const sixth = await login(second.origin, 'generators-demo');
    expectProblem(sixth, 429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expectProblem(await login(first.origin, 'generators-demo'), 429);
  });

  it('answer with rows committed while they serve: totals, lookups and pages on both', async () => {
    const session = await signInAs(first.origin, INSPECTOR.username, INSPECTOR.password);
    const totals = async (origin: string) =>
      (await post(origin, PATHS.manifestTotals, session.token, {})).body as { shipped_count: string };
    const lookup = async (origin: string, field: string, search: string) =>
      (await get(origin, PATHS.manifestLookup, session.token, { field, search, page: 1 })).body as {
        results: { value: string }[];
      };
    const before = await Promise.all([totals(first.origin), totals(second.origin)]);
    // Read once so that each process holds its totals and the facility list in memory.
    await Promise.all([
      lookup(first.origin, 'designated_facility_name', ''),
      lookup(second.origin, 'designated_facility_name', ''),
    ]);

    const sql = await connect(database.url, { max: 1 });
    try {
      await sql`
        INSERT INTO manifests (id, manifest_tracking_number, generator_id, generator_name, generator_epa_id,
          generator_location_state, transporter, designated_facility_name, shipped_date, received_date,
          total_waste_quantity_tons, container_count, waste_stream_count)
        SELECT (SELECT max(id) + 1 FROM manifests), '999000001ZZZ', generator_id, generator_name,
          generator_epa_id, generator_location_state, transporter, 'Zephyr Late Arrivals Facility',
          '2099-01-01', '2099-01-02', 1.5, 1, 0
        FROM manifests ORDER BY id LIMIT 1`;
    } finally {
      await sql.end();
    }

    for (const server of [first, second]) {
      const after = await totals(server.origin);
      const count = (text: string) => Number(text.replaceAll(',', ''));
      expect(count(after.shipped_count)).toBe(count(before[0]?.shipped_count ?? '0') + 1);
      const facilities = await lookup(server.origin, 'designated_facility_name', 'zephyr late');
      expect(facilities.results.map((entry) => entry.value)).toEqual(['Zephyr Late Arrivals Facility']);
      const numbers = await lookup(server.origin, 'manifest_number', '999000001');
      expect(numbers.results.map((entry) => entry.value)).toEqual(['999000001ZZZ']);
      const page = await post(server.origin, PATHS.manifests, session.token, listBody({ pageSize: 1 }));
      expect(
        (page.body as { content: { manifest_tracking_number: string }[] }).content[0]
          ?.manifest_tracking_number,
      ).toBe('999000001ZZZ');
    }
  });
});

describe('an import while a client pages', () => {
  it('shows the rows `npm run data:import` commits from another process in the next pages, totals and lookups', async () => {
    const session = await signInAs(second.origin, INSPECTOR.username, INSPECTOR.password);
    // What the client sees: a page of the list with its count, the totals box, a lookup of the imported
    // tracking numbers, on the process that serves it throughout (its memory read before the import).
    const look = async () => {
      const page = await post(
        second.origin,
        PATHS.manifests,
        session.token,
        listBody({ pageSize: 20, sort: 'manifest_tracking_number asc' }),
      );
      const totals = await post(second.origin, PATHS.manifestTotals, session.token, {});
      const lookup = await get(second.origin, PATHS.manifestLookup, session.token, {
        field: 'manifest_number',
        search: '0000001',
        page: 1,
      });
      return {
        listed: (page.body as { totalElements: number }).totalElements,
        shipped: Number((totals.body as { shipped_count: string }).shipped_count.replaceAll(',', '')),
        numbers: (lookup.body as { results: { value: string }[] }).results.map((entry) => entry.value),
      };
    };
    const before = await look();
    expect(before.numbers).toEqual([]);

    // One row a transaction, so that the client's pages fall between the import's commits.
    const importer = spawn(
      process.execPath,
      [
        IMPORT_CLI,
        '--db',
        database.url,
        '--batch-rows',
        '1',
        '--report',
        join(dir, 'import-report.csv'),
        join(FIXTURES, 'week1'),
        join(FIXTURES, 'week2'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    importer.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    importer.stdout.resume();
    const exited = once(importer, 'exit') as Promise<[number | null]>;
    let running = true;
    void exited.then(() => (running = false));
    const during: Awaited<ReturnType<typeof look>>[] = [];
    while (running) during.push(await look());
    const [code] = await exited;
    expect(stderr).toMatch(/Imported into postgres:\/\//);
    expect(code).toBe(0);

    const after = await look();
    const imported = ['000000101ELC', '000000102ELC', '000000104FLE', '000000106ELC', '000000199ELC'];
    expect(after.numbers).toEqual(imported);
    expect(after.listed).toBe(before.listed + imported.length);
    expect(after.shipped).toBe(before.shipped + imported.length);
    // The client paged while the import ran, and never saw the data go back.
    expect(during.length).toBeGreaterThan(0);
    for (const [index, seen] of during.entries()) {
      const previous = during[index - 1] ?? before;
      expect(seen.listed).toBeGreaterThanOrEqual(previous.listed);
      expect(seen.shipped).toBeGreaterThanOrEqual(previous.shipped);
    }
    // The other process, which had read its totals before, answers the same.
    const other = await post(first.origin, PATHS.manifestTotals, session.token, {});
    expect(Number((other.body as { shipped_count: string }).shipped_count.replaceAll(',', ''))).toBe(
      after.shipped,
    );
  });
});

describe('a connection PostgreSQL ends while a request uses it (a restart, an administrator)', () => {
  it('answers that request with a problem, stays up, and answers the next ones on a new connection', async () => {
    const served = await startServer(database.url);
    const admin = await connect(database.url, { max: 1 });
    try {
      // The sign-in's transaction (the throttle's, pg-accounts.ts) waits on a table another session has
      // locked, and its connection is ended as it waits.
      const cut = await admin.begin(async (tx) => {
        await tx`LOCK TABLE sign_in_failures IN ACCESS EXCLUSIVE MODE`;
        const signingIn = post(served.origin, PATHS.login, undefined, {
          username: INSPECTOR.username,
          password: INSPECTOR.password,
        });
        await endWhileWaiting(tx);
        return await signingIn;
      });
      expectProblem(cut, 500);

      // As many requests at once as the server keeps connections (8): each connection of its pool, the
      // ended one too, answers.
      const session = await signInAs(served.origin, INSPECTOR.username, INSPECTOR.password);
      const pages = await Promise.all(
        Array.from({ length: 2 * DEFAULT_POOL_SIZE }, (_, index) =>
          post(served.origin, PATHS.manifests, session.token, listBody({ pageSize: 20, page: index + 1 })),
        ),
      );
      expect(pages.map((page) => page.status)).toEqual(pages.map(() => 200));
      expect(served.child.exitCode).toBeNull();
    } finally {
      await admin.end();
      await stop(served);
    }
  });
});

describe('--workers 2', () => {
  it('serves one port from two processes that share the sign-ins', async () => {
    const served = await startServer(database.url, ['--workers', '2']);
    try {
      const session = await signInAs(served.origin, INSPECTOR.username, INSPECTOR.password);
      // Each request on a new connection, so that both workers take some.
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          fetch(`${served.origin}${PATHS.generatorTotals}`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${session.token}`,
              'content-type': 'application/json',
              connection: 'close',
            },
            body: '{}',
          }).then((response) => response.status),
        ),
      );
      expect(answers).toEqual(Array.from({ length: 12 }, () => 200));
    } finally {
      await stop(served);
    }
  });

  it('is refused on a SQLite file, saying why', async () => {
    const refused = spawn(process.execPath, [CLI, '--db', 'some.db', '--workers', '2'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    refused.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((done) => refused.on('exit', done));
    expect(code).toBe(2);
    expect(stderr).toMatch(/--workers needs a PostgreSQL database/);
  });
});
