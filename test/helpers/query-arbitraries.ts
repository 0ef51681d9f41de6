/**
 * fast-check pieces of list requests, shared by the property tests that hold an implementation of the query
 * semantics to another (server against shared/query, offline engine against server): filter values, search
 * keys, members and date ranges, drawn from a dataset's real values.
 */
import fc from 'fast-check';
import type { ManifestFilterFields } from '../../shared/api/index.ts';
import { foldCase } from '../../shared/query/search.ts';

/** Filter values no row holds. */
export const NONEXISTENT = ['no such value', 'ZZ-000', ''];

/** Keys that fold differently from toLowerCase or ASCII folding, of one to five characters. */
export const UNICODE_KEYS = [
  'é',
  'ÉCO',
  'ærø',
  'ÆR',
  'Ø',
  'ß',
  'STRAßE',
  'ς',
  'ΟΔΟΣ',
  '\u212A',
  'ſ',
  'İ',
  '\u{1F600}',
];

/** A list of filter values: a few real ones and, sometimes, one that does not exist (or ""). */
export const valuesFrom = (real: readonly string[]) =>
  fc
    .tuple(fc.subarray([...real], { maxLength: 3 }), fc.subarray(NONEXISTENT, { maxLength: 1 }))
    .map(([a, b]) => [...a, ...b]);

/** A search key: none, a fragment of real text (1–6 characters, in its case, upper, lower or folded), or a Unicode key. */
export const searchKeys = (texts: readonly string[]) =>
  fc.oneof(
    fc.constant(''),
    fc
      .tuple(
        fc.constantFrom(...texts),
        fc.nat(),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom('same', 'upper', 'lower', 'folded'),
      )
      .map(([text, start, length, casing]) => {
        const characters = [...text];
        const from = characters.length === 0 ? 0 : start % characters.length;
        const fragment = characters.slice(from, from + length).join('');
        if (casing === 'upper') return fragment.toUpperCase();
        if (casing === 'lower') return fragment.toLowerCase();
        return casing === 'folded' ? foldCase(fragment) : fragment;
      }),
    fc.constantFrom(...UNICODE_KEYS),
  );

/**
 * Up to two of these members: more, AND-ed, almost never leave a row, and a request that matches nothing
 * shows little.
 */
export function someOf(
  members: Record<string, fc.Arbitrary<string[]>>,
): fc.Arbitrary<Record<string, string[]>> {
  return fc
    .subarray(Object.keys(members), { maxLength: 2 })
    .chain((chosen) =>
      fc.record(Object.fromEntries(chosen.map((member) => [member, members[member] ?? fc.constant([])]))),
    );
}

/** A date range's bounds, a start and an end, each absent (null) or a date. */
export type DateRange = readonly (string | null)[];

/** Manifest filter fields of member lists and a shipped and a received date range (absent bounds left out). */
export function manifestFilterFields([lists, shipped, received]: readonly [
  ManifestFilterFields,
  DateRange,
  DateRange,
]): ManifestFilterFields {
  const fields: ManifestFilterFields = { ...lists };
  const [shippedStart, shippedEnd] = shipped;
  const [receivedStart, receivedEnd] = received;
  if (shippedStart) fields.shipped_date_start = shippedStart;
  if (shippedEnd) fields.shipped_date_end = shippedEnd;
  if (receivedStart) fields.received_date_start = receivedStart;
  if (receivedEnd) fields.received_date_end = receivedEnd;
  return fields;
}
