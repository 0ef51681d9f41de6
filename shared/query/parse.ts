/**
 * Reading a request as the server reads it, written once for every place that must agree: the server's
 * routes, main's IPC handlers and the offline engine. A request is checked by its wire schema (shared/api),
 * then its list parameters: `sort` and `selectedFields` (docs/api.md). A problem is worded one way wherever
 * it is found: `<path>: <message>`, the path naming the member (`pageInfo.sort`).
 */
import type { z } from 'zod';
import {
  GENERATOR_FIELDS,
  GeneratorListRequest,
  MANIFEST_FIELDS,
  ManifestListRequest,
  type GeneratorField,
  type GeneratorFilterFields,
  type ManifestField,
  type ManifestFilterFields,
} from '../api/index.ts';
import { GENERATOR_QUERY, MANIFEST_QUERY, type Sort } from './definition.ts';

/** Outcome of reading one request parameter: the value, or a message for a 400 answer. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** One problem with a request: the member it is in (dotted, '' for the whole request) and what is wrong. */
export interface Issue {
  path: string;
  message: string;
}

/** Outcome of reading a whole request: its value, or every problem found, the first the most telling. */
export type Read<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** A schema's problems in the words every reader uses. */
export function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message:
      issue.code === 'unrecognized_keys'
        ? `unknown member${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`
        : issue.message,
  }));
}

/** The first problem, naming its member (`whole` when it is the whole request), and how many more. */
export function describeIssues(issues: readonly Issue[], whole = 'input'): string {
  const [first] = issues;
  if (!first) return `the ${whole} is not valid`;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${first.path === '' ? whole : first.path}: ${first.message}${more}`;
}

/** A request read by its schema. */
export function readRequest<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): Read<z.output<Schema>> {
  const parsed = schema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: issuesOf(parsed.error) };
}

/**
 * Reads `sort`: "<field> asc|desc"; empty means the default. Ties are always broken by the row's public
 * unique key in the same direction (definition.ts), so paging is stable.
 */
export function parseSort<Field extends string>(
  text: string | undefined,
  fields: readonly Field[],
  fallback: Sort<Field>,
): Parsed<Sort<Field>> {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return { ok: true, value: fallback };
  const [field, direction = 'asc', ...rest] = trimmed.split(/\s+/);
  if (rest.length > 0) return { ok: false, message: `sort must be "<field> asc|desc", got "${trimmed}"` };
  if (!fields.includes(field as Field)) {
    return { ok: false, message: `cannot sort by unknown field "${field}"; sortable: ${fields.join(', ')}` };
  }
  const lower = direction.toLowerCase();
  if (lower !== 'asc' && lower !== 'desc') {
    return { ok: false, message: `sort direction must be asc or desc, got "${direction}"` };
  }
  return { ok: true, value: { field: field as Field, direction: lower } };
}

/**
 * Reads `selectedFields`: comma-separated row fields; spaces, empty items and a trailing comma are ignored;
 * empty means every field; duplicates collapse; an unknown field is refused by name.
 */
export function parseSelectedFields<Field extends string>(
  text: string | undefined,
  fields: readonly Field[],
): Parsed<Field[]> {
  const names = (text ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) return { ok: true, value: [...fields] };
  const unknown = names.filter((name) => !fields.includes(name as Field));
  if (unknown.length > 0) {
    return {
      ok: false,
      message: `unknown field${unknown.length > 1 ? 's' : ''} in selectedFields: ${unknown.join(', ')}`,
    };
  }
  return { ok: true, value: fields.filter((field) => names.includes(field)) };
}

/** A list request as every engine answers it: what to match, in which order, which page, which fields. */
export interface ListQuery<Field extends string, Filters> {
  filterFields: Filters;
  searchKey: string;
  sort: Sort<Field>;
  page: number;
  pageSize: number;
  /** The fields each row carries, in the row's field order. */
  fields: readonly Field[];
}

function readList<Field extends string, Filters>(
  schema: z.ZodType<{
    pageInfo: {
      page: number;
      pageSize: number;
      sort?: string | undefined;
      selectedFields?: string | undefined;
    };
    filterFields: Filters;
    searchKey: string;
  }>,
  input: unknown,
  definition: { sortFields: readonly Field[]; defaultSort: Sort<Field> },
  fields: readonly Field[],
): Read<ListQuery<Field, Filters>> {
  const request = readRequest(schema, input);
  if (!request.ok) return request;
  const { pageInfo, filterFields, searchKey } = request.value;
  const sort = parseSort(pageInfo.sort, definition.sortFields, definition.defaultSort);
  if (!sort.ok) return { ok: false, issues: [{ path: 'pageInfo.sort', message: sort.message }] };
  const selected = parseSelectedFields(pageInfo.selectedFields, fields);
  if (!selected.ok) {
    return { ok: false, issues: [{ path: 'pageInfo.selectedFields', message: selected.message }] };
  }
  return {
    ok: true,
    value: {
      filterFields,
      searchKey,
      sort: sort.value,
      page: pageInfo.page,
      pageSize: pageInfo.pageSize,
      fields: selected.value,
    },
  };
}

export function readGeneratorList(input: unknown): Read<ListQuery<GeneratorField, GeneratorFilterFields>> {
  return readList(GeneratorListRequest, input, GENERATOR_QUERY, GENERATOR_FIELDS);
}

export function readManifestList(input: unknown): Read<ListQuery<ManifestField, ManifestFilterFields>> {
  return readList(ManifestListRequest, input, MANIFEST_QUERY, MANIFEST_FIELDS);
}
