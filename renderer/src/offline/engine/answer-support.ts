/**
 * What every answer of the engine shares: a request read as the server reads it and refused in the same
 * words (shared/query/parse.ts), errors as the IPC contract's values, each filter member's index and the
 * ranges of the bound members built from shared/query's definition, rows cut to the selected fields, and a
 * list page.
 */
import type { IpcError } from '../../../../shared/ipc/contract.ts';
import { valuesMembers, type Member } from '../../../../shared/query/definition.ts';
import { describeIssues, type ListQuery, type Read } from '../../../../shared/query/parse.ts';
import type { MemberValues, PackTable, Range, Selection } from './pack-table.ts';

type Failure = { ok: false; error: IpcError };

export const fail = (kind: IpcError['kind'], message: string): Failure => ({
  ok: false,
  error: { kind, message },
});

/** A request's reading, or its refusal as the server words it. */
export function answerable<T>(read: Read<T>): { ok: true; value: T } | Failure {
  return read.ok ? read : fail('bad-request', describeIssues(read.issues));
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

/**
 * Per filter member that lists values, the values a row is listed under (pack-table.ts): its field's text
 * for `equals`, the values of its fact for `holds` (`factValues`, which never gives "").
 */
export function memberIndexes<Row extends Readonly<Record<string, unknown>>, Fact extends string>(
  members: Readonly<Record<string, Member<string, Fact>>>,
  factValues: (fact: Fact, row: Row, position: number) => Iterable<string>,
): Record<string, (row: Row, position: number) => Iterable<string>> {
  const indexes: Record<string, (row: Row, position: number) => Iterable<string>> = {};
  for (const [name, member] of valuesMembers(members)) {
    indexes[name] =
      member.match === 'equals'
        ? (row) => [String(row[member.field])]
        : (row, position) => factValues(member.fact, row, position);
  }
  return indexes;
}

/** The values each listing member of `filters` asks for, in the definition's order. */
export function memberValues(
  members: Readonly<Record<string, Member<string, string>>>,
  filters: Readonly<Record<string, unknown>>,
): MemberValues {
  return valuesMembers(members).map(([name]) => {
    const values = filters[name];
    return [name, Array.isArray(values) ? (values as string[]) : []] as const;
  });
}

/** The bound members of `filters` as ranges of their fields' order, both bounds inclusive. */
export function ranges(
  members: Readonly<Record<string, Member<string, string>>>,
  filters: Readonly<Record<string, unknown>>,
): Range[] {
  const byField = new Map<string, Range>();
  for (const [name, member] of Object.entries(members)) {
    if (member.match !== 'from' && member.match !== 'to') continue;
    const range = byField.get(member.field) ?? { field: member.field };
    byField.set(member.field, range);
    const value = filters[name];
    // An empty bound is no bound (definition.ts).
    if (typeof value === 'string' && value !== '') range[member.match] = value;
  }
  return [...byField.values()];
}

/** A list page as the server answers it, from the rows `select` keeps. */
export function listPage<Row extends Readonly<Record<string, unknown>>, Filters>(
  table: PackTable<Row>,
  records: readonly Row[],
  query: ListQuery<string, Filters>,
  select: (filters: Filters, searchKey: string) => Selection,
): { ok: true; data: { totalElements: number; content: Record<string, unknown>[] } } {
  const selection = select(query.filterFields, query.searchKey);
  const positions = table.page(selection, query.sort, query.page, query.pageSize);
  return {
    ok: true,
    data: {
      totalElements: selection.positions.length,
      content: positions.map((position) => pick(records[position] as Row, query.fields)),
    },
  };
}
