/**
 * The order of values (docs/api.md "sort"), as the server's ORDER BY puts them: any engine holding the rows
 * (the server, an offline cache) sorts by a field with these, then breaks ties by the list's public unique
 * key in the same direction (definition.ts), so rows come in the same order without an internal row id.
 */

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
