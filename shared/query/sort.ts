/**
 * The order of a list (docs/api.md "sort"): a comparator per sortable field, as the server's ORDER BY
 * sorts, with ties broken by the row's public unique key in the same direction: the EPA handler id for
 * generators, the manifest tracking number for manifests. Rows carry that key, so any engine holding the
 * rows (the server, an offline cache) puts them in the same order without an internal row id.
 */
import type { GeneratorField } from '../api/generators.ts';
import type { ManifestField } from '../api/manifests.ts';
import type { Sort } from './index.ts';

/** The unique key each list breaks ties on; every row the list returns carries it. */
export const GENERATOR_KEY = 'epa_handler_id' satisfies GeneratorField;
export const MANIFEST_KEY = 'manifest_tracking_number' satisfies ManifestField;

/**
 * Code point order, as SQLite's BINARY collation sorts UTF-8 text. JavaScript's `<` compares UTF-16 units,
 * which puts astral characters (surrogate pairs, 0xD800–0xDFFF) before U+E000–U+FFFF; this shifts them after.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const x = a.charCodeAt(index);
    const y = b.charCodeAt(index);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/** SQLite's order of storage classes: NULL, then numbers, then text. */
function storageRank(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'number') return 1;
  if (typeof value === 'string') return 2;
  throw new TypeError(`cannot sort by a ${typeof value} value`);
}

/**
 * Two field values in ascending order as SQLite's ORDER BY puts them: null (or absent) first, numbers
 * numerically, text by code point. The server's columns are never null; an offline row missing a field
 * sorts where SQLite would put a NULL, first ascending and last descending.
 */
export function compareValues(a: unknown, b: unknown): number {
  const rank = storageRank(a) - storageRank(b);
  if (rank !== 0) return rank;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  return 0;
}

export type Comparator<Row> = (a: Row, b: Row) => number;

/** Rows by `sort.field`, then by `key`, both in `sort.direction`. */
export function rowComparator<Row extends Readonly<Record<string, unknown>>>(
  sort: Sort<string>,
  key: string,
): Comparator<Row> {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return (a, b) => sign * (compareValues(a[sort.field], b[sort.field]) || compareValues(a[key], b[key]));
}

export function generatorComparator<Row extends Readonly<Record<string, unknown>>>(
  sort: Sort<GeneratorField>,
): Comparator<Row> {
  return rowComparator<Row>(sort, GENERATOR_KEY);
}

export function manifestComparator<Row extends Readonly<Record<string, unknown>>>(
  sort: Sort<ManifestField>,
): Comparator<Row> {
  return rowComparator<Row>(sort, MANIFEST_KEY);
}
