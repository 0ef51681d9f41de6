/**
 * What searchKey and a lookup's `search` match (docs/api.md "searchKey", "Lookups"): a case-insensitive
 * substring of one text, case folded by one rule for every key length.
 *
 * The rule is the one SQLite's FTS5 trigram tokenizer applies, because the server answers keys of three
 * characters or more from that index and cannot fold otherwise there: each code point folds to one code
 * point by Unicode simple case folding as SQLite's tables hold it (fold-table.ts). So "ÉCOLE" finds
 * "école", "Σ" finds "ς" and "σ", the Kelvin sign "K" finds "k"; "ß" stays "ß" (no "ss"), "İ" stays "İ".
 * Shorter keys and lookups fold by the same table, so a key gives the same rows whatever its length.
 *
 * A search holds no control character: the request schemas refuse one (shared/api/common.ts `SearchKey`).
 */
import { FOLD_RUNS } from './fold-table.ts';

let folds: Map<number, number> | undefined;

/** The non-ASCII code points that fold, with what they fold to. */
function foldMap(): Map<number, number> {
  if (!folds) {
    folds = new Map();
    for (let index = 0; index + 3 < FOLD_RUNS.length; index += 4) {
      const [first = 0, count = 0, step = 0, delta = 0] = FOLD_RUNS.slice(index, index + 4);
      for (let point = first, left = count; left > 0; point += step, left -= 1) {
        if (point >= 0x80) folds.set(point, point + delta);
      }
    }
  }
  return folds;
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) >= 0x80) return false;
  return true;
}

/** `text` case folded: equal for texts that differ only in case. Keeps the number of code points. */
export function foldCase(text: string): string {
  // ASCII folds A–Z to a–z and nothing else, as toLowerCase does on ASCII text.
  if (isAscii(text)) return text.toLowerCase();
  const map = foldMap();
  let folded = '';
  for (const character of text) {
    const point = character.codePointAt(0) ?? 0;
    folded += point < 0x80 ? character.toLowerCase() : String.fromCodePoint(map.get(point) ?? point);
  }
  return folded;
}

/** True when any one of `values` holds `key` (a match never spans two values). */
export function matchesAnySearch(values: readonly string[], key: string): boolean {
  if (key === '') return true;
  const folded = foldCase(key);
  return values.some((value) => foldCase(value).includes(folded));
}

let asciiTargets: Set<string> | undefined;

/**
 * True when folding A–Z alone (SQLite's LIKE and lower()) finds exactly what foldCase finds for this key:
 * the key is ASCII and holds no letter that a non-ASCII character folds to ("k" from the Kelvin sign, "s"
 * from the long s). Folding is per code point and keeps ASCII in ASCII, so a row's other non-ASCII
 * characters can neither match such a key nor stop a match.
 */
export function asciiFoldSuffices(key: string): boolean {
  if (!isAscii(key)) return false;
  asciiTargets ??= new Set(
    [...foldMap().values()].filter((point) => point < 0x80).map((point) => String.fromCodePoint(point)),
  );
  const folded = key.toLowerCase();
  for (const target of asciiTargets) if (folded.includes(target)) return false;
  return true;
}
