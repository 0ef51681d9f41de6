/**
 * A pack's filter-box lookups, answered as the server answers them (shared/query/lookup.ts `lookupPageAt`): the
 * distinct non-empty values of a field, sorted by display text, 50 a page, searched in the folded text. Each
 * list is built the first time it is asked for (or taken from the indexes a pack stored), as joined texts:
 * values, display texts and folded texts, in lookup order.
 */
import type { LookupResult } from '../../../../shared/api/index.ts';
import { lookupEntries, lookupPageAt, type LookupEntry } from '../../../../shared/query/lookup.ts';
import { foldCase } from '../../../../shared/query/search.ts';
import { holding, joinTexts, textAt, textCount, type JoinedTexts } from './joined-texts.ts';

/** One lookup's entries in lookup order; `texts` absent where every display text is its value. */
export interface StoredLookup {
  values: JoinedTexts;
  texts?: JoinedTexts;
  folded: JoinedTexts;
}

export class PackLookups<Field extends string> {
  private readonly sources: Record<Field, () => Iterable<LookupEntry>>;
  private readonly lists = new Map<Field, StoredLookup>();

  /**
   * `sources` gives each field's entries, in any order and possibly repeated; they are sorted here. `stored`:
   * lists a pack kept, taken as they are.
   */
  constructor(
    sources: Record<Field, () => Iterable<LookupEntry>>,
    stored?: Partial<Record<Field, StoredLookup>>,
  ) {
    this.sources = sources;
    for (const [field, list] of Object.entries(stored ?? {}) as [Field, StoredLookup][]) {
      this.lists.set(field, list);
    }
  }

  private list(field: Field): StoredLookup {
    let list = this.lists.get(field);
    if (!list) {
      const distinct = new Map<string, LookupEntry>();
      for (const entry of this.sources[field]())
        if (!distinct.has(entry.value)) distinct.set(entry.value, entry);
      const entries = lookupEntries([...distinct.values()]);
      const plain = entries.every((entry) => entry.text === entry.value);
      list = {
        values: joinTexts(entries.map((entry) => entry.value)),
        ...(plain ? {} : { texts: joinTexts(entries.map((entry) => entry.text)) }),
        folded: joinTexts(entries.map((entry) => foldCase(entry.text))),
      };
      this.lists.set(field, list);
    }
    return list;
  }

  /** Every field's list, built now where missing. */
  all(): Record<Field, StoredLookup> {
    const lists: Partial<Record<Field, StoredLookup>> = {};
    for (const field of Object.keys(this.sources) as Field[]) lists[field] = this.list(field);
    return lists as Record<Field, StoredLookup>;
  }

  /** Page `page` (from 1) of the entries whose text holds `search`, with `more` exactly when one follows. */
  page(field: Field, search: string, page: number): LookupResult {
    const { values, texts, folded } = this.list(field);
    const key = foldCase(search);
    return lookupPageAt(textCount(values), page, key === '' ? undefined : holding(folded, key), (index) => {
      const value = textAt(values, index);
      return { value, text: texts ? textAt(texts, index) : value };
    });
  }
}

/** Plain values: value and text are equal. */
export function plainEntries(values: Iterable<string>): Iterable<LookupEntry> {
  return [...values].map((value) => ({ value, text: value }));
}
