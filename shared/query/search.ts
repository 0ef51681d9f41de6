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
 * Control characters (U+0000–U+001F, U+007F) are refused in a search rather than matched: SQLite's text
 * matching stops at a NUL (a NUL key matched every row, and cut the index query short), names and ids do
 * not hold them, and a pasted tab or newline is far likelier a slip than a search.
 */
import { FOLD_RUNS } from './fold-table.ts';
import type { Parsed } from './index.ts';

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

const isControl = (unit: number) => unit < 0x20 || unit === 0x7f;

/** The first control character in a search, if any: its position (from 1) and code point ("U+0007"). */
export function controlCharacterIn(text: string): { position: number; codePoint: string } | undefined {
  const characters = [...text];
  const at = characters.findIndex((character) => isControl(character.charCodeAt(0)));
  if (at === -1) return undefined;
  const point = (characters[at] ?? '').charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return { position: at + 1, codePoint: `U+${point}` };
}

/** A search without its control characters: what a user who pasted one by mistake meant. */
export function withoutControlCharacters(text: string): string {
  return [...text].filter((character) => !isControl(character.charCodeAt(0))).join('');
}

/** Reads a search text (`name` is how the message calls it): refused when it holds a control character. */
export function parseSearch(text: string, name: string): Parsed<string> {
  const found = controlCharacterIn(text);
  if (!found) return { ok: true, value: text };
  return {
    ok: false,
    message: `${name} must not hold control characters (U+0000–U+001F, U+007F); found ${found.codePoint} at character ${found.position}`,
  };
}
