/**
 * Scans for clients that have gone: over real sockets, a scan whose client closes the connection is
 * dropped from the read pool's queue, or, running, its worker is stopped, and the server says so in its log;
 * the next scan is answered by a fresh worker. The pool's gate holds each job in its worker for as long as
 * the test needs, so the evidence is the order of events, never a time.
 */
import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app.ts';
import { openDatabase } from '../../server/src/db/open.ts';
import { ReadJobDropped, ReadPool } from '../../server/src/workers/read-pool.ts';
import { buildTestDatabase, signIn } from '../helpers/tracker-server.ts';
import { PATHS, listBody, post } from './support.ts';

let dir: string;
let db: Database;
let app: FastifyInstance;
let baseUrl: string;
let token: string;
const gate = new Int32Array(new SharedArrayBuffer(4));
const logs: { msg?: string; path?: string }[] = [];
const reached = new Map<string, () => void>();

const hold = () => Atomics.store(gate, 0, 1);
function release(): void {
  Atomics.store(gate, 0, 0);
  Atomics.notify(gate, 0);
}

beforeAll(async () => {
  const built = await buildTestDatabase(1000);
  dir = built.dir;
  db = openDatabase(built.path);
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line.trim() !== '') logs.push(JSON.parse(line) as (typeof logs)[number]);
      done();
    },
  });
  app = buildApp({ db, readPool: { size: 1, gate }, logger: { level: 'info', stream } });
  app.addHook('preHandler', (request, _reply, done) => {
    for (const [marker, resolve] of reached)
      if (JSON.stringify(request.body ?? '').includes(marker)) resolve();
    done();
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the test server has no port');
  baseUrl = `http://127.0.0.1:${address.port}`;
  token = await signIn(baseUrl);
}, 60_000);

afterAll(async () => {
  release();
  await app?.close();
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Sends a scanning page request (a one-character search) that its caller can abandon. */
function scan(key: string): {
  abandon: () => void;
  answer: Promise<Response | undefined>;
  started: Promise<void>;
} {
  const controller = new AbortController();
  const started = new Promise<void>((resolve) => reached.set(`"searchKey":"${key}"`, resolve));
  const answer = fetch(`${baseUrl}${PATHS.manifests}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(listBody({ searchKey: key, pageSize: 10 })),
    signal: controller.signal,
  }).catch(() => undefined);
  return { abandon: () => controller.abort(), answer, started };
}

const dropped = () => logs.filter((line) => line.msg === 'scan dropped: the client left').length;

describe('a scan whose client has gone', () => {
  it('is dropped from the queue, or stopped while it runs, and the next scan is answered', async () => {
    hold();
    const running = scan('q');
    await running.started;
    const queued = scan('z');
    await queued.started;

    queued.abandon();
    await expect.poll(dropped).toBe(1);
    running.abandon();
    await expect.poll(dropped).toBe(2);

    release();
    const next = await post(baseUrl, PATHS.manifests, token, listBody({ searchKey: 'k', pageSize: 10 }));
    expect(next.status).toBe(200);
  });
});

describe('the read pool on its own', () => {
  it('rejects a queued job at once when its signal aborts, and a running one, stopping its worker', async () => {
    hold();
    const pool = new ReadPool(db.name, { size: 1, gate });
    try {
      const first = new AbortController();
      const second = new AbortController();
      const running = pool.runUntil(first.signal, 'manifestsTotals', {}, 'q');
      const waiting = pool.runUntil(second.signal, 'manifestsTotals', {}, 'z');
      second.abort();
      await expect(waiting).rejects.toBeInstanceOf(ReadJobDropped);
      first.abort();
      await expect(running).rejects.toBeInstanceOf(ReadJobDropped);
      release();
      await expect(pool.run('manifestsTotals', {}, 'k')).resolves.toMatchObject({
        shipped_count: expect.any(Number) as unknown,
      });
      await expect(pool.runUntil(AbortSignal.abort(), 'manifestsTotals', {}, 'k')).rejects.toBeInstanceOf(
        ReadJobDropped,
      );
    } finally {
      release();
      await pool.close();
    }
  });
});
