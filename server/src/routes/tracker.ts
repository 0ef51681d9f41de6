/**
 * The tracker endpoints (spec 4.1–4.7), paths exactly as the spec writes them. Routes only validate, call a
 * repository and shape the answer for the wire dialect. A call that scans a whole table (the repository's
 * `scans` says so) goes to the read pool, when there is one, so that it does not hold the event loop.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  GENERATOR_FIELDS,
  GeneratorAggregateRequest,
  GeneratorDetailQuery,
  GeneratorListRequest,
  GeneratorLookupQuery,
  MANIFEST_FIELDS,
  ManifestAggregateRequest,
  ManifestListRequest,
  ManifestLookupQuery,
  SpecGeneratorLookupQuery,
  type Dialect,
} from '../../../shared/api/index.ts';
import {
  DEFAULT_GENERATOR_SORT,
  DEFAULT_MANIFEST_SORT,
  GENERATOR_SORT_FIELDS,
  MANIFEST_SORT_FIELDS,
  parseSelectedFields,
  parseSort,
  type Parsed,
} from '../../../shared/query/index.ts';
import { parseSearch } from '../../../shared/query/search.ts';
import { generatorDetail, generatorTotals, manifestTotals } from '../http/dialect.ts';
import { HttpProblem, validationProblem } from '../http/problem.ts';
import type { DetailRepository } from '../repositories/detail-repository.ts';
import type { GeneratorsRepository } from '../repositories/generators-repository.ts';
import type { ManifestsRepository } from '../repositories/manifests-repository.ts';
import type { ReadPool } from '../workers/read-pool.ts';

export interface TrackerDeps {
  generators: GeneratorsRepository;
  manifests: ManifestsRepository;
  details: DetailRepository;
  /** Runs the scanning calls off the main thread; without it they run here. */
  pool: ReadPool | undefined;
  dialect: Dialect;
  /** Refuse the lookups the spec does not list (app.ts `specOnly`). */
  specOnly: boolean;
}

/** The manifests page is sent as the bytes the repository writes (waste lines spliced in as stored JSON). */
const JSON_TYPE = 'application/json; charset=utf-8';

function parse<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  where: 'body' | 'query',
): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationProblem(parsed.error, where);
  return parsed.data;
}

function valueOf<T>(parsed: Parsed<T>, path: string): T {
  if (parsed.ok) return parsed.value;
  throw new HttpProblem(400, `${path}: ${parsed.message}`, {
    type: 'urn:waste-tracker:problem:validation',
    errors: [{ path, message: parsed.message }],
  });
}

export function trackerRoutes(app: FastifyInstance, deps: TrackerDeps): void {
  const generatorsScope = { config: { scopes: ['generators'] as const } };
  const manifestsScope = { config: { scopes: ['manifests'] as const } };

  const { pool } = deps;

  app.post('/api/tracker/generators/aggregated_data/', generatorsScope, async (request) => {
    const body = parse(GeneratorAggregateRequest, request.body, 'body');
    const searchKey = valueOf(parseSearch(body.searchKey, 'searchKey'), 'body.searchKey');
    const totals =
      pool && deps.generators.scans(searchKey)
        ? await pool.run('generatorsTotals', body.filterFields, searchKey)
        : deps.generators.totals(body.filterFields, searchKey);
    return generatorTotals(totals, deps.dialect);
  });

  app.post('/api/tracker/generators/', generatorsScope, (request) => {
    const body = parse(GeneratorListRequest, request.body, 'body');
    const query = {
      filterFields: body.filterFields,
      searchKey: valueOf(parseSearch(body.searchKey, 'searchKey'), 'body.searchKey'),
      sort: valueOf(
        parseSort(body.pageInfo.sort, GENERATOR_SORT_FIELDS, DEFAULT_GENERATOR_SORT),
        'body.pageInfo.sort',
      ),
      fields: valueOf(
        parseSelectedFields(body.pageInfo.selectedFields, GENERATOR_FIELDS),
        'body.pageInfo.selectedFields',
      ),
      page: body.pageInfo.page,
      pageSize: body.pageInfo.pageSize,
    };
    return pool && deps.generators.scans(query.searchKey)
      ? pool.run('generatorsPage', query)
      : deps.generators.page(query);
  });

  app.get('/api/tracker/generators/filters/', generatorsScope, (request) => {
    // A spec-only server knows only the spec's fields, and says which those are, as for any unknown one.
    const query = parse(
      deps.specOnly ? SpecGeneratorLookupQuery : GeneratorLookupQuery,
      request.query,
      'query',
    );
    const search = valueOf(parseSearch(query.search, 'search'), 'query.search');
    if (!pool) return deps.generators.lookup(query.field, search, query.page);
    return (
      deps.generators.lookupWithoutScan(query.field, search, query.page) ??
      pool.run('generatorsLookup', query.field, search, query.page)
    );
  });

  app.get(
    '/api/tracker/generators/details/',
    { config: { scopes: ['generators', 'manifests'] as const } },
    (request) => {
      const query = parse(GeneratorDetailQuery, request.query, 'query');
      const detail = deps.details.find(query.handler_id);
      if (!detail) throw new HttpProblem(404, `no generator with EPA handler id "${query.handler_id}"`);
      return generatorDetail(detail, deps.dialect);
    },
  );

  app.post('/api/tracker/manifests/aggregated_data/', manifestsScope, async (request) => {
    const body = parse(ManifestAggregateRequest, request.body, 'body');
    const searchKey = valueOf(parseSearch(body.searchKey, 'searchKey'), 'body.searchKey');
    const totals =
      pool && deps.manifests.scans(searchKey)
        ? await pool.run('manifestsTotals', body.filterFields, searchKey)
        : deps.manifests.totals(body.filterFields, searchKey);
    return manifestTotals(totals, deps.dialect);
  });

  app.post('/api/tracker/manifests/', manifestsScope, async (request, reply) => {
    const body = parse(ManifestListRequest, request.body, 'body');
    const query = {
      filterFields: body.filterFields,
      searchKey: valueOf(parseSearch(body.searchKey, 'searchKey'), 'body.searchKey'),
      sort: valueOf(
        parseSort(body.pageInfo.sort, MANIFEST_SORT_FIELDS, DEFAULT_MANIFEST_SORT),
        'body.pageInfo.sort',
      ),
      fields: valueOf(
        parseSelectedFields(body.pageInfo.selectedFields, MANIFEST_FIELDS),
        'body.pageInfo.selectedFields',
      ),
      page: body.pageInfo.page,
      pageSize: body.pageInfo.pageSize,
    };
    let bytes: Buffer;
    if (pool && deps.manifests.scans(query.searchKey)) {
      const copied = await pool.run('manifestsPageBytes', query);
      bytes = Buffer.from(copied.buffer, copied.byteOffset, copied.byteLength);
    } else {
      bytes = deps.manifests.pageBytes(query);
    }
    return reply.type(JSON_TYPE).send(bytes);
  });

  app.get('/api/tracker/shipments_and_waste_volumes/filters/', manifestsScope, (request) => {
    const query = parse(ManifestLookupQuery, request.query, 'query');
    const search = valueOf(parseSearch(query.search, 'search'), 'query.search');
    if (!pool) return deps.manifests.lookup(query.field, search, query.page);
    return (
      deps.manifests.lookupWithoutScan(query.field, search, query.page) ??
      pool.run('manifestsLookup', query.field, search, query.page)
    );
  });
}
