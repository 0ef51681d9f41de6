/**
 * The tracker endpoints (spec 4.1–4.7), paths exactly as the spec writes them. Routes only validate, call a
 * repository and shape the answer for the wire dialect. A call that scans a whole table (the repository's
 * `scans` says so) goes to the read pool, when there is one, so that it does not hold the event loop, and is
 * dropped there if its client leaves first.
 */
import type { FastifyPluginCallback } from 'fastify';
import type { z } from 'zod';
import {
  GeneratorAggregateRequest,
  GeneratorDetailQuery,
  GeneratorLookupQuery,
  ManifestAggregateRequest,
  ManifestLookupQuery,
  SpecGeneratorLookupQuery,
  type Dialect,
} from '../../../shared/api/index.ts';
import { readGeneratorList, readManifestList, readRequest, type Read } from '../../../shared/query/parse.ts';
import { generatorDetail, generatorTotals, manifestTotals } from '../http/dialect.ts';
import { HttpProblem, validationProblem } from '../http/problem.ts';
import type { DetailRepository } from '../repositories/detail-repository.ts';
import type { GeneratorsRepository } from '../repositories/generators-repository.ts';
import type { ManifestsRepository } from '../repositories/manifests-repository.ts';
import { untilClientLeaves } from '../http/client-gone.ts';
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

/** The request as read (shared/query/parse.ts), or a 400 naming every problem. */
function valueOf<T>(read: Read<T>, where: 'body' | 'query'): T {
  if (read.ok) return read.value;
  throw validationProblem(read.issues, where);
}

function parse<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  where: 'body' | 'query',
): z.output<Schema> {
  return valueOf(readRequest(schema, value), where);
}

/** Registered on the app as a plugin of its own, with the repositories it calls. */
export const trackerRoutes: FastifyPluginCallback<TrackerDeps> = (app, deps, done) => {
  const generatorsScope = { config: { scopes: ['generators'] as const } };
  const manifestsScope = { config: { scopes: ['manifests'] as const } };

  const { pool } = deps;

  app.post('/api/tracker/generators/aggregated_data/', generatorsScope, async (request, reply) => {
    const { filterFields, searchKey } = parse(GeneratorAggregateRequest, request.body, 'body');
    const totals =
      pool && deps.generators.scans(searchKey)
        ? await pool.runUntil(untilClientLeaves(reply), 'generatorsTotals', filterFields, searchKey)
        : deps.generators.totals(filterFields, searchKey);
    return generatorTotals(totals, deps.dialect);
  });

  app.post('/api/tracker/generators/', generatorsScope, (request, reply) => {
    const query = valueOf(readGeneratorList(request.body), 'body');
    return pool && deps.generators.scans(query.searchKey)
      ? pool.runUntil(untilClientLeaves(reply), 'generatorsPage', query)
      : deps.generators.page(query);
  });

  app.get('/api/tracker/generators/filters/', generatorsScope, (request, reply) => {
    // A spec-only server knows only the spec's fields, and says which those are, as for any unknown one.
    const { field, search, page } = parse(
      deps.specOnly ? SpecGeneratorLookupQuery : GeneratorLookupQuery,
      request.query,
      'query',
    );
    if (!pool) return deps.generators.lookup(field, search, page);
    return (
      deps.generators.lookupWithoutScan(field, search, page) ??
      pool.runUntil(untilClientLeaves(reply), 'generatorsLookup', field, search, page)
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

  app.post('/api/tracker/manifests/aggregated_data/', manifestsScope, async (request, reply) => {
    const { filterFields, searchKey } = parse(ManifestAggregateRequest, request.body, 'body');
    const totals =
      pool && deps.manifests.scans(searchKey)
        ? await pool.runUntil(untilClientLeaves(reply), 'manifestsTotals', filterFields, searchKey)
        : deps.manifests.totals(filterFields, searchKey);
    return manifestTotals(totals, deps.dialect);
  });

  app.post('/api/tracker/manifests/', manifestsScope, async (request, reply) => {
    const query = valueOf(readManifestList(request.body), 'body');
    let bytes: Buffer;
    if (pool && deps.manifests.scans(query.searchKey)) {
      const copied = await pool.runUntil(untilClientLeaves(reply), 'manifestsPageBytes', query);
      bytes = Buffer.from(copied.buffer, copied.byteOffset, copied.byteLength);
    } else {
      bytes = deps.manifests.pageBytes(query);
    }
    return reply.type(JSON_TYPE).send(bytes);
  });

  app.get('/api/tracker/shipments_and_waste_volumes/filters/', manifestsScope, (request, reply) => {
    const { field, search, page } = parse(ManifestLookupQuery, request.query, 'query');
    if (!pool) return deps.manifests.lookup(field, search, page);
    return (
      deps.manifests.lookupWithoutScan(field, search, page) ??
      pool.runUntil(untilClientLeaves(reply), 'manifestsLookup', field, search, page)
    );
  });
  done();
};
