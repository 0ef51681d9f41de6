/**
 * The tracker API's endpoints as request descriptions for the client: path (trailing slash as the API
 * spells it), body or query, the schema that reads the answer, and which requests supersede each other.
 */
import { z } from 'zod';
import {
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
import type { ApiRequest } from './client.ts';

type LookupQuery = ParsedInputOf<'generators', 'lookup'> | ParsedInputOf<'manifests', 'lookup'>;

function lookupParameters(query: LookupQuery): Record<string, string> {
  return { field: query.field, page: String(query.page), search: query.search };
}

/**
 * Supersede keys: a new aggregate or detail replaces the one in flight; a list page replaces the same page
 * of an older query (a grid asks for several pages at once, which must not cancel each other); a lookup
 * replaces the same page of the same filter box (typing "ab" after "a").
 */
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
    supersedeKey: 'generators.aggregate',
    scope: 'generators',
  }),
  generatorsList: (body: ParsedInputOf<'generators', 'list'>): ApiRequest<typeof GeneratorList> => ({
    method: 'POST',
    path: '/api/tracker/generators/',
    body,
    response: GeneratorList,
    supersedeKey: `generators.list page ${body.pageInfo.page}`,
    scope: 'generators',
  }),
  generatorsLookup: (query: ParsedInputOf<'generators', 'lookup'>): ApiRequest<typeof LookupResult> => ({
    method: 'GET',
    path: '/api/tracker/generators/filters/',
    query: lookupParameters(query),
    response: LookupResult,
    supersedeKey: `generators.lookup ${query.field} page ${query.page}`,
    scope: 'generators',
  }),
  generatorDetail: (query: ParsedInputOf<'generators', 'detail'>): ApiRequest<typeof GeneratorDetail> => ({
    method: 'GET',
    path: '/api/tracker/generators/details/',
    query: { handler_id: query.handler_id },
    response: GeneratorDetail,
    supersedeKey: 'generators.detail',
    scope: 'generators',
  }),
  manifestsAggregate: (body: ParsedInputOf<'manifests', 'aggregate'>): ApiRequest<typeof ManifestTotals> => ({
    method: 'POST',
    path: '/api/tracker/manifests/aggregated_data/',
    body,
    response: ManifestTotals,
    supersedeKey: 'manifests.aggregate',
    scope: 'manifests',
  }),
  manifestsList: (body: ParsedInputOf<'manifests', 'list'>): ApiRequest<typeof ManifestList> => ({
    method: 'POST',
    path: '/api/tracker/manifests/',
    body,
    response: ManifestList,
    supersedeKey: `manifests.list page ${body.pageInfo.page}`,
    scope: 'manifests',
  }),
  manifestsLookup: (query: ParsedInputOf<'manifests', 'lookup'>): ApiRequest<typeof LookupResult> => ({
    method: 'GET',
    path: '/api/tracker/shipments_and_waste_volumes/filters/',
    query: lookupParameters(query),
    response: LookupResult,
    supersedeKey: `manifests.lookup ${query.field} page ${query.page}`,
    scope: 'manifests',
  }),
};
