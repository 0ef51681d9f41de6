/**
 * A lookup page (docs/api.md "Lookups"): the distinct non-empty values of a filter box, sorted by display
 * text in code point order, LIMITS.lookupPageSize (50) a page from page 1, `search` a case-insensitive substring of the display
 * text (search.ts), `more` exactly when a further page exists.
 */
import { LIMITS } from '../api/common.ts';
import { foldCase } from './search.ts';
import { compareCodePoints } from './sort.ts';

const PAGE_SIZE = LIMITS.lookupPageSize;

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
): LookupPage {
  const key = foldCase(search);
  const entryAt = (index: number) => entries[index] as Entry;
  return lookupPageAt(
    entries.length,
    page,
    key === '' ? undefined : (index) => folded(entryAt(index)).includes(key),
    (index) => ({ value: entryAt(index).value, text: entryAt(index).text }),
  );
}

export interface LookupPage {
  results: (LookupEntry & { group?: string })[];
  pagination: { more: boolean };
}

/**
 * The headings the status lookup lists its values under (docs/api.md "Lookups"): the `statuses` member
 * matches a generator's registration status or its federal generator status, and a value means one or the
 * other, so a user sees which before picking it.
 */
export const STATUS_GROUPS = {
  registration: 'Registration status',
  federal: 'Federal generator status',
} as const;

/**
 * A status lookup page with each value's group: a registration status when some generator is registered
 * so (`registrations`: every generator's registration_status), else a federal generator status.
 */
export function withStatusGroups(page: LookupPage, registrations: ReadonlySet<string>): LookupPage {
  return {
    ...page,
    results: page.results.map((entry) => ({
      ...entry,
      group: registrations.has(entry.value) ? STATUS_GROUPS.registration : STATUS_GROUPS.federal,
    })),
  };
}

/**
 * Page `page` (1-based) of a list of `count` entries in lookup order, read by position, for a list kept in
 * another form than an array of entries: `holds(index)` is true when the entry there holds the search key
 * (absent: no search), `entryAt(index)` gives the entry.
 */
export function lookupPageAt(
  count: number,
  page: number,
  holds: ((index: number) => boolean) | undefined,
  entryAt: (index: number) => LookupEntry,
): LookupPage {
  const skip = (page - 1) * PAGE_SIZE;
  const results: LookupEntry[] = [];
  let matched = 0;
  for (let index = 0; index < count; index += 1) {
    if (holds && !holds(index)) continue;
    matched += 1;
    if (matched <= skip) continue;
    if (results.length === PAGE_SIZE) return { results, pagination: { more: true } };
    results.push(entryAt(index));
  }
  return { results, pagination: { more: false } };
}
