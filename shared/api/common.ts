import { z } from 'zod';
import { BOUNDS_MESSAGES, LIMITS } from './limits.ts';

export { LIMITS, BOUNDS_MESSAGES } from './limits.ts';

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

const isControl = (unit: number) => unit < 0x20 || unit === 0x7f;

/** The first control character in a search, if any: its position (from 1) and code point ("U+0007"). */
export function controlCharacterIn(text: string): { position: number; codePoint: string } | undefined {
  const characters = [...text];
  const at = characters.findIndex((character) => isControl(character.charCodeAt(0)));
  if (at === -1) return undefined;
  const point = (characters[at] ?? '').charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return { position: at + 1, codePoint: `U+${point}` };
}

/** A search without its control characters: what a user who pasted one by mistake meant. */
export function withoutControlCharacters(text: string): string {
  return [...text].filter((character) => !isControl(character.charCodeAt(0))).join('');
}

/**
 * A search text (`name` is how messages call it): at most `max` characters, and no control character
 * (U+0000–U+001F, U+007F). Those are refused rather than matched: SQLite's text matching stops at a NUL (a
 * NUL key matched every row, and cut the index query short), names and ids do not hold them, and a pasted
 * tab or newline is far likelier a slip than a search. Main reads every request with these schemas (the IPC
 * contract), so a bad key is refused there in the server's words and never sent.
 */
function searchText(name: string, max: number) {
  return (
    z
      .string()
      // A text too long is not also searched for control characters: one problem, as the server always said.
      .max(max, { message: `${name} is at most ${max} characters`, abort: true })
      .superRefine((text, context) => {
        const found = controlCharacterIn(text);
        if (!found) return;
        context.addIssue({
          code: 'custom',
          message: `${name} must not hold control characters (U+0000–U+001F, U+007F); found ${found.codePoint} at character ${found.position}`,
        });
      })
  );
}

export const SearchKey = searchText('searchKey', LIMITS.searchKeyMax);

/** A text field of a list row or a waste line, bounded (LIMITS.fieldTextMax). */
export const FieldText = z.string().max(LIMITS.fieldTextMax, BOUNDS_MESSAGES.fieldText);

/** One filterFields member: a list of values, OR-ed together. */
export const FilterValues = z
  .array(z.string().max(200))
  .max(LIMITS.filterValuesMax, `at most ${LIMITS.filterValuesMax} values per filter`);

/** Query string of both lookup endpoints (spec 4.3, 4.7); `page` is 1-based. */
export function lookupQuery<const Fields extends readonly [string, ...string[]]>(fields: Fields) {
  return z.strictObject({
    field: z.enum(fields),
    page: z.coerce.number().int().min(1, 'page is 1-based and must be ≥ 1'),
    search: searchText('search', LIMITS.lookupSearchMax).optional().default(''),
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
