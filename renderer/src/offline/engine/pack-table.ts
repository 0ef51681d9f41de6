/**
 * One list of a pack (its generators or its manifests) with the indexes the engine answers from: each row's
 * rank by its public key, the order of each sort field, for every filter member each value's row positions,
 * and each row's search fields case folded. A pack opened from rows builds the key order and the default
 * sort's order at once and the others the first time something needs them (a request, or the worker's
 * warm-up: open-pack.ts `warmUpSteps`); `indexes()` builds what is missing and gives them all in the compact
 * form a pack stores (pack-indexes.ts), and a pack opened with them stored builds nothing.
 *
 * A request is then a few passes over typed arrays instead of the shared predicates per row: each member
 * marks the rows one of its values lists (values OR-ed, members AND-ed, as shared/query/definition.ts
 * defines them), a range marks the rows between its bounds in the field's order, one pass keeps the marked rows that
 * hold the search key, and a page walks the sort order past the rows it skips. The differential test
 * (test/offline/engine-differential.test.ts) holds the answers to the server's.
 */
import { foldCase } from '../../../../shared/query/search.ts';
import { compareValues } from '../../../../shared/query/sort.ts';
import type { Sort } from '../../../../shared/query/definition.ts';
import { holding, joinTexts, type JoinedTexts } from './joined-texts.ts';

/** How a list's rows are found: by key, by the values each filter member lists them under, by search text. */
export interface TableSpec<Row> {
  /** The field holding the row's public unique key: the tie-breaker of every order (definition.ts). */
  keyField: string;
  /** The list's default sort field, whose order is built at once: the first view of a pack asks for it. */
  defaultSort: string;
  /** Every field a request may sort by: `indexes()` holds each one's order. */
  sortFields: readonly string[];
  /** The texts searchKey matches, one per search field. */
  searchTexts(row: Row): readonly string[];
  /**
   * Per filter member, the values under which a row is listed: a value matches the row exactly when listed.
   * A value may come more than once for one row (a code on several waste lines); it is listed once.
   */
  members: Record<string, (row: Row, position: number) => Iterable<string>>;
}

/** The rows one filter and search keep, in position order. */
export interface Selection {
  /** True when nothing was filtered out. */
  all: boolean;
  positions: Int32Array;
  /** chosen[position] === 1 for the positions kept; built by the first page that walks an order. */
  chosen?: Uint8Array;
}

/** A member's values as a request names them: each value's rows are OR-ed, then AND-ed with other members. */
export type MemberValues = readonly (readonly [member: string, values: readonly string[]])[];

/** Inclusive bounds on a field, in the field's sort order; an absent bound is no bound. */
export interface Range {
  field: string;
  from?: string | undefined;
  to?: string | undefined;
}

/** One filter member's index as stored: value i lists positions[offsets[i]] up to positions[offsets[i + 1]]. */
export interface StoredMember {
  values: string[];
  offsets: Int32Array;
  positions: Int32Array;
}

/**
 * A table's indexes as a pack stores them. Positions are places in the rows as the pack reads them (chunk
 * key order, stored-pack.ts); `rows` and `checksum` (of the keys in that order) tell whether they still are.
 */
export interface TableIndexes {
  rows: number;
  checksum: number;
  /** Positions in key order. */
  byKey: Int32Array;
  /** Positions in ascending order of each sort field, ties by key. */
  orders: Record<string, Int32Array>;
  members: Record<string, StoredMember>;
  /** Each row's search fields folded, joined by NUL. */
  folded: JoinedTexts;
}

/** FNV-1a over the rows' keys in position order, each ended by NUL: a changed key, set or order changes it. */
export function keyChecksum(rows: readonly Readonly<Record<string, unknown>>[], keyField: string): number {
  let hash = 0x811c9dc5;
  for (const row of rows) {
    const key = String(row[keyField]);
    for (let index = 0; index <= key.length; index += 1) {
      hash ^= index < key.length ? key.charCodeAt(index) : 0;
      hash = Math.imul(hash, 0x01000193);
    }
  }
  return hash >>> 0;
}

/** True when stored indexes were made over exactly these rows in this order, and are whole. */
function fits(stored: TableIndexes, rows: readonly Readonly<Record<string, unknown>>[], keyField: string) {
  const size = rows.length;
  return (
    stored.rows === size &&
    stored.byKey.length === size &&
    stored.folded.starts.length === size + 1 &&
    Object.values(stored.orders).every((order) => order.length === size) &&
    stored.checksum === keyChecksum(rows, keyField)
  );
}

const EMPTY = new Int32Array(0);
/** Selections kept per list: paging through one query, its boxes and its count reuse one scan. */
const SELECTIONS_KEPT = 16;

/**
 * `values` sorted as shared compareValues sorts them. Texts whose UTF-16 units are all below the surrogates
 * sort the same by unit as by code point, so those take the engine's native sort, several times faster.
 */
function sortedValues(values: unknown[]): unknown[] {
  const plainText = values.every((value) => typeof value === 'string' && !/[\uD800-\uFFFF]/.test(value));
  return plainText ? (values as string[]).sort() : values.sort(compareValues);
}

export class PackTable<Row extends Readonly<Record<string, unknown>>> {
  readonly rows: readonly Row[];
  private readonly spec: TableSpec<Row>;
  /** True when the table took stored indexes; false when it built its own (none given, or not these rows'). */
  readonly fromStored: boolean;
  private readonly members = new Map<string, Map<string, Int32Array>>();
  /** Each row's search fields, folded, joined by NUL: a search key never holds NUL, so no match spans two. */
  private folded: JoinedTexts | undefined;
  private readonly keyRank: Int32Array;
  /** Positions in key order: byKey[keyRank[position]] === position. */
  private readonly byKey: Int32Array;
  private readonly orders = new Map<string, Int32Array>();
  private readonly selections = new Map<string, Selection>();
  private checksum: number | undefined;

  /** `stored`: indexes a pack kept, taken when they were made over these rows in this order. */
  constructor(rows: readonly Row[], spec: TableSpec<Row>, stored?: TableIndexes) {
    this.rows = rows;
    this.spec = spec;
    this.fromStored = stored !== undefined && fits(stored, rows, spec.keyField);
    if (stored && this.fromStored) {
      this.checksum = stored.checksum;
      this.byKey = stored.byKey;
      this.folded = stored.folded;
      for (const [field, order] of Object.entries(stored.orders)) this.orders.set(field, order);
      for (const [member, { values, offsets, positions }] of Object.entries(stored.members)) {
        const byValue = new Map<string, Int32Array>();
        values.forEach((value, index) =>
          byValue.set(value, positions.subarray(offsets[index] ?? 0, offsets[index + 1] ?? 0)),
        );
        this.members.set(member, byValue);
      }
    } else {
      const keys = rows.map((row) => String(row[spec.keyField]));
      const positionOf = new Map(keys.map((key, position) => [key, position]));
      this.byKey = Int32Array.from(sortedValues([...keys]) as string[], (key) => positionOf.get(key) ?? 0);
    }
    this.keyRank = new Int32Array(rows.length);
    for (let rank = 0; rank < this.byKey.length; rank += 1) this.keyRank[this.byKey[rank] ?? 0] = rank;
    // Keys are unique, so the key field's order is the key order itself.
    this.orders.set(spec.keyField, this.byKey);
    this.orderOf(spec.defaultSort);
  }

  get size(): number {
    return this.rows.length;
  }

  /** The distinct values a member lists rows under (a lookup's values). */
  valuesOf(member: string): string[] {
    return [...this.memberIndex(member).keys()];
  }

  /** Each value's row positions for one filter member. */
  private memberIndex(member: string): Map<string, Int32Array> {
    let byValue = this.members.get(member);
    if (byValue) return byValue;
    const valuesOf = this.spec.members[member];
    if (!valuesOf) throw new Error(`no index for filter member ${member}`);
    const lists = new Map<string, number[]>();
    this.rows.forEach((row, position) => {
      for (const value of valuesOf(row, position)) {
        const list = lists.get(value);
        // Positions arrive in order, so a value already listed for this row is the list's last entry.
        if (!list) lists.set(value, [position]);
        else if (list[list.length - 1] !== position) list.push(position);
      }
    });
    byValue = new Map<string, Int32Array>();
    for (const [value, positions] of lists) byValue.set(value, Int32Array.from(positions));
    this.members.set(member, byValue);
    return byValue;
  }

  private foldedTexts(): JoinedTexts {
    this.folded ??= joinTexts(
      this.rows.map((row) => this.spec.searchTexts(row).map(foldCase).join('\u0000')),
    );
    return this.folded;
  }

  /** Every index, built now where missing, in the form a pack stores (the arrays are the table's own). */
  indexes(): TableIndexes {
    const orders: Record<string, Int32Array> = {};
    for (const field of [this.spec.keyField, ...this.spec.sortFields]) orders[field] = this.orderOf(field);
    const members: Record<string, StoredMember> = {};
    for (const member of Object.keys(this.spec.members)) {
      const byValue = this.memberIndex(member);
      const offsets = new Int32Array(byValue.size + 1);
      let count = 0;
      [...byValue.values()].forEach((positions, index) => {
        offsets[index] = count;
        count += positions.length;
      });
      offsets[byValue.size] = count;
      const positions = new Int32Array(count);
      [...byValue.values()].forEach((list, index) => positions.set(list, offsets[index] ?? 0));
      members[member] = { values: [...byValue.keys()], offsets, positions };
    }
    this.checksum ??= keyChecksum(this.rows, this.spec.keyField);
    return {
      rows: this.rows.length,
      checksum: this.checksum,
      byKey: this.byKey,
      orders,
      members,
      folded: this.foldedTexts(),
    };
  }

  /**
   * The rows matching every member (any one of its values), every range and the search key. `cacheKey`
   * names the filter and search (the canonical request key), so a repeated one is not scanned again.
   */
  select(cacheKey: string, members: MemberValues, ranges: readonly Range[], searchKey: string): Selection {
    const kept = this.selections.get(cacheKey);
    if (kept) {
      this.selections.delete(cacheKey);
      this.selections.set(cacheKey, kept);
      return kept;
    }
    const selection = this.scan(members, ranges, searchKey);
    this.selections.set(cacheKey, selection);
    if (this.selections.size > SELECTIONS_KEPT) {
      const oldest = this.selections.keys().next().value;
      if (oldest !== undefined) this.selections.delete(oldest);
    }
    return selection;
  }

  private scan(members: MemberValues, ranges: readonly Range[], searchKey: string): Selection {
    const size = this.rows.length;
    // Each restriction is the lists of positions it keeps (a member: one list per value; a range: one).
    const restrictions: (readonly Int32Array[])[] = [];
    for (const [member, values] of members) {
      if (values.length === 0) continue;
      const byValue = this.memberIndex(member);
      restrictions.push(values.map((value) => byValue.get(value) ?? EMPTY));
    }
    for (const range of ranges) {
      if (range.from !== undefined || range.to !== undefined) restrictions.push([this.between(range)]);
    }
    // marks[position] = how many restrictions in a row, from the first, the row passed so far.
    const marks = restrictions.length > 0 ? new Uint8Array(size) : undefined;
    restrictions.forEach((lists, index) => {
      if (!marks) return;
      for (const list of lists) {
        for (const position of list) if (marks[position] === index) marks[position] = index + 1;
      }
    });
    const needed = restrictions.length;
    const key = foldCase(searchKey);
    const holds = key === '' ? undefined : holding(this.foldedTexts(), key);
    const positions = new Int32Array(size);
    let count = 0;
    for (let position = 0; position < size; position += 1) {
      if (marks && marks[position] !== needed) continue;
      if (holds && !holds(position)) continue;
      positions[count] = position;
      count += 1;
    }
    return { all: count === size, positions: positions.slice(0, count) };
  }

  /** The positions whose `range.field` lies within its bounds, found by binary search in the field's order. */
  private between(range: Range): Int32Array {
    const order = this.orderOf(range.field);
    const valueAt = (index: number) => this.rows[order[index] ?? 0]?.[range.field];
    // The first index whose value is not below `bound` (or, with `after`, not at or below it).
    const search = (bound: string, after: boolean) => {
      let low = 0;
      let high = order.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        const side = compareValues(valueAt(middle), bound);
        if (side < 0 || (after && side === 0)) low = middle + 1;
        else high = middle;
      }
      return low;
    };
    const start = range.from === undefined ? 0 : search(range.from, false);
    const end = range.to === undefined ? order.length : search(range.to, true);
    return start < end ? order.slice(start, end) : EMPTY;
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
    let chosen = selection.chosen;
    if (!chosen) {
      chosen = new Uint8Array(size);
      for (const position of selection.positions) chosen[position] = 1;
      selection.chosen = chosen;
    }
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
   * their distinct values (shared compareValues); each row's place is then one number, rank × rows + key
   * rank, exact in a double for any pack that fits in memory, and a numeric sort of those is several times
   * faster than a comparator sort.
   */
  private orderOf(field: string): Int32Array {
    let order = this.orders.get(field);
    if (!order) {
      const size = this.rows.length;
      const values = this.rows.map((row) => row[field]);
      const rankOf = new Map<unknown, number>();
      sortedValues([...new Set(values)]).forEach((value, rank) => rankOf.set(value, rank));
      const places = new Float64Array(size);
      for (let position = 0; position < size; position += 1) {
        places[position] = (rankOf.get(values[position]) ?? 0) * size + (this.keyRank[position] ?? 0);
      }
      places.sort();
      order = new Int32Array(size);
      for (let index = 0; index < size; index += 1)
        order[index] = this.byKey[(places[index] ?? 0) % size] ?? 0;
      this.orders.set(field, order);
    }
    return order;
  }
}
