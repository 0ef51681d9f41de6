/**
 * The tracker API's endpoints as request descriptions for the client: path (trailing slash as the API
 * spells it), body or query, the schema that reads the answer, and the canonical key under which identical
 * requests in flight share one fetch. Bodies carry every member the spec's samples carry, so a tracker
 * service that expects them all (not only ours) reads them as it reads the samples.
 */
import { z } from 'zod';
import {
  LIMITS,
  GENERATOR_FIELDS,
  MANIFEST_FIELDS,
  GeneratorDetail,
  GeneratorList,
  GeneratorTotals,
  LoginResponse,
  LookupResult,
  ManifestList,
  ManifestTotals,
  type LoginRequest,
} from '../../../shared/api/index.ts';
import type { ParsedInputOf } from '../../../shared/ipc/contract.ts';
import { requestKey } from '../../../shared/query/canonical.ts';
import { GENERATOR_QUERY, MANIFEST_QUERY, type Sort } from '../../../shared/query/definition.ts';
import type { ApiRequest } from './client.ts';

type LookupQuery = ParsedInputOf<'generators', 'lookup'> | ParsedInputOf<'manifests', 'lookup'>;
type PageInfo = ParsedInputOf<'generators', 'list'>['pageInfo'];

function lookupParameters(query: LookupQuery): Record<string, string> {
  return { field: query.field, page: String(query.page), search: query.search };
}

/**
 * Spec 4.0 rule 3 as the samples send it: `filters: "all="`, every field named, and the sort spelled out.
 * The defaults say exactly what our server does without them, so the answer is the same either way.
 */
function fullPageInfo(pageInfo: PageInfo, fields: readonly string[], sort: Sort<string>): Required<PageInfo> {
  return {
    page: pageInfo.page,
    pageSize: pageInfo.pageSize,
    filters: pageInfo.filters || 'all=',
    selectedFields: pageInfo.selectedFields?.trim() || fields.join(','),
    sort: pageInfo.sort?.trim() || `${sort.field} ${sort.direction}`,
  };
}

export const endpoints = {
  login: (body: LoginRequest): ApiRequest<typeof LoginResponse> => ({
    method: 'POST',
    path: '/api/tracker/auth/login/',
    body,
    response: LoginResponse,
    // A repeated sign-in could count twice against the server's throttle of failed attempts.
    retry: false,
  }),
  logout: (): ApiRequest<z.ZodNull> => ({
    method: 'POST',
    path: '/api/tracker/auth/logout/',
    response: z.null(),
  }),
  generatorsAggregate: (
    body: ParsedInputOf<'generators', 'aggregate'>,
  ): ApiRequest<typeof GeneratorTotals> => ({
    method: 'POST',
    path: '/api/tracker/generators/aggregated_data/',
    body,
    response: GeneratorTotals,
    shareKey: requestKey('generators.aggregate', body),
    scope: 'generators',
  }),
  generatorsList: (body: ParsedInputOf<'generators', 'list'>): ApiRequest<typeof GeneratorList> => ({
    method: 'POST',
    path: '/api/tracker/generators/',
    body: { ...body, pageInfo: fullPageInfo(body.pageInfo, GENERATOR_FIELDS, GENERATOR_QUERY.defaultSort) },
    limitBytes: LIMITS.answerBytesMax.page,
    response: GeneratorList,
    shareKey: requestKey('generators.list', body),
    scope: 'generators',
  }),
  generatorsLookup: (query: ParsedInputOf<'generators', 'lookup'>): ApiRequest<typeof LookupResult> => ({
    method: 'GET',
    path: '/api/tracker/generators/filters/',
    query: lookupParameters(query),
    limitBytes: LIMITS.answerBytesMax.lookup,
    response: LookupResult,
    shareKey: requestKey('generators.lookup', query),
    scope: 'generators',
  }),
  generatorDetail: (query: ParsedInputOf<'generators', 'detail'>): ApiRequest<typeof GeneratorDetail> => ({
    method: 'GET',
    path: '/api/tracker/generators/details/',
    query: { handler_id: query.handler_id },
    limitBytes: LIMITS.answerBytesMax.detail,
    response: GeneratorDetail,
    shareKey: requestKey('generators.detail', query),
    scope: 'generators',
  }),
  manifestsAggregate: (body: ParsedInputOf<'manifests', 'aggregate'>): ApiRequest<typeof ManifestTotals> => ({
    method: 'POST',
    path: '/api/tracker/manifests/aggregated_data/',
    body,
    response: ManifestTotals,
    shareKey: requestKey('manifests.aggregate', body),
    scope: 'manifests',
  }),
  manifestsList: (body: ParsedInputOf<'manifests', 'list'>): ApiRequest<typeof ManifestList> => ({
    method: 'POST',
    path: '/api/tracker/manifests/',
    body: { ...body, pageInfo: fullPageInfo(body.pageInfo, MANIFEST_FIELDS, MANIFEST_QUERY.defaultSort) },
    limitBytes: LIMITS.answerBytesMax.page,
    response: ManifestList,
    shareKey: requestKey('manifests.list', body),
    scope: 'manifests',
  }),
  manifestsLookup: (query: ParsedInputOf<'manifests', 'lookup'>): ApiRequest<typeof LookupResult> => ({
    method: 'GET',
    path: '/api/tracker/shipments_and_waste_volumes/filters/',
    query: lookupParameters(query),
    limitBytes: LIMITS.answerBytesMax.lookup,
    response: LookupResult,
    shareKey: requestKey('manifests.lookup', query),
    scope: 'manifests',
  }),
};
