/**
 * Bad requests to every endpoint get the documented problem answer (docs/api.md "Errors", "Limits"): 400 with
 * the validation type and one error per invalid member, 404, 413 and 415; none leaks a stack trace or SQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send as sendTo, startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import {
  INSPECTOR,
  PATHS,
  expectProblem,
  expectValidation,
  get,
  listBody,
  post,
  signInAs,
  type Session,
} from './support.ts';

let server: TrackerServer;
let session: Session;

beforeAll(async () => {
  server = await startTrackerServer({ socket: false });
  session = await signInAs(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
});

afterAll(async () => {
  await server?.close();
});

type Body = Record<string, unknown>;
const send = (path: string, body: unknown) => post(session.baseUrl, path, session.token, body);

/** A valid list body with one part replaced. */
function withPageInfo(changes: Body): Body {
  const body = listBody({});
  return { ...body, pageInfo: { ...(body.pageInfo as Body), ...changes } };
}

const LISTS = [
  { path: PATHS.generators, member: 'cities' },
  { path: PATHS.manifests, member: 'generator_names' },
] as const;
const TOTALS = [
  { path: PATHS.generatorTotals, member: 'states' },
  { path: PATHS.manifestTotals, member: 'transporter_names' },
] as const;
const POSTS = [...LISTS, ...TOTALS];

describe.each(LISTS)('pageInfo of $path', ({ path }) => {
  const { pageInfo: _omitted, ...withoutPageInfo } = listBody({});

  it.each([
    ['a missing pageInfo', withoutPageInfo, 'body.pageInfo'],
    ['pageInfo null', { ...withoutPageInfo, pageInfo: null }, 'body.pageInfo'],
    ['page -1', withPageInfo({ page: -1 }), 'body.pageInfo.page'],
    ['page 1.5', withPageInfo({ page: 1.5 }), 'body.pageInfo.page'],
    ['page "0"', withPageInfo({ page: '0' }), 'body.pageInfo.page'],
    ['a missing page', withPageInfo({ page: undefined }), 'body.pageInfo.page'],
    ['pageSize 0', withPageInfo({ pageSize: 0 }), 'body.pageInfo.pageSize'],
    ['pageSize 501', withPageInfo({ pageSize: 501 }), 'body.pageInfo.pageSize'],
    ['pageSize 1.5', withPageInfo({ pageSize: 1.5 }), 'body.pageInfo.pageSize'],
    ['pageSize "50"', withPageInfo({ pageSize: '50' }), 'body.pageInfo.pageSize'],
    ['a missing pageSize', withPageInfo({ pageSize: undefined }), 'body.pageInfo.pageSize'],
    ['filters "state=TX"', withPageInfo({ filters: 'state=TX' }), 'body.pageInfo.filters'],
    ['filters "all"', withPageInfo({ filters: 'all' }), 'body.pageInfo.filters'],
    ['an unknown pageInfo member', withPageInfo({ colour: 'red' }), 'body.pageInfo'],
  ] as const)('refuses %s', async (_name, body, where) => {
    expectValidation(await send(path, body), where);
  });

  it.each([
    ['an unknown field', 'colour asc', /colour/],
    ['an unknown direction', 'generator_name up', /up/],
    ['three words', 'generator_name asc please', /please|field> asc\|desc/],
    ['a direction alone', 'desc', /desc/],
  ])('refuses sort with %s, naming it', async (_name, sort, message) => {
    const fixed = path === PATHS.manifests ? sort.replace('generator_name', 'shipped_date') : sort;
    expectValidation(await send(path, withPageInfo({ sort: fixed })), 'body.pageInfo.sort', message);
  });

  it('names the sortable fields when refusing a sort field', async () => {
    const answer = await send(path, withPageInfo({ sort: 'colour' }));
    expectValidation(answer, 'body.pageInfo.sort', /sortable: .*generator_name/);
  });

  it('refuses selectedFields with an unknown field, naming it', async () => {
    expectValidation(
      await send(path, withPageInfo({ selectedFields: 'colour,' })),
      'body.pageInfo.selectedFields',
      /colour/,
    );
  });

  it('says which filters are supported when refusing one', async () => {
    expectValidation(
      await send(path, withPageInfo({ filters: 'state=TX' })),
      'body.pageInfo.filters',
      /"" or "all="/,
    );
  });

  it.each(['', 'all='])('accepts filters %j', async (filters) => {
    expect((await send(path, withPageInfo({ filters }))).status).toBe(200);
  });

  it('accepts a pageInfo without filters, selectedFields and sort', async () => {
    expect((await send(path, { pageInfo: { page: 0, pageSize: 1 } })).status).toBe(200);
  });
});

describe.each(POSTS)('filterFields and searchKey of $path', ({ path, member }) => {
  const isList = path === PATHS.generators || path === PATHS.manifests;
  const body = (changes: Body): Body =>
    isList ? { ...listBody({}), ...changes } : { filterFields: {}, searchKey: '', ...changes };

  it.each([
    ['an unknown filter member', { filterFields: { colour: ['red'] } }, 'body.filterFields', /colour/],
    [
      'a filter value that is not an array',
      { filterFields: { [member]: 'x' } },
      `body.filterFields.${member}`,
      undefined,
    ],
    [
      'a filter value that is a number',
      { filterFields: { [member]: [42] } },
      `body.filterFields.${member}.0`,
      undefined,
    ],
    [
      'more than 1,000 values',
      { filterFields: { [member]: Array.from({ length: 1001 }, (_v, i) => `v${i}`) } },
      `body.filterFields.${member}`,
      /1000/,
    ],
    [
      'a value over 200 characters',
      { filterFields: { [member]: ['x'.repeat(201)] } },
      `body.filterFields.${member}.0`,
      undefined,
    ],
    ['filterFields that is an array', { filterFields: [] }, 'body.filterFields', undefined],
    ['a searchKey over 200 characters', { searchKey: 'x'.repeat(201) }, 'body.searchKey', /200/],
    ['a searchKey that is not a string', { searchKey: 7 }, 'body.searchKey', undefined],
    ['an unknown top-level member', { colour: 'red' }, 'body', /colour/],
  ] as const)('refuses %s', async (_name, changes, where, message) => {
    expectValidation(await send(path, body(changes)), where, message);
  });

  it('accepts exactly 1,000 values and a 200-character searchKey', async () => {
    const answer = await send(
      path,
      body({
        filterFields: { [member]: Array.from({ length: 1000 }, (_v, i) => `v${i}`) },
        searchKey: 'x'.repeat(200),
      }),
    );
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  });

  it('names every invalid member at once', async () => {
    const answer = await send(path, body({ filterFields: { colour: [] }, searchKey: 'x'.repeat(201) }));
    expectValidation(answer, 'body.filterFields', /colour/);
    expectValidation(answer, 'body.searchKey');
  });

  it.each([
    ['a JSON array', '[]'],
    ['JSON null', 'null'],
    ['a JSON string', '"hello"'],
    ['a JSON number', '42'],
  ])('refuses %s as the body', async (_name, raw) => {
    expectValidation(await post(session.baseUrl, path, session.token, undefined, { raw }), /^body/);
  });

  if (!isList) {
    it('refuses pageInfo, which totals do not take', async () => {
      expectValidation(
        await send(path, { ...body({}), pageInfo: { page: 0, pageSize: 1 } }),
        'body',
        /pageInfo/,
      );
    });
  }
});

describe('date ranges of the manifests endpoints', () => {
  const paths = [PATHS.manifests, PATHS.manifestTotals];
  const body = (path: string, filterFields: Body): Body =>
    path === PATHS.manifests ? { ...listBody({}), filterFields } : { filterFields };

  it.each(
    paths.flatMap((path) =>
      ['shipped_date_start', 'shipped_date_end', 'received_date_start', 'received_date_end'].flatMap(
        (member) =>
          [
            '2024-02-30',
            '2023-02-29',
            '2024-1-5',
            '2024-13-01',
            '2024-00-10',
            'yesterday',
            '20240105',
            '2024-01-05T00:00:00Z',
            '',
          ].map((value) => [path, member, value] as const),
      ),
    ),
  )('%s refuses %s %j', async (path, member, value) => {
    expectValidation(await send(path, body(path, { [member]: value })), `body.filterFields.${member}`);
  });

  it.each(paths.flatMap((path) => (['shipped', 'received'] as const).map((range) => [path, range] as const)))(
    '%s refuses a %s start after its end',
    async (path, range) => {
      const answer = await send(
        path,
        body(path, { [`${range}_date_start`]: '2024-03-02', [`${range}_date_end`]: '2024-03-01' }),
      );
      expectValidation(answer, `body.filterFields.${range}_date_start`, /after/);
    },
  );

  it.each(paths)('%s accepts a leap day and a one-day range', async (path) => {
    const answer = await send(
      path,
      body(path, { shipped_date_start: '2024-02-29', shipped_date_end: '2024-02-29' }),
    );
    expect(answer.status).toBe(200);
  });

  it.each(paths)('%s refuses a date that is not a string', async (path) => {
    expectValidation(
      await send(path, body(path, { shipped_date_start: 20240101 })),
      'body.filterFields.shipped_date_start',
    );
  });
});

describe.each(POSTS)('transport errors on $path', ({ path }) => {
  const valid = path === PATHS.generators || path === PATHS.manifests ? listBody({}) : {};

  it('answers malformed JSON with a 400 problem', async () => {
    const answer = await post(session.baseUrl, path, session.token, undefined, {
      raw: '{"pageInfo": {"page": 0,',
    });
    expect(expectProblem(answer, 400).detail).toMatch(/JSON/);
  });

  it('answers an empty JSON body with a 400 problem', async () => {
    expectProblem(await post(session.baseUrl, path, session.token, undefined, { raw: '' }), 400);
  });

  it('answers a body over 256 KB with 413', async () => {
    const raw = JSON.stringify({ ...valid, searchKey: 'x'.repeat(260 * 1024) });
    expectProblem(await post(session.baseUrl, path, session.token, undefined, { raw }), 413);
  });

  it('answers a text/plain body with 415, even when it holds valid JSON', async () => {
    const answer = await post(session.baseUrl, path, session.token, undefined, {
      raw: JSON.stringify(valid),
      contentType: 'text/plain',
    });
    expectProblem(answer, 415);
  });

  it('answers a form body with 415', async () => {
    const answer = await post(session.baseUrl, path, session.token, undefined, {
      raw: 'searchKey=x',
      contentType: 'application/x-www-form-urlencoded',
    });
    expectProblem(answer, 415);
  });

  it('accepts application/json with a charset', async () => {
    const answer = await post(session.baseUrl, path, session.token, undefined, {
      raw: JSON.stringify(valid),
      contentType: 'application/json; charset=utf-8',
    });
    expect(answer.status).toBe(200);
  });
});

describe('the GET endpoints', () => {
  it.each([
    [PATHS.generatorLookup, 'page=1', 'query.field'],
    [PATHS.generatorLookup, 'field=naics&page=0', 'query.page'],
    [PATHS.generatorLookup, `field=naics&page=1&search=${'x'.repeat(101)}`, 'query.search'],
    [PATHS.generatorLookup, 'field=nope&page=1', 'query.field'],
    [PATHS.manifestLookup, 'page=1', 'query.field'],
    [PATHS.manifestLookup, 'field=container_type&page=-3', 'query.page'],
    [PATHS.manifestLookup, `field=container_type&page=1&search=${'y'.repeat(101)}`, 'query.search'],
    [PATHS.manifestLookup, 'field=naics&page=1', 'query.field'],
    [PATHS.detail, '', 'query.handler_id'],
    [PATHS.detail, 'handler_id=', 'query.handler_id'],
  ])('%s?%s is a 400 at %s', async (path, query, where) => {
    expectValidation(await get(session.baseUrl, path, session.token, query), where);
  });
});

describe('unknown routes', () => {
  it.each([
    ['GET', '/api/tracker/nothing/'],
    ['POST', '/api/tracker/generators/everything/'],
    ['GET', PATHS.generators],
    ['GET', PATHS.manifests],
    ['POST', PATHS.detail],
    ['DELETE', PATHS.generators],
    ['GET', '/'],
  ])('%s %s is a 404 problem', async (method, path) => {
    const response = await sendTo(session.baseUrl, path, {
      method,
      headers: { authorization: `Bearer ${session.token}` },
    });
    const answer = { ...response, body: JSON.parse(response.text) as unknown };
    expect(expectProblem(answer, 404).type).toBe('about:blank');
  });

  it('is a 404 for an unknown route even without a token', async () => {
    expectProblem(await get(session.baseUrl, '/api/tracker/nothing/', undefined), 404);
  });
});

describe('no error answer leaks internals', () => {
  it('answers an unexpected failure with a bare 500 problem', async () => {
    const broken = await startTrackerServer({ dbPath: server.dbPath, socket: false });
    try {
      const brokenSession = await signInAs(broken.baseUrl, INSPECTOR.username, INSPECTOR.password);
      await broken.breakDatabase();
      for (const answer of [
        await post(broken.baseUrl, PATHS.generators, brokenSession.token, listBody({ searchKey: 'abc' })),
        await post(broken.baseUrl, PATHS.manifestTotals, brokenSession.token, { searchKey: 'x' }),
        await get(broken.baseUrl, PATHS.detail, brokenSession.token, { handler_id: 'X' }),
      ]) {
        expectProblem(answer, 500);
        expect(answer.body).toEqual({
          type: 'about:blank',
          title: 'Internal Server Error',
          status: 500,
          detail: 'the server could not answer this request',
        });
      }
    } finally {
      await broken.close();
    }
  });

  it('keeps SQL-looking and path-looking input out of trouble', async () => {
    for (const searchKey of [
      "'; SELECT * FROM users; --",
      '../../etc/passwd',
      'node_modules',
      '"unterminated',
    ]) {
      const answer = await send(PATHS.generators, { ...listBody({}), searchKey });
      expect(answer.status, `${searchKey}: ${answer.text.slice(0, 200)}`).toBe(200);
    }
  });
});
