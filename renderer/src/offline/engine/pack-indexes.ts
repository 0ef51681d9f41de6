/**
 * What a pack stores of the engine's indexes beside its rows (database.ts `packIndexes`; their shape is
 * contract.ts `PackIndexes`), so that opening a pack builds nothing: all typed arrays and joined texts, which
 * IndexedDB's structured clone stores and reads back as blocks of bytes. Here: their format, whether stored
 * ones may be read, and their size.
 */
import type { PackIndexes, PackList } from './contract.ts';
import { joinedBytes, type JoinedTexts } from './joined-texts.ts';

/**
 * Bumped whenever what the indexes hold or mean changes: indexes of another format are not read, and the
 * pack builds (and stores) them again.
 */
export const INDEX_FORMAT = 1;

/** The indexes of `list`'s table and lookups, when they are of this format and this list; else undefined. */
export function usableIndexes(
  indexes: PackIndexes | undefined,
  list: PackList,
): Pick<PackIndexes, 'table' | 'lookups'> | undefined {
  return indexes?.format === INDEX_FORMAT && indexes.list === list ? indexes : undefined;
}

/** Approximate bytes on disk: the typed arrays' bytes, two per character, a little per member value. */
export function indexBytes(indexes: PackIndexes): number {
  const { table, lookups } = indexes;
  let bytes = table.byKey.byteLength + joinedBytes(table.folded);
  for (const order of Object.values(table.orders)) bytes += order.byteLength;
  for (const member of Object.values(table.members)) {
    bytes += member.offsets.byteLength + member.positions.byteLength;
    for (const value of member.values) bytes += value.length * 2 + 8;
  }
  const texts = (list: JoinedTexts | undefined) => (list ? joinedBytes(list) : 0);
  for (const lookup of Object.values(lookups)) {
    bytes += texts(lookup.values) + texts(lookup.texts) + texts(lookup.folded);
  }
  return bytes;
}
