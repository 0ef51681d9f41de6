import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { GeneratorTotals } from '../../shared/api/index.ts';
import type { ErrorKind, Result } from '../../shared/ipc/contract.ts';
import { createApiClient, type ApiClientOptions, type ApiRequest } from '../../main/src/api/client.ts';
import { endpoints } from '../../main/src/api/endpoints.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A throwaway HTTP server on 127.0.0.1 that answers as the test says: fault injection only. */
async function faultServer(respond: (request: Seen, index: number, response: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      seen.push(entry);
      respond(entry, seen.length - 1, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  servers.push(server);
  return { baseUrl: `http://127.0.0.1:${port}`, seen };
}
function expectFailure(result: Result<unknown>, kind: ErrorKind, message: string | RegExp) {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.kind).toBe(kind);
  if (typeof message === 'string') expect(result.error.message).toContain(message);
  else expect(result.error.message).toMatch(message);
}

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const problem = status >= 400;
  response.writeHead(status, {
    'content-type': problem ? 'application/problem+json' : 'application/json',
    ...headers,
  });
  response.end(JSON.stringify(body));
}

const TOTALS = { epa_total: ' 1,234.56', shipped_count: ' 12', container_count: '7', mmc_count: 3 };
const totals: ApiRequest<typeof GeneratorTotals> = endpoints.generatorsAggregate({
  filterFields: {},
  searchKey: '',
});
const TOKEN = 'tok_Zx81-secret-token-value';

function client(options: Partial<ApiClientOptions> = {}) {
  return createApiClient({ timeoutMs: () => 5000, random: () => 0.5, ...options });
}

describe('API client: requests', () => {
  it('sends JSON with the Bearer token to the exact path, and reads the tolerant schema', async () => {
    const server = await faultServer((_request, _index, response) => json(response, 200, TOTALS));
    const result = await client().send(totals, { baseUrl: `${server.baseUrl}/`, token: TOKEN });
    expect(result).toEqual({
      ok: true,
      data: { epa_total: 1234.56, shipped_count: 12, container_count: 7, mmc_count: 3 },
    });
    const [request] = server.seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/api/tracker/generators/aggregated_data/');
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ filterFields: {}, searchKey: '' });
  });

  it('puts lookup parameters in the query string and keeps a base URL path prefix', async () => {
    const server = await faultServer((_request, _index, response) =>
      json(response, 200, { results: [], pagination: { more: false } }),
    );
    const lookup = endpoints.manifestsLookup({ field: 'transporter_name', page: 2, search: 'a&b' });
    await client().send(lookup, { baseUrl: `${server.baseUrl}/tracker-prefix`, token: TOKEN });
    expect(server.seen[0]?.method).toBe('GET');
    expect(server.seen[0]?.url).toBe(
      '/tracker-prefix/api/tracker/shipments_and_waste_volumes/filters/?field=transporter_name&page=2&search=a%26b',
    );
    // Spec 4.0 rule 1: a GET carries Content-Type: application/json too.
    expect(server.seen[0]?.headers['content-type']).toBe('application/json');
  });

  it('asks for compressed answers and reads one a proxy gzipped as the plain one (docs/deploy.md)', async () => {
    const server = await faultServer((_request, _index, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(gzipSync(JSON.stringify(TOTALS)));
    });
    const result = await client().send(totals, { baseUrl: server.baseUrl, token: TOKEN });
    expect(result).toMatchObject({ ok: true, data: { shipped_count: 12 } });
    expect(server.seen[0]?.headers['accept-encoding']).toMatch(/\bgzip\b/);
  });
});

describe('API client: error mapping', () => {
  it.each([
    [
      400,
      { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'body.pageInfo.page: too small' },
      {},
      'bad-request',
      'Body.pageInfo.page: too small.',
    ],
    [
      401,
      { type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'sign in first' },
      {},
      'unauthorized',
      'Sign in first.',
    ],
    [
      403,
      {
        type: 'about:blank',
        title: 'Forbidden',
        status: 403,
        detail: 'user "g" lacks the "generators" permission this endpoint needs',
      },
      {},
      'forbidden',
      'lacks the "generators" permission',
    ],
    [403, '', {}, 'forbidden', 'lacks the "generators" permission'],
    [
      404,
      { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no generator TX1' },
      {},
      'not-found',
      'No generator TX1.',
    ],
    [
      429,
      { type: 'about:blank', title: 'Too Many Requests', status: 429 },
      { 'retry-after': '30' },
      'rate-limited',
      'try again in 30 s',
    ],
    [429, '', { 'retry-after': '30' }, 'rate-limited', 'try again in 30 s'],
    [500, { type: 'about:blank', title: 'Internal Server Error', status: 500 }, {}, 'server', 'HTTP 500'],
    [418, '<html>teapot</html>', {}, 'bad-request', 'HTTP 418'],
  ])('HTTP %i → %s', async (status, body, headers, kind, message) => {
    const server = await faultServer((_request, _index, response) => {
      response.writeHead(status, { 'content-type': 'application/problem+json', ...headers });
      response.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
    const result = await client().send(totals, { baseUrl: server.baseUrl, token: TOKEN });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.kind).toBe(kind);
      expect(result.error.status).toBe(status);
      expect(result.error.message).toContain(message);
    }
  });

  it.each([
    [
      'a body of the wrong shape',
      JSON.stringify({ epa_total: 'lots' }),
      /does not match the tracker API at epa_total/,
    ],
    ['a body that is not JSON', '<html>welcome</html>', /not JSON/],
  ])('a 200 with %s is invalid-response', async (_name, body, message) => {
    const server = await faultServer((_request, _index, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    });
    const result = await client().send(totals, { baseUrl: server.baseUrl, token: TOKEN });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid-response', message } });
  });

  it('never repeats the token in a message, even when the server echoes it', async () => {
    const server = await faultServer((_request, _index, response) =>
      json(response, 400, {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: `bad token ${TOKEN}`,
      }),
    );
    const result = await client().send(totals, { baseUrl: server.baseUrl, token: TOKEN });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(result).toMatchObject({ ok: false, error: { message: 'Bad token [token hidden].' } });
  });

  it('does not follow a redirect, which could carry the token elsewhere', async () => {
    const other = await faultServer((_request, _index, response) => json(response, 200, TOTALS));
    const server = await faultServer((_request, _index, response) => {
      response.writeHead(307, { location: `${other.baseUrl}/api/tracker/generators/aggregated_data/` });
      response.end();
    });
    const result = await client().send(totals, { baseUrl: server.baseUrl, token: TOKEN });
    expectFailure(result, 'server', other.baseUrl);
    expect(other.seen).toHaveLength(0);
  });

  it('a closed port on 127.0.0.1 is offline', async () => {
    const server = await faultServer(() => undefined);
    const closed = server.baseUrl;
    for (const open of servers.splice(0)) await new Promise((resolve) => open.close(resolve));
    const result = await client({ backoffBaseMs: 1 }).send(totals, { baseUrl: closed, token: TOKEN });
    expectFailure(result, 'offline', closed);
  });

  it('a name that does not resolve is offline', async () => {
    const dnsFailure = () =>
      Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' }),
        }),
      );
    const result = await client({ fetch: dnsFailure, backoffBaseMs: 1 }).send(totals, {
      baseUrl: 'https://tracker.example.invalid',
    });
    expectFailure(result, 'offline', /Cannot find/);
  });
});

describe('API client: retry, timeout, cancellation', () => {
  it('retries a 503 with backoff, then succeeds', async () => {
    const server = await faultServer((_request, index, response) =>
      index < 2
        ? json(response, 503, { type: 'about:blank', title: 'Service Unavailable', status: 503 })
        : json(response, 200, TOTALS),
    );
    const started = Date.now();
    const result = await client().send(totals, { baseUrl: server.baseUrl, token: TOKEN });
    expect(result.ok).toBe(true);
    expect(server.seen).toHaveLength(3);
    // 200 ms and 400 ms pauses with the jitter factor fixed at 1.
    expect(Date.now() - started).toBeGreaterThanOrEqual(590);
  });

  it('gives up after three attempts with the server error', async () => {
    const server = await faultServer((_request, _index, response) =>
      json(response, 502, { type: 'about:blank', title: 'Bad Gateway', status: 502 }),
    );
    const result = await client({ backoffBaseMs: 5 }).send(totals, { baseUrl: server.baseUrl, token: TOKEN });
    expect(result).toMatchObject({ ok: false, error: { kind: 'server', status: 502 } });
    expect(server.seen).toHaveLength(3);
  });

  it('does not retry a 500, a 4xx, or a call that asked not to be retried', async () => {
    const server = await faultServer((request, _index, response) =>
      request.url.includes('login')
        ? json(response, 503, { type: 'about:blank', title: 'Service Unavailable', status: 503 })
        : json(response, 500, { type: 'about:blank', title: 'Internal Server Error', status: 500 }),
    );
    await client({ backoffBaseMs: 1 }).send(totals, { baseUrl: server.baseUrl, token: TOKEN });
    await client({ backoffBaseMs: 1 }).send(endpoints.login({ username: 'a', password: 'b' }), {
      baseUrl: server.baseUrl,
    });
    expect(server.seen).toHaveLength(2);
  });

  it('times out a server that never answers', async () => {
    const server = await faultServer(() => undefined);
    const started = Date.now();
    const result = await client({ timeoutMs: () => 300 }).send(totals, {
      baseUrl: server.baseUrl,
      token: TOKEN,
    });
    expectFailure(result, 'timeout', '300 ms');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('never retries past the timeout', async () => {
    const server = await faultServer((_request, _index, response) =>
      json(response, 503, { type: 'about:blank', title: 'Service Unavailable', status: 503 }),
    );
    const started = Date.now();
    const result = await client({ timeoutMs: () => 1000, backoffBaseMs: 600 }).send(totals, {
      baseUrl: server.baseUrl,
      token: TOKEN,
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result).toMatchObject({ ok: false, error: { kind: 'server', status: 503 } });
    expect(server.seen).toHaveLength(2);
  });

  it('identical requests in flight share one fetch; a request of another query never cancels it', async () => {
    const server = await faultServer((_request, _index, response) => {
      setTimeout(() => json(response, 200, TOTALS), 100);
    });
    const api = client();
    const target = { baseUrl: server.baseUrl, token: TOKEN };
    const ask = (searchKey: string) =>
      api.send(endpoints.generatorsAggregate({ filterFields: {}, searchKey }), target);
    const results = await Promise.all([ask('first'), ask('first'), ask('second')]);
    expect(results.map((result) => result.ok)).toEqual([true, true, true]);
    const searched = server.seen.map(
      (request) => (JSON.parse(request.body) as { searchKey: string }).searchKey,
    );
    expect(searched.sort()).toEqual(['first', 'second']);
  });

  it("a caller's abort answers it at once and stops its fetch: the server sees the connection close", async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = await faultServer((_request, _index, response) => {
      // Never answers: only the client's abort can end this request.
      response.on('close', closed);
    });
    const controller = new AbortController();
    const pending = client().send(totals, { baseUrl: server.baseUrl, token: TOKEN }, controller.signal);
    while (server.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await expect(pending).resolves.toMatchObject({ ok: false, error: { kind: 'cancelled' } });
    await connectionClosed;
    expect(server.seen).toHaveLength(1);
  });

  it('a shared fetch stops only when every caller sharing it has cancelled', async () => {
    const abandoned: number[] = [];
    const server = await faultServer((_request, index, response) => {
      // A connection that closes before its answer was written is one the client gave up on.
      response.on('close', () => response.writableFinished || abandoned.push(index));
      setTimeout(() => json(response, 200, TOTALS), 300);
    });
    const api = client();
    const target = { baseUrl: server.baseUrl, token: TOKEN };
    const leaving = new AbortController();
    const staying = new AbortController();
    const first = api.send(totals, target, leaving.signal);
    const second = api.send(totals, target, staying.signal);
    while (server.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    leaving.abort();
    await expect(first).resolves.toMatchObject({ ok: false, error: { kind: 'cancelled' } });
    await expect(second).resolves.toMatchObject({ ok: true });
    expect(server.seen).toHaveLength(1);

    const third = new AbortController();
    const fourth = new AbortController();
    const both = [api.send(totals, target, third.signal), api.send(totals, target, fourth.signal)];
    while (server.seen.length === 1) await new Promise((resolve) => setTimeout(resolve, 10));
    third.abort();
    await expect(both[0]).resolves.toMatchObject({ error: { kind: 'cancelled' } });
    expect(abandoned).toEqual([]);
    fourth.abort();
    await expect(both[1]).resolves.toMatchObject({ error: { kind: 'cancelled' } });
    while (abandoned.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(abandoned).toEqual([1]);
    expect(server.seen).toHaveLength(2);
  });

  it('never shares an answer between two tokens', async () => {
    const server = await faultServer((_request, _index, response) => {
      setTimeout(() => json(response, 200, TOTALS), 50);
    });
    const api = client();
    await Promise.all([
      api.send(totals, { baseUrl: server.baseUrl, token: 'token-of-one-user' }),
      api.send(totals, { baseUrl: server.baseUrl, token: 'token-of-another' }),
    ]);
    expect(server.seen.map((request) => request.headers.authorization).sort()).toEqual([
      'Bearer token-of-another',
      'Bearer token-of-one-user',
    ]);
  });

  it('list pages of one query do not cancel each other; lookups of different boxes neither', async () => {
    const server = await faultServer((request, _index, response) => {
      const body = request.url.includes('filters')
        ? { results: [], pagination: { more: false } }
        : { totalElements: 0, content: [] };
      setTimeout(() => json(response, 200, body), 100);
    });
    const api = client();
    const target = { baseUrl: server.baseUrl, token: TOKEN };
    const results = await Promise.all([
      api.send(
        endpoints.generatorsList({ pageInfo: { page: 0, pageSize: 50 }, filterFields: {}, searchKey: '' }),
        target,
      ),
      api.send(
        endpoints.generatorsList({ pageInfo: { page: 1, pageSize: 50 }, filterFields: {}, searchKey: '' }),
        target,
      ),
      api.send(endpoints.generatorsLookup({ field: 'naics', page: 1, search: '' }), target),
      api.send(endpoints.generatorsLookup({ field: 'generator_state', page: 1, search: '' }), target),
    ]);
    expect(results.map((result) => result.ok)).toEqual([true, true, true, true]);
  });
});
