/**
 * What every answer of the engine shares: reading a request as the server reads it (its zod schema first,
 * then the shared parsers), errors as the IPC contract's values, rows cut to the selected fields, and a list
 * page.
 */
import type { z } from 'zod';
import type { PageInfo } from '../../../../shared/api/index.ts';
import type { IpcError } from '../../../../shared/ipc/contract.ts';
import { parseSelectedFields, parseSort, type Parsed, type Sort } from '../../../../shared/query/index.ts';
import { parseSearch } from '../../../../shared/query/search.ts';
import type { PackTable, Selection } from './pack-table.ts';

export const fail = (kind: IpcError['kind'], message: string): { ok: false; error: IpcError } => ({
  ok: false,
  error: { kind, message },
});

/** Neumaier's compensated sum, as SQLite's sum() adds, then round(·, 4) as the server's totals round. */
export function compensatedTotal(values: Float64Array, positions: Int32Array): number {
  let sum = 0;
  let compensation = 0;
  for (const position of positions) {
    const value = values[position] ?? 0;
    const total = sum + value;
    compensation += Math.abs(sum) >= Math.abs(value) ? sum - total + value : value - total + sum;
    sum = total;
  }
  return Math.round((sum + compensation) * 10_000) / 10_000;
}

/** A schema's reading of an input, or the first problem as the server words it ("path: message"). */
export function read<Schema extends z.ZodType>(schema: Schema, input: unknown): Parsed<z.output<Schema>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue?.path.join('.') ?? '';
  return { ok: false, message: `${path === '' ? '' : `${path}: `}${issue?.message ?? 'invalid request'}` };
}

/** Reads every parameter; the first that fails is the answer. */
export function all<T extends readonly Parsed<unknown>[]>(
  ...parsed: T
):
  | { ok: true; values: { [K in keyof T]: T[K] extends Parsed<infer V> ? V : never } }
  | { ok: false; message: string } {
  for (const one of parsed) if (!one.ok) return one;
  return {
    ok: true,
    values: parsed.map((one) => (one as { value: unknown }).value) as {
      [K in keyof T]: T[K] extends Parsed<infer V> ? V : never;
    },
  };
}

/** Refuses rows a pack cannot be queried over: selectedFields, sorts and searches read every field. */
export function requireFields(
  rows: readonly Readonly<Record<string, unknown>>[],
  fields: readonly string[],
  what: string,
) {
  rows.forEach((row, position) => {
    for (const field of fields) {
      if (!(field in row)) {
        throw new Error(
          `${what} ${position + 1} of the pack lacks "${field}": a pack holds every field of its rows`,
        );
      }
    }
  });
}

/** A row with only the selected fields, in their order, as the server returns it. */
export function pick(
  row: Readonly<Record<string, unknown>>,
  fields: readonly string[],
): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) picked[field] = row[field];
  return picked;
}

/** How one list reads its pages: its sortable and selectable fields and how a filter and search select. */
export interface ListRules<Filters> {
  sortable: readonly string[];
  defaultSort: Sort<string>;
  fields: readonly string[];
  select(filters: Filters, searchKey: string): Selection;
  /** Why the pack cannot answer these filters exactly, if it cannot. */
  refuse?(filters: Filters): { ok: false; error: IpcError } | undefined;
}

/** A list page as the server answers it: the request's parameters read as it reads them, then one page. */
export function listPage<Row extends Readonly<Record<string, unknown>>, Filters>(
  table: PackTable<Row>,
  records: readonly Row[],
  request: { pageInfo: PageInfo; filterFields: Filters; searchKey: string },
  rules: ListRules<Filters>,
):
  | { ok: true; data: { totalElements: number; content: Record<string, unknown>[] } }
  | { ok: false; error: IpcError } {
  const { pageInfo, filterFields } = request;
  const parsed = all(
    parseSearch(request.searchKey, 'searchKey'),
    parseSort(pageInfo.sort, rules.sortable, rules.defaultSort),
    parseSelectedFields(pageInfo.selectedFields, rules.fields),
  );
  if (!parsed.ok) return fail('bad-request', parsed.message);
  const [searchKey, sort, fields] = parsed.values;
  const refused = rules.refuse?.(filterFields);
  if (refused) return refused;
  const selection = rules.select(filterFields, searchKey);
  const positions = table.page(selection, sort, pageInfo.page, pageInfo.pageSize);
  return {
    ok: true,
    data: {
      totalElements: selection.positions.length,
      content: positions.map((position) => pick(records[position] as Row, fields)),
    },
  };
}
