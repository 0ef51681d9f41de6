/**
 * Many texts held as one: each text followed by NUL in one string, with where each starts. One string is
 * stored, read back and handed to a worker as one block of characters, where 100,000 strings are each an
 * object of their own (deserialising 100,000 short strings measured 4x slower than the same characters
 * joined, in V8's serializer, which IndexedDB's structured clone uses).
 *
 * A search key never holds NUL (shared/query/search.ts refuses control characters), so a match found in the
 * joined string lies inside one text: the scan below asks `indexOf` for the next match and answers every text
 * before it at once, instead of one `includes` per text.
 */

export interface JoinedTexts {
  /** Every text followed by NUL. */
  text: string;
  /** starts[i] is where text i begins; starts[count] is the string's length. */
  starts: Int32Array;
}

export function joinTexts(texts: readonly string[]): JoinedTexts {
  const starts = new Int32Array(texts.length + 1);
  let at = 0;
  texts.forEach((text, index) => {
    starts[index] = at;
    at += text.length + 1;
  });
  starts[texts.length] = at;
  return { text: texts.length === 0 ? '' : `${texts.join('\u0000')}\u0000`, starts };
}

export function textCount(texts: JoinedTexts): number {
  return texts.starts.length - 1;
}

/** Text `index`. */
export function textAt(texts: JoinedTexts, index: number): string {
  return texts.text.slice(texts.starts[index] ?? 0, (texts.starts[index + 1] ?? 1) - 1);
}

/**
 * A test of "text `index` holds `key`" (a non-empty key without NUL) for indexes asked in increasing order:
 * the next match is found once and every text before it answered without reading it.
 */
export function holding(texts: JoinedTexts, key: string): (index: number) => boolean {
  const { text, starts } = texts;
  let next = -1;
  return (index) => {
    const start = starts[index] ?? 0;
    if (next < start) {
      next = text.indexOf(key, start);
      if (next === -1) next = text.length;
    }
    // A match starting before this text's NUL ends before it: the key holds no NUL.
    return next < (starts[index + 1] ?? 0) - 1;
  };
}

/** Approximate bytes the texts take: two per character, four per start. */
export function joinedBytes(texts: JoinedTexts): number {
  return texts.text.length * 2 + texts.starts.byteLength;
}
