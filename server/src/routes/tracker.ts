/**
 * The tracker endpoints (spec 4.1–4.7), paths exactly as the spec writes them. Routes only validate, call the
 * store (store/store.ts) and shape the answer for the wire dialect. Each read carries a signal that aborts
 * when its client leaves first, so that the store can drop work nobody will read.
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
import { untilClientLeaves } from '../http/client-gone.ts';
import type { TrackerStore } from '../store/store.ts';

export interface TrackerDeps {
  store: TrackerStore;
  dialect: Dialect;
  /** Refuse the lookups the spec does not list (app.ts `specOnly`). */
  specOnly: boolean;
}

/** The manifests page is sent as the bytes the store writes (waste lines spliced in as stored JSON). */
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

/** Registered on the app as a plugin of its own, with the store it calls. */
export const trackerRoutes: FastifyPluginCallback<TrackerDeps> = (app, deps, done) => {
  const generatorsScope = { config: { scopes: ['generators'] as const } };
  const manifestsScope = { config: { scopes: ['manifests'] as const } };

  const { store } = deps;

  app.post('/api/tracker/generators/aggregated_data/', generatorsScope, async (request, reply) => {
    const { filterFields, searchKey } = parse(GeneratorAggregateRequest, request.body, 'body');
    const totals = await store.generators.totals(filterFields, searchKey, untilClientLeaves(reply));
    return generatorTotals(totals, deps.dialect);
  });

  app.post('/api/tracker/generators/', generatorsScope, (request, reply) => {
    const query = valueOf(readGeneratorList(request.body), 'body');
    return store.generators.page(query, untilClientLeaves(reply));
  });

  app.get('/api/tracker/generators/filters/', generatorsScope, (request, reply) => {
    // A spec-only server knows only the spec's fields, and says which those are, as for any unknown one.
    const { field, search, page } = parse(
      deps.specOnly ? SpecGeneratorLookupQuery : GeneratorLookupQuery,
      request.query,
      'query',
    );
    return store.generators.lookup(field, search, page, untilClientLeaves(reply));
  });

  app.get(
    '/api/tracker/generators/details/',
    { config: { scopes: ['generators', 'manifests'] as const } },
    async (request) => {
      const query = parse(GeneratorDetailQuery, request.query, 'query');
      const detail = await store.details.find(query.handler_id);
      if (!detail) throw new HttpProblem(404, `no generator with EPA handler id "${query.handler_id}"`);
      return generatorDetail(detail, deps.dialect);
    },
  );

  app.post('/api/tracker/manifests/aggregated_data/', manifestsScope, async (request, reply) => {
    const { filterFields, searchKey } = parse(ManifestAggregateRequest, request.body, 'body');
    const totals = await store.manifests.totals(filterFields, searchKey, untilClientLeaves(reply));
    return manifestTotals(totals, deps.dialect);
  });

  app.post('/api/tracker/manifests/', manifestsScope, async (request, reply) => {
    const query = valueOf(readManifestList(request.body), 'body');
    const bytes = await store.manifests.pageBytes(query, untilClientLeaves(reply));
    return reply.type(JSON_TYPE).send(bytes);
  });

  app.get('/api/tracker/shipments_and_waste_volumes/filters/', manifestsScope, (request, reply) => {
    const { field, search, page } = parse(ManifestLookupQuery, request.query, 'query');
    return store.manifests.lookup(field, search, page, untilClientLeaves(reply));
  });
  done();
};
