import { z } from 'zod';

/** Limits the spec leaves "not shown" (spec 8); decided in docs/api.md. */
export const LIMITS = {
  pageSizeMax: 500,
  searchKeyMax: 200,
  lookupSearchMax: 100,
  filterValuesMax: 1000,
  lookupPageSize: 50,
  bodyBytesMax: 256 * 1024,
} as const;

/** spec 4.0 item 3. `filters` has no documented grammar; only "" and "all=" (no extra filter) are accepted. */
export const PageInfo = z.strictObject({
  page: z.number().int().min(0, 'page is 0-based and must be ≥ 0'),
  pageSize: z.number().int().min(1).max(LIMITS.pageSizeMax),
  filters: z
    .string()
    .refine(
      (value) => value === '' || value === 'all=',
      'only "" or "all=" is supported (no other filter grammar)',
    )
    .optional(),
  selectedFields: z.string().max(2000).optional(),
  sort: z.string().max(100).optional(),
});
export type PageInfo = z.infer<typeof PageInfo>;

export const SearchKey = z
  .string()
  .max(LIMITS.searchKeyMax, `searchKey is at most ${LIMITS.searchKeyMax} characters`);

/** One filterFields member: a list of values, OR-ed together. */
export const FilterValues = z
  .array(z.string().max(200))
  .max(LIMITS.filterValuesMax, `at most ${LIMITS.filterValuesMax} values per filter`);

/** Query string of both lookup endpoints (spec 4.3, 4.7); `page` is 1-based. */
export function lookupQuery<const Fields extends readonly [string, ...string[]]>(fields: Fields) {
  return z.strictObject({
    field: z.enum(fields),
    page: z.coerce.number().int().min(1, 'page is 1-based and must be ≥ 1'),
    search: z
      .string()
      .max(LIMITS.lookupSearchMax, `search is at most ${LIMITS.lookupSearchMax} characters`)
      .optional()
      .default(''),
  });
}

/**
 * spec 2.7. `group` is this server's addition (docs/api.md "Lookups"): the heading a value is listed under
 * when one lookup lists the values of several fields (the status lookup: registration and federal generator
 * statuses). A server without it sends none, and a client lists the values under one heading.
 */
export const LookupResult = z.object({
  results: z.array(z.object({ value: z.string(), text: z.string(), group: z.string().optional() })),
  pagination: z.object({ more: z.boolean() }),
});
export type LookupResult = z.infer<typeof LookupResult>;

/** Authentication (spec 5; the login operation is "not shown" there and decided in docs/api.md). */
export const LoginRequest = z.strictObject({
  username: z.string().min(1).max(100),
  password: z.string().min(1).max(1000),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const Scope = z.enum(['generators', 'manifests']);
export type Scope = z.infer<typeof Scope>;

export const LoginResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
  scopes: z.array(Scope).optional(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

/** RFC 9457 problem details, the body of every error answer. */
export const Problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type Problem = z.infer<typeof Problem>;
