/**
 * The client's requests against the spec's sample requests, member by member: a real tracker service (not
 * only ours) may expect every member its samples carry. The samples are written out here from spec 4.0–4.7
 * (the team's copy of the spec is not read at run time); values differ by request, members and their JSON
 * types must not.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiRequest } from '../../main/src/api/client.ts';
import { endpoints } from '../../main/src/api/endpoints.ts';
import type { z } from 'zod';

/** Spec 4.0 rule 3's pageInfo as the samples send it. */
const SAMPLE_PAGE_INFO = {
  page: 0,
  pageSize: 10,
  filters: 'all=',
  selectedFields: 'epa_handler_id,generator_name,',
  sort: 'generator_name asc',
};

const SAMPLES = {
  'generators aggregate (4.1)': { filterFields: {}, searchKey: '' },
  'generators list (4.2)': { pageInfo: SAMPLE_PAGE_INFO, filterFields: {}, searchKey: '' },
  'manifests aggregate (4.5)': { filterFields: {}, searchKey: '' },
  'manifests list (4.6)': { pageInfo: SAMPLE_PAGE_INFO, filterFields: {}, searchKey: '' },
  'generators lookup (4.3)': { field: 'generator_state', page: '1', search: '' },
  'manifests lookup (4.7)': { field: 'transporter_name', page: '1', search: '' },
  'generator detail (4.4)': { handler_id: 'VATESTGEN001' },
} as const;

/** What the app asks with the least it can say: the client must fill in the rest as the samples do. */
const REQUESTS: Record<keyof typeof SAMPLES, ApiRequest<z.ZodType>> = {
  'generators aggregate (4.1)': endpoints.generatorsAggregate({ filterFields: {}, searchKey: '' }),
  'generators list (4.2)': endpoints.generatorsList({
    pageInfo: { page: 0, pageSize: 25 },
    filterFields: {},
    searchKey: '',
  }),
  'manifests aggregate (4.5)': endpoints.manifestsAggregate({ filterFields: {}, searchKey: '' }),
  'manifests list (4.6)': endpoints.manifestsList({
    pageInfo: { page: 2, pageSize: 100 },
    filterFields: {},
    searchKey: '',
  }),
  'generators lookup (4.3)': endpoints.generatorsLookup({ field: 'naics', page: 1, search: '' }),
  'manifests lookup (4.7)': endpoints.manifestsLookup({ field: 'dot_id_no', page: 3, search: 'UN' }),
  'generator detail (4.4)': endpoints.generatorDetail({ handler_id: 'TXD000000001' }),
};

/** A value's shape: its JSON type, and for objects the shape of every member. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, member]) => [key, shape(member)]),
  );
}

interface Seen {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

const seen: Seen[] = [];
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    seen.push({
      method: request.method ?? '',
      url: new URL(request.url ?? '/', 'http://127.0.0.1'),
      headers: request.headers,
      body,
    });
    response.writeHead(500, { 'content-type': 'application/problem+json' }).end('{}');
  });
});
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("the client's requests have the members of the spec's sample requests", () => {
  const client = createApiClient({ timeoutMs: () => 5000, maxAttempts: 1 });

  it.each(Object.keys(SAMPLES) as (keyof typeof SAMPLES)[])('%s', async (name) => {
    seen.length = 0;
    await client.send(REQUESTS[name], { baseUrl, token: 'sample-token' });
    const [request] = seen;
    expect(request).toBeDefined();
    // Spec 4.0 rule 1 and spec 5: on every request, GETs included.
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers.authorization).toBe('Bearer sample-token');
    const sample = SAMPLES[name];
    if (request!.method === 'GET') {
      expect(request!.body).toBe('');
      const query = Object.fromEntries(request!.url.searchParams);
      expect(shape(query)).toEqual(shape(sample));
    } else {
      expect(request!.method).toBe('POST');
      expect(shape(JSON.parse(request!.body))).toEqual(shape(sample));
    }
  });

  it('fills the pageInfo members the app left out with what the server does without them', async () => {
    seen.length = 0;
    await client.send(REQUESTS['manifests list (4.6)'], { baseUrl });
    const body = JSON.parse(seen[0]!.body) as { pageInfo: Record<string, unknown> };
    expect(body.pageInfo).toMatchObject({
      page: 2,
      pageSize: 100,
      filters: 'all=',
      sort: 'shipped_date desc',
    });
    expect(String(body.pageInfo.selectedFields).split(',')).toContain('manifest_tracking_number');
  });
});
