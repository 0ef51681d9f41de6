/**
 * The test oracle: shared/query's definition run directly over rows, with no index, no SQL and no engine.
 * Each member's entry is read as docs/api.md words it (values OR-ed, members AND-ed, an empty member no
 * restriction, `holds` never matching ""), the search over the definition's search fields, the order by the
 * sort field and then the public key, and each total as its reduction says. The server's SQL and counts and
 * the offline engine are built from the same entries and held to this.
 *
 * A row's facts and derived quantities are the caller's, read from the raw data (test/server/support.ts
 * reads them from the raw SQLite tables, never from the server's derived sets).
 */
import type { ListDefinition, Member, Reduction, Sort } from '../../shared/query/definition.ts';
import { matchesAnySearch } from '../../shared/query/search.ts';
import { compareValues } from '../../shared/query/sort.ts';

type Row = Readonly<Record<string, unknown>>;

/** A row with what the definition derives for it. */
export interface OracleItem {
  row: Row;
  /** Each fact the members read, by the definition's fact name; a fact never holds "". */
  facts: Readonly<Record<string, ReadonlySet<string>>>;
  /** Each derived quantity the totals read, by the definition's quantity name. */
  quantities?: Readonly<Record<string, number>>;
}

/** The parts of a list's definition the oracle reads, for either list. */
export type Definition = Pick<
  // The definitions are checked against ListDefinition where they are written; here any list is one.
  ListDefinition<string, Record<string, unknown>, string, string, string>,
  'key' | 'searchFields' | 'quantities'
> & {
  members: Readonly<Record<string, Member<string, string>>>;
  totals: Readonly<Record<string, Reduction<string>>>;
};

function text(row: Row, field: string): string {
  const value = row[field];
  if (typeof value !== 'string') throw new Error(`${field} is not text: ${JSON.stringify(value)}`);
  return value;
}

function memberHolds(member: Member<string, string>, item: OracleItem, value: unknown): boolean {
  switch (member.match) {
    case 'equals':
    case 'holds': {
      const values = Array.isArray(value) ? (value as string[]) : [];
      if (values.length === 0) return true;
      if (member.match === 'equals') return values.includes(text(item.row, member.field));
      const fact = item.facts[member.fact];
      if (!fact) throw new Error(`the row has no fact ${member.fact}`);
      return values.some((one) => one !== '' && fact.has(one));
    }
    case 'from':
    case 'to': {
      if (typeof value !== 'string' || value === '') return true;
      const side = compareValues(item.row[member.field], value);
      return member.match === 'from' ? side >= 0 : side <= 0;
    }
  }
}

/** True when the row matches every member of `filters` and the search key. */
export function matches(
  definition: Definition,
  item: OracleItem,
  filters: Readonly<Record<string, unknown>>,
  searchKey = '',
): boolean {
  for (const [name, value] of Object.entries(filters)) {
    const member = definition.members[name];
    if (!member) throw new Error(`no filter member ${name}`);
    if (!memberHolds(member, item, value)) return false;
  }
  return matchesAnySearch(
    definition.searchFields.map((field) => text(item.row, field)),
    searchKey,
  );
}

/** Rows in `sort` order, ties broken by the list's public key in the same direction. */
export function comparator(
  definition: Pick<Definition, 'key'>,
  sort: Sort<string>,
): (a: Row, b: Row) => number {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return (a, b) =>
    sign *
    (compareValues(a[sort.field], b[sort.field]) || compareValues(a[definition.key], b[definition.key]));
}

/** Each total over these rows, as the definition reduces it (sums plain, then rounded). */
export function totals(definition: Definition, items: readonly OracleItem[]): Record<string, number> {
  const quantity = (item: OracleItem, name: string): number => {
    const source = definition.quantities[name];
    if (!source) throw new Error(`no quantity ${name}`);
    const value = 'field' in source ? item.row[source.field] : item.quantities?.[name];
    if (typeof value !== 'number') throw new Error(`${name} is not a number: ${JSON.stringify(value)}`);
    return value;
  };
  const answer: Record<string, number> = {};
  for (const [name, reduction] of Object.entries(definition.totals)) {
    if (reduction.reduce === 'rows') answer[name] = items.length;
    else if (reduction.reduce === 'rowsAbove0') {
      answer[name] = items.filter((item) => quantity(item, reduction.of) > 0).length;
    } else {
      const sum = items.reduce((total, item) => total + quantity(item, reduction.of), 0);
      const scale = 10 ** (reduction.decimals ?? 0);
      answer[name] = reduction.decimals === undefined ? sum : Math.round(sum * scale) / scale;
    }
  }
  return answer;
}
