/**
 * A lookup page (docs/api.md "Lookups"): the distinct non-empty values of a filter box, sorted by display
 * text in code point order, 50 a page from page 1, `search` a case-insensitive substring of the display
 * text (search.ts), `more` exactly when a further page exists.
 */
import { foldCase } from './search.ts';
import { compareCodePoints } from './sort.ts';

export const LOOKUP_PAGE_SIZE = 50;

export interface LookupEntry {
  value: string;
  text: string;
}

/** The entries a lookup lists, in its order: empty values left out, sorted by text. */
export function lookupEntries<Entry extends LookupEntry>(entries: readonly Entry[]): Entry[] {
  return entries.filter((entry) => entry.value !== '').sort((a, b) => compareCodePoints(a.text, b.text));
}

/**
 * Page `page` (1-based) of `entries` (already in lookup order) whose text holds `search`. `folded` gives an
 * entry's folded text when the caller keeps it, so a long list is not folded again on every request.
 */
export function lookupPage<Entry extends LookupEntry>(
  entries: readonly Entry[],
  search: string,
  page: number,
  folded: (entry: Entry) => string = (entry) => foldCase(entry.text),
): { results: LookupEntry[]; pagination: { more: boolean } } {
  const skip = (page - 1) * LOOKUP_PAGE_SIZE;
  const key = foldCase(search);
  const results: LookupEntry[] = [];
  let matched = 0;
  for (const entry of entries) {
    if (key !== '' && !folded(entry).includes(key)) continue;
    matched += 1;
    if (matched <= skip) continue;
    if (results.length === LOOKUP_PAGE_SIZE) return { results, pagination: { more: true } };
    results.push({ value: entry.value, text: entry.text });
  }
  return { results, pagination: { more: false } };
}
