/**
 * A request no index can answer (a searchKey or lookup search of one or two characters, which scans the
 * table) does not hold the server: while one is in flight, other requests are answered, and it still answers
 * what the repository answers. The read pool's gate holds the scan in its worker for as long as the test
 * needs, so the evidence is the order of events, never a time.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app.ts';
import { ReadPool } from '../../server/src/workers/read-pool.ts';
import { openDatabase } from '../../server/src/db/open.ts';
import { GeneratorsRepository } from '../../server/src/repositories/generators-repository.ts';
import { ManifestsRepository } from '../../server/src/repositories/manifests-repository.ts';
import { manifestTotals } from '../../server/src/http/dialect.ts';
import { GENERATOR_FIELDS, MANIFEST_FIELDS } from '../../shared/api/index.ts';
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../../shared/query/definition.ts';
import { buildTestDatabase, signIn } from '../helpers/tracker-server.ts';
import { PATHS, get, listBody, post, type Answer } from './support.ts';

let dir: string;
let db: Database;
let app: FastifyInstance;
let baseUrl: string;
let token: string;
/** While gate[0] is 1, the pool's worker holds each job before running it. */
const gate = new Int32Array(new SharedArrayBuffer(4));
/** The requests the server has finished answering, in order: "<method> <url>". */
const answered: string[] = [];
/** Resolves when the server has started handling a request whose URL holds the text. */
const started = new Map<string, () => void>();

function hold(): void {
  Atomics.store(gate, 0, 1);
}

function release(): void {
  Atomics.store(gate, 0, 0);
  Atomics.notify(gate, 0);
}

function handlerReached(urlPart: string): Promise<void> {
  return new Promise((resolve) => started.set(urlPart, resolve));
}

beforeAll(async () => {
  const built = await buildTestDatabase(2000);
  dir = built.path.replace(/\/[^/]+$/, '');
  db = openDatabase(built.path);
  app = buildApp({ db, readPool: { size: 1, gate } });
  app.addHook('preHandler', (request, _reply, done) => {
    for (const [urlPart, resolve] of started) {
      if (`${request.url} ${JSON.stringify(request.body ?? '')}`.includes(urlPart)) resolve();
    }
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    answered.push(`${request.method} ${request.url} ${JSON.stringify(request.body ?? '')}`);
    done();
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the test server has no port');
  baseUrl = `http://127.0.0.1:${address.port}`;
  token = await signIn(baseUrl);
});

afterAll(async () => {
  release();
  await app?.close();
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Sends the scanning request, shows a first page is answered while it is held, then lets it finish. */
async function whileHeld(marker: string, scan: () => Promise<Answer>): Promise<Answer> {
  hold();
  const reached = handlerReached(marker);
  const pending = scan();
  await reached;
  const firstPage = await post(baseUrl, PATHS.manifests, token, listBody({ pageSize: 50 }));
  expect(firstPage.status).toBe(200);
  expect(answered.some((line) => line.includes(marker))).toBe(false);
  release();
  const answer = await pending;
  expect(answer.status).toBe(200);
  expect(answered.filter((line) => line.includes(marker))).toHaveLength(1);
  return answer;
}

describe('a scanning request runs off the main thread', () => {
  it('a short searchKey over the manifests lets a first page through, and answers as the repository does', async () => {
    const query = { searchKey: 'é', pageSize: 25 };
    const answer = await whileHeld('"searchKey":"é"', () =>
      post(baseUrl, PATHS.manifests, token, listBody(query)),
    );
    const expected = new ManifestsRepository(db).pageBytes({
      filterFields: {},
      searchKey: 'é',
      sort: MANIFEST_QUERY.defaultSort,
      page: 0,
      pageSize: 25,
      fields: MANIFEST_FIELDS,
    });
    expect(answer.body).toEqual(JSON.parse(expected.toString()));
  });

  it('so do the totals for a short searchKey', async () => {
    const answer = await whileHeld('"searchKey":"zq"', () =>
      post(baseUrl, '/api/tracker/manifests/aggregated_data/', token, { filterFields: {}, searchKey: 'zq' }),
    );
    expect(answer.body).toEqual(manifestTotals(new ManifestsRepository(db).totals({}, 'zq'), 'sample'));
  });

  it('so does a generators page for a one-character key', async () => {
    const answer = await whileHeld('"searchKey":"q"', () =>
      post(baseUrl, PATHS.generators, token, listBody({ searchKey: 'q', pageSize: 10 })),
    );
    const expected = new GeneratorsRepository(db).page({
      filterFields: {},
      searchKey: 'q',
      sort: GENERATOR_QUERY.defaultSort,
      page: 0,
      pageSize: 10,
      fields: GENERATOR_FIELDS,
    });
    expect(answer.body).toEqual(expected);
  });

  it('so does a short lookup search over the manifest numbers', async () => {
    const path = '/api/tracker/shipments_and_waste_volumes/filters/';
    const answer = await whileHeld('search=%C3%A9', () =>
      get(baseUrl, path, token, { field: 'manifest_number', page: '1', search: 'é' }),
    );
    expect(answer.body).toEqual({ results: [], pagination: { more: false } });
  });

  it('a short lookup search whose page lies among the first values in order stays on the main thread, answered as the scan answers it', async () => {
    hold();
    const path = '/api/tracker/shipments_and_waste_volumes/filters/';
    const reached = handlerReached('search=%C3%A9');
    const pending = get(baseUrl, path, token, { field: 'manifest_number', page: '1', search: 'é' });
    await reached;
    // The pool has one worker, held: these answers cannot have come from it.
    const repository = new ManifestsRepository(db);
    for (const page of [1, 2]) {
      const answer = await get(baseUrl, path, token, {
        field: 'manifest_number',
        page: String(page),
        search: '1',
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(repository.lookup('manifest_number', '1', page));
    }
    release();
    expect((await pending).status).toBe(200);
  });

  it('a search the trigram index answers stays on the main thread, even while a scan is held', async () => {
    hold();
    const reached = handlerReached('"searchKey":"ö"');
    const pending = post(baseUrl, PATHS.manifests, token, listBody({ searchKey: 'ö' }));
    await reached;
    // The pool has one worker, held: an answer now cannot have come from it.
    const indexed = await post(baseUrl, PATHS.manifests, token, listBody({ searchKey: 'inc' }));
    expect(indexed.status).toBe(200);
    const lookup = await get(baseUrl, '/api/tracker/shipments_and_waste_volumes/filters/', token, {
      field: 'manifest_number',
      page: '1',
      search: '123',
    });
    expect(lookup.status).toBe(200);
    release();
    expect((await pending).status).toBe(200);
  });
});

describe.runIf(process.platform === 'linux')('a read worker yields the CPU to the main thread', () => {
  /** The nice value of each of this process's threads, by thread id (field 19 of /proc/self/task/<id>/stat). */
  function niceByThread(): Map<number, number> {
    const nice = new Map<number, number>();
    for (const id of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
      // The command name in parentheses may hold spaces; the fields after it are space-separated.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      nice.set(Number(id), Number(fields[16]));
    }
    return nice;
  }

  it('runs its scans at the lowest priority, and leaves the main thread at its own', async () => {
    const before = niceByThread();
    const pool = new ReadPool(db.name, { size: 1 });
    try {
      await pool.run('manifestsTotals', {}, 'zq');
      const started = [...niceByThread()].filter(([id]) => !before.has(id));
      expect(started.map(([, nice]) => nice)).toContain(19);
      expect(niceByThread().get(process.pid)).toBe(before.get(process.pid));
    } finally {
      await pool.close();
    }
  });
});
