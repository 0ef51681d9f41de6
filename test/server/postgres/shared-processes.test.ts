/**
 * Several server processes on one PostgreSQL database (docs/deploy.md): each started as an operator starts
 * it (`npm run server -- --db postgres://…`), in a process of its own. A token issued by one works on the
 * other, a logout on one is refused by the other, failed sign-ins sent to both are counted together, and
 * rows committed to the database while a client reads are in both processes' next answers (totals, lookups
 * and pages), whatever each kept in memory. `--workers 2` serves one port from two processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../../server/src/postgres/pg-store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres-database.ts';
import { buildTestDatabase } from '../../helpers/tracker-server.ts';
import { INSPECTOR, PATHS, expectProblem, get, listBody, post, signInAs } from '../support.ts';

const CLI = resolve(import.meta.dirname, '../../../server/src/cli/server.ts');

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
