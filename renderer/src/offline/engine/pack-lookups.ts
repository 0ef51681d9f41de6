/**
 * A pack's filter-box lookups, answered as the server answers them (shared/query/lookup.ts): the distinct
 * non-empty values of a field, sorted by display text, 50 a page, searched in the folded text. Each list is
 * built the first time it is asked for, with every entry's text folded once.
 */
import type { LookupResult } from '../../../../shared/api/index.ts';
import { lookupEntries, lookupPage, type LookupEntry } from '../../../../shared/query/lookup.ts';
import { foldCase } from '../../../../shared/query/search.ts';

interface FoldedEntry extends LookupEntry {
  folded: string;
}

export class PackLookups<Field extends string> {
  private readonly sources: Record<Field, () => Iterable<LookupEntry>>;
  private readonly lists = new Map<Field, FoldedEntry[]>();

  /** `sources` gives each field's entries, in any order and possibly repeated; they are sorted here. */
  constructor(sources: Record<Field, () => Iterable<LookupEntry>>) {
    this.sources = sources;
  }

  page(field: Field, search: string, page: number): LookupResult {
    let entries = this.lists.get(field);
    if (!entries) {
      const distinct = new Map<string, LookupEntry>();
      for (const entry of this.sources[field]())
        if (!distinct.has(entry.value)) distinct.set(entry.value, entry);
      entries = lookupEntries(
        [...distinct.values()].map((entry) => ({ ...entry, folded: foldCase(entry.text) })),
      );
      this.lists.set(field, entries);
    }
    return lookupPage(entries, search, page, (entry) => entry.folded);
  }
}

/** Plain values: value and text are equal. */
export function plainEntries(values: Iterable<string>): Iterable<LookupEntry> {
  return [...values].map((value) => ({ value, text: value }));
}
