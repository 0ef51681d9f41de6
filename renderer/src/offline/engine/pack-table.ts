/**
 * One list of a pack (its generators or its manifests) with the indexes the engine answers from, built once
 * when the pack opens: for every filter member, each value's row positions; each row's search fields case
 * folded once; each row's rank by its public key. The order of a sort field is built the first time a
 * request sorts by it and kept.
 *
 * A request is then a few passes over typed arrays instead of the shared predicates per row: each member
 * marks the rows one of its values lists (values OR-ed, members AND-ed, as shared/query/filters.ts defines
 * them), one pass keeps the marked rows that pass the date bounds and hold the search key, and a page walks
 * the sort order past the rows it skips. The differential test (test/offline/engine-differential.test.ts)
 * holds the answers to the server's.
 */
import { foldCase } from '../../../../shared/query/search.ts';
import { compareCodePoints, compareValues } from '../../../../shared/query/sort.ts';
import type { Sort } from '../../../../shared/query/index.ts';

/** How a list's rows are found: by key, by the values each filter member lists them under, by search text. */
export interface TableSpec<Row> {
  /** The row's public unique key: the tie-breaker of every order (shared/query/sort.ts). */
  key(row: Row): string;
  /** The texts searchKey matches, one per search field. */
  searchTexts(row: Row): readonly string[];
  /** Per filter member, the values under which a row is listed: a value matches the row exactly when listed. */
  members: Record<string, (row: Row, position: number) => Iterable<string>>;
}

/** The rows one filter and search keep, in position order. */
export interface Selection {
  /** True when nothing was filtered out. */
  all: boolean;
  positions: Int32Array;
}

/** A member's values as a request names them: each value's rows are OR-ed, then AND-ed with other members. */
export type MemberValues = readonly (readonly [member: string, values: readonly string[]])[];

const EMPTY = new Int32Array(0);
/** Selections kept per list: paging through one query, its boxes and its count reuse one scan. */
const SELECTIONS_KEPT = 16;

export class PackTable<Row extends Readonly<Record<string, unknown>>> {
  readonly rows: readonly Row[];
  private readonly members = new Map<string, Map<string, Int32Array>>();
  /** Each row's search fields, folded, joined by NUL: a search key never holds NUL, so no match spans two. */
  private readonly folded: string[];
  private readonly keyRank: Int32Array;
  private readonly orders = new Map<string, Int32Array>();
  private readonly selections = new Map<string, Selection>();

  constructor(rows: readonly Row[], spec: TableSpec<Row>) {
    this.rows = rows;
    for (const [member, valuesOf] of Object.entries(spec.members)) {
      const lists = new Map<string, number[]>();
      rows.forEach((row, position) => {
        for (const value of valuesOf(row, position)) {
          const list = lists.get(value);
          if (list) list.push(position);
          else lists.set(value, [position]);
        }
      });
      this.members.set(
        member,
        new Map([...lists].map(([value, positions]) => [value, Int32Array.from(positions)])),
      );
    }
    this.folded = rows.map((row) => spec.searchTexts(row).map(foldCase).join('\u0000'));
    const keys = rows.map((row) => spec.key(row));
    const byKey = Int32Array.from(keys, (_key, position) => position).sort((a, b) =>
      compareCodePoints(keys[a] ?? '', keys[b] ?? ''),
    );
    this.keyRank = new Int32Array(rows.length);
    byKey.forEach((position, rank) => {
      this.keyRank[position] = rank;
    });
  }

  get size(): number {
    return this.rows.length;
  }

  /** The distinct values a member lists rows under (a lookup's values). */
  valuesOf(member: string): string[] {
    return [...(this.members.get(member)?.keys() ?? [])];
  }

  /**
   * The rows matching every member (any one of its values), `keep` and the search key. `cacheKey` names the
   * filter and search (the canonical request key), so a repeated one is not scanned again.
   */
  select(
    cacheKey: string,
    members: MemberValues,
    searchKey: string,
    keep?: (row: Row) => boolean,
  ): Selection {
    const kept = this.selections.get(cacheKey);
    if (kept) {
      this.selections.delete(cacheKey);
      this.selections.set(cacheKey, kept);
      return kept;
    }
    const selection = this.scan(members, searchKey, keep);
    this.selections.set(cacheKey, selection);
    if (this.selections.size > SELECTIONS_KEPT) {
      const oldest = this.selections.keys().next().value;
      if (oldest !== undefined) this.selections.delete(oldest);
    }
    return selection;
  }

  private scan(members: MemberValues, searchKey: string, keep?: (row: Row) => boolean): Selection {
    const size = this.rows.length;
    const restricting = members.filter(([, values]) => values.length > 0);
    // marks[position] = how many members in a row, from the first, the row matched so far.
    const marks = restricting.length > 0 ? new Uint8Array(size) : undefined;
    restricting.forEach(([member, values], index) => {
      const byValue = this.members.get(member);
      if (!byValue || !marks) throw new Error(`no index for filter member ${member}`);
      for (const value of values) {
        for (const position of byValue.get(value) ?? EMPTY) {
          if (marks[position] === index) marks[position] = index + 1;
        }
      }
    });
    const needed = restricting.length;
    const key = foldCase(searchKey);
    const positions = new Int32Array(size);
    let count = 0;
    for (let position = 0; position < size; position += 1) {
      if (marks && marks[position] !== needed) continue;
      if (keep && !keep(this.rows[position] as Row)) continue;
      if (key !== '' && !(this.folded[position] as string).includes(key)) continue;
      positions[count] = position;
      count += 1;
    }
    return { all: count === size, positions: positions.slice(0, count) };
  }

  /** The positions of page `page` of `selection` in `sort` order, ties broken by the key in the same direction. */
  page(selection: Selection, sort: Sort<string>, page: number, pageSize: number): number[] {
    const skip = page * pageSize;
    const count = selection.positions.length;
    if (skip >= count) return [];
    const order = this.orderOf(sort.field);
    const size = order.length;
    const descending = sort.direction === 'desc';
    const at = (index: number) => order[descending ? size - 1 - index : index] ?? 0;
    const result: number[] = [];
    if (selection.all) {
      for (let index = skip; index < Math.min(count, skip + pageSize); index += 1) result.push(at(index));
      return result;
    }
    const chosen = new Uint8Array(size);
    for (const position of selection.positions) chosen[position] = 1;
    let seen = 0;
    for (let index = 0; index < size && result.length < pageSize; index += 1) {
      const position = at(index);
      if (chosen[position] !== 1) continue;
      if (seen >= skip) result.push(position);
      seen += 1;
    }
    return result;
  }

  /**
   * Positions in ascending order of `field`, ties by key (descending is this read backwards: both the field
   * and the tie-breaker reverse, as the server's ORDER BY field DESC, key DESC). Values are ranked once among
   * their distinct values (shared compareValues), so the sort itself compares integers.
   */
  private orderOf(field: string): Int32Array {
    let order = this.orders.get(field);
    if (!order) {
      const values = this.rows.map((row) => row[field]);
      const distinct = [...new Set(values)].sort(compareValues);
      const rankOf = new Map(distinct.map((value, rank) => [value, rank]));
      const ranks = Int32Array.from(values, (value) => rankOf.get(value) ?? 0);
      const keyRank = this.keyRank;
      order = Int32Array.from(values, (_value, position) => position).sort(
        (a, b) => (ranks[a] ?? 0) - (ranks[b] ?? 0) || (keyRank[a] ?? 0) - (keyRank[b] ?? 0),
      );
      this.orders.set(field, order);
    }
    return order;
  }
}
