/**
 * Answers of any size against real loopback servers: one that streams without end, one that declares
 * gigabytes, one whose small gzip body inflates past the limit, and an error page that never ends. Each is
 * stopped at its limit with a clear message, asked once only, and its connection dropped.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/api/index.ts';
import type { Result } from '../../shared/ipc/contract.ts';
import { createApiClient } from '../../main/src/api/client.ts';
import { endpoints } from '../../main/src/api/endpoints.ts';

interface Served {
  baseUrl: string;
  requests: () => number;
  /** Bytes written before the client went away, once it has. */
  closed: Promise<number>;
}

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A loopback server answering every request with `respond`, which returns the bytes it wrote. */
async function serve(respond: (response: ServerResponse) => () => number): Promise<Served> {
  let requests = 0;
  let resolveClosed: (bytes: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => {
    resolveClosed = resolve;
  });
  const server = createServer((request, response) => {
    requests += 1;
    request.resume();
    const written = respond(response);
    response.on('close', () => resolveClosed(written()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, requests: () => requests, closed };
}

/** Writes `chunk` again and again as the socket takes it, up to `maxBytes` (a bound for the test itself). */
function stream(response: ServerResponse, chunk: Buffer, maxBytes: number): () => number {
  let written = 0;
  const more = () => {
    while (written < maxBytes && !response.destroyed) {
      written += chunk.length;
      if (!response.write(chunk)) return void response.once('drain', more);
    }
    response.end();
  };
  more();
  return () => written;
}

function client() {
  return createApiClient({ timeoutMs: () => 10_000, random: () => 0.5, backoffBaseMs: 1 });
}

function expectTooLarge(result: Result<unknown>, served: Served): void {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.kind).toBe('invalid-response');
  expect(result.error.message).toMatch(/^The server's answer was too large \(more than \d+ [KM]B\)/);
  expect(result.error.message).toContain(served.baseUrl);
  // Too large once is too large again: no retry.
  expect(served.requests()).toBe(1);
}

const TOKEN = 'a-token-of-the-test';
const page = endpoints.manifestsList({
  pageInfo: { page: 0, pageSize: 500 },
  filterFields: {},
  searchKey: '',
});

describe('answers past their limit', () => {
  it('stops a page that streams without end at the page limit and drops the connection', async () => {
    const served = await serve((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      return stream(response, Buffer.alloc(64 * 1024, 0x20), 20 * LIMITS.answerBytesMax.page);
    });
    const result = await client().send(page, { baseUrl: served.baseUrl, token: TOKEN });
    expectTooLarge(result, served);
    if (!result.ok) expect(result.error.message).toContain('16 MB');
    // The server saw the client go well before it would have finished.
    expect(await served.closed).toBeLessThan(2 * LIMITS.answerBytesMax.page);
  });

  it('refuses a declared length past the limit before reading a byte of it', async () => {
    const served = await serve((response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 ** 40) });
      response.flushHeaders();
      // Nothing follows: a client that waited for the body would time out instead.
      return () => 0;
    });
    const started = Date.now();
    const result = await client().send(page, { baseUrl: served.baseUrl, token: TOKEN });
    expectTooLarge(result, served);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('counts a gzip body at its inflated size, whatever its content-length says', async () => {
    const bomb = gzipSync(Buffer.alloc(4 * LIMITS.answerBytesMax.small, 0x20));
    expect(bomb.length).toBeLessThan(LIMITS.answerBytesMax.small / 4);
    const served = await serve((response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(bomb.length),
      });
      response.end(bomb);
      return () => bomb.length;
    });
    const totals = endpoints.generatorsAggregate({ filterFields: {}, searchKey: '' });
    expectTooLarge(await client().send(totals, { baseUrl: served.baseUrl, token: TOKEN }), served);
  });

  it('keeps an export page as bytes under the same limit', async () => {
    const served = await serve((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      return stream(response, Buffer.alloc(64 * 1024, 0x20), 20 * LIMITS.answerBytesMax.page);
    });
    const bytes = { ...page, response: z.instanceof(Uint8Array), read: 'bytes' as const };
    expectTooLarge(await client().send(bytes, { baseUrl: served.baseUrl, token: TOKEN }), served);
  });

  it('reads an error page that never ends only so far, and still names the status', async () => {
    const served = await serve((response) => {
      response.writeHead(500, { 'content-type': 'text/html' });
      return stream(response, Buffer.from('<p>error</p>'.repeat(5000)), 100 * 1024 * 1024);
    });
    const result = await client().send(page, { baseUrl: served.baseUrl, token: TOKEN });
    expect(result).toMatchObject({ ok: false, error: { kind: 'server', status: 500 } });
    expect(await served.closed).toBeLessThan(10 * 1024 * 1024);
  });

  it('reads an answer just under its limit', async () => {
    const body = JSON.stringify({ totalElements: 1, content: [{ generator_name: 'x'.repeat(1000) }] });
    const served = await serve((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
      return () => body.length;
    });
    const result = await client().send(page, { baseUrl: served.baseUrl, token: TOKEN });
    expect(result).toMatchObject({ ok: true, data: { totalElements: 1 } });
  });
});
