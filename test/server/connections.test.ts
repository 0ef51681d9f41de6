/**
 * Slow clients and foreign Host names (docs/api.md "Limits" and "Host names"): a stalled body or header is
 * closed, connections past the cap are refused, and a loopback server answers only loopback names and the
 * names it was started with. Raw sockets and node:http, because fetch neither stalls nor sets Host.
 */
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_LIMITS, buildApp, type AppOptions } from '../../server/src/app.ts';
import { openDatabase } from '../../server/src/db/open.ts';
import { hostName, hostPolicyFor, isAllowedHost } from '../../server/src/http/host-check.ts';
import { serve } from '../../server/src/server.ts';
import { buildTestDatabase } from '../helpers/tracker-server.ts';
import { PATHS } from './support.ts';

let dir: string;
let dbPath: string;
let db: Database;

beforeAll(async () => {
  const built = await buildTestDatabase(300);
  dir = built.dir;
  dbPath = built.path;
  db = openDatabase(dbPath);
});

afterAll(() => {
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function listening(
  options: Omit<AppOptions, 'db'>,
): Promise<{ app: FastifyInstance; port: number; close(): Promise<void> }> {
  const app = buildApp({ db, warm: false, ...options });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the test server has no port');
  return { app, port: address.port, close: () => app.close() };
}

/** Everything the server writes on a socket until it closes the connection. */
async function untilClosed(socket: Socket): Promise<string> {
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  await once(socket, 'close');
  return received;
}

async function opened(port: number): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port });
  await once(socket, 'connect');
  return socket;
}

/** One request with the given Host header; answers the status and the parsed problem, if any. */
function withHost(
  port: number,
  host: string,
  path: string = PATHS.generatorTotals,
): Promise<{ status: number; body: { status?: number; detail?: string } }> {
  return new Promise((done, fail) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { host, 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () =>
          done({ status: response.statusCode ?? 0, body: text ? (JSON.parse(text) as object) : {} }),
        );
      },
    );
    outgoing.on('error', fail);
    outgoing.end('{}');
  });
}

describe('slow clients', () => {
  it('has timeouts and a connection cap by default', async () => {
    const server = await listening({});
    try {
      expect(CONNECTION_LIMITS).toEqual({
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        idleTimeoutMs: 60_000,
        maxConnections: 512,
      });
      const http = server.app.server;
      expect(http.headersTimeout).toBe(10_000);
      expect(http.requestTimeout).toBe(30_000);
      expect(http.keepAliveTimeout).toBe(5_000);
      expect(http.timeout).toBe(60_000);
      expect(http.maxConnections).toBe(512);
    } finally {
      await server.close();
    }
  });

  it('answers a sign-in whose body stops short of its Content-Length with 408 and closes it', async () => {
    const server = await listening({ connections: { requestTimeoutMs: 500, headersTimeoutMs: 500 } });
    try {
      const socket = await opened(server.port);
      socket.write(
        `POST ${PATHS.login} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          'Content-Length: 100\r\n\r\n{"user',
      );
      const received = await untilClosed(socket);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await server.close();
    }
  });

  it('closes a connection whose headers never finish', async () => {
    const server = await listening({ connections: { requestTimeoutMs: 500, headersTimeoutMs: 500 } });
    try {
      const socket = await opened(server.port);
      socket.write(`POST ${PATHS.login} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty`);
      const received = await untilClosed(socket);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await server.close();
    }
  });

  it('closes connections past the cap on arrival and serves again once one leaves', async () => {
    const server = await listening({ connections: { maxConnections: 2 } });
    try {
      const held = [await opened(server.port), await opened(server.port)];
      while ((await connectionCount(server.app)) < 2) await new Promise((done) => setTimeout(done, 10));
      const refused = await opened(server.port);
      expect(await untilClosed(refused)).toBe('');
      expect(held.every((socket) => !socket.destroyed)).toBe(true);

      held[0]?.destroy();
      while ((await connectionCount(server.app)) > 1) await new Promise((done) => setTimeout(done, 10));
      const answer = await withHost(server.port, `127.0.0.1:${server.port}`);
      expect(answer.status).toBe(401);
      held[1]?.destroy();
    } finally {
      await server.close();
    }
  });
});

function connectionCount(app: FastifyInstance): Promise<number> {
  return new Promise((done, fail) =>
    app.server.getConnections((error, count) => (error ? fail(error) : done(count))),
  );
}

describe('Host names', () => {
  it.each([
    ['a rebinding name', 'attacker.example'],
    ['a rebinding name with a port', 'attacker.example:4010'],
    ['a name that merely starts with localhost', 'localhost.attacker.example'],
    ['a private address', '192.168.1.20'],
    ['a loopback prefix with something after the port', 'localhost:4010@attacker.example'],
  ])('answers %s with 421 on a loopback server, before any sign-in check', async (_name, host) => {
    const server = await listening({});
    try {
      const answer = await withHost(server.port, host);
      expect(answer.status).toBe(421);
      expect(answer.body.status).toBe(421);
      expect(answer.body.detail).toContain('--allowed-host');
    } finally {
      await server.close();
    }
  });

  it('answers loopback names on a loopback server (the request then meets the token check)', async () => {
    const server = await listening({});
    try {
      for (const host of [
        '127.0.0.1',
        `127.0.0.1:${server.port}`,
        `localhost:${server.port}`,
        'LOCALHOST',
        `[::1]:${server.port}`,
      ]) {
        expect((await withHost(server.port, host)).status, host).toBe(401);
      }
    } finally {
      await server.close();
    }
  });

  it('answers the names it was started with besides loopback ones', async () => {
    const server = await listening({ hosts: hostPolicyFor('127.0.0.1', ['tracker.example.org']) });
    try {
      expect((await withHost(server.port, 'tracker.example.org')).status).toBe(401);
      expect((await withHost(server.port, 'Tracker.Example.org:443')).status).toBe(401);
      expect((await withHost(server.port, `localhost:${server.port}`)).status).toBe(401);
      expect((await withHost(server.port, 'other.example.org')).status).toBe(421);
    } finally {
      await server.close();
    }
  });

  it('is applied by the server command from its bind address', async () => {
    const running = await serve({
      db: dbPath,
      host: '127.0.0.1',
      port: 0,
      dialect: 'sample',
      logLevel: 'silent',
    });
    try {
      const port = Number(new URL(running.origin).port);
      expect((await withHost(port, 'attacker.example')).status).toBe(421);
      expect((await withHost(port, `localhost:${port}`)).status).toBe(401);
    } finally {
      await running.close();
    }
  });

  it('derives the policy from the bind address and the operator list', () => {
    expect(hostPolicyFor('127.0.0.1', [])).toEqual({ loopback: true, names: [] });
    expect(hostPolicyFor('::1', ['Tracker.Example.org'])).toEqual({
      loopback: true,
      names: ['tracker.example.org'],
    });
    expect(hostPolicyFor('0.0.0.0', [])).toBe('any');
    expect(hostPolicyFor('0.0.0.0', ['tracker.example.org'])).toEqual({
      loopback: false,
      names: ['tracker.example.org'],
    });
    const publicWithNames = hostPolicyFor('0.0.0.0', ['tracker.example.org']);
    expect(isAllowedHost('localhost:4010', publicWithNames)).toBe(false);
    expect(isAllowedHost(undefined, hostPolicyFor('127.0.0.1', []))).toBe(false);
    expect(hostName('[::1]:4010')).toBe('[::1]');
    expect(hostName('a:b:c')).toBeUndefined();
  });
});
