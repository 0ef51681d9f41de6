/**
 * The one generator of list requests for the property tests that hold an engine of the query semantics to
 * another (the server against the definition run over rows, the offline engine against the server), built
 * from shared/query's definition: every member that lists values drawn from the dataset's real values (and
 * values that do not exist, ""), inclusive ranges over the bound fields, search keys cut from real text in any
 * case or non-ASCII, any sort field and direction or none, page sizes and pages near the start and far in,
 * selectedFields. `checkProperty` runs a property with a seed it names on failure, so a failure can be
 * replayed (PROPERTY_SEED=<seed>).
 */
import fc from 'fast-check';
import type { ManifestFilterFields } from '../../shared/api/index.ts';
import { boundMembers, valuesMembers, type Member } from '../../shared/query/definition.ts';
import { foldCase } from '../../shared/query/search.ts';
import { compareCodePoints } from '../../shared/query/sort.ts';
import { matches, type Definition, type OracleItem } from './query-oracle.ts';

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

const distinct = (values: Iterable<string>) => [...new Set(values)].sort(compareCodePoints);

/** What a list's definition tells the generator: its members, search fields and fields. */
export interface RequestDefinition {
  members: Readonly<Record<string, Member<string, string>>>;
  searchFields: readonly string[];
  sortFields: readonly string[];
}

/** The real values each listing member can match, from the rows and their facts. */
export function memberValues(
  definition: Pick<RequestDefinition, 'members'>,
  items: readonly OracleItem[],
): Record<string, string[]> {
  return Object.fromEntries(
    valuesMembers(definition.members).map(([name, member]) => [
      name,
      distinct(
        items.flatMap((item) =>
          member.match === 'equals' ? [String(item.row[member.field])] : [...(item.facts[member.fact] ?? [])],
        ),
      ),
    ]),
  );
}

/** A request that makes one filter member (or the search) matter. */
export interface MemberProbe {
  member: string;
  filterFields: Record<string, string[] | string>;
  searchKey: string;
}

/**
 * For each filter member, and the search, one request that keeps some rows and not all: the first real value
 * (in code-point order) that does so, a bound at the middle of its field's values, a key cut from the first
 * row's text. Random requests may by chance never make a member matter; these always do.
 */
export function memberProbes(
  definition: RequestDefinition & Definition,
  items: readonly OracleItem[],
): MemberProbe[] {
  const keepsSome = (filterFields: Record<string, string[] | string>, searchKey = '') => {
    const kept = items.filter((item) => matches(definition, item, filterFields, searchKey)).length;
    return kept > 0 && kept < items.length;
  };
  const probes = Object.entries(memberValues(definition, items)).map(([member, values]): MemberProbe => {
    const value = values.find((candidate) => keepsSome({ [member]: [candidate] }));
    return { member, filterFields: value === undefined ? {} : { [member]: [value] }, searchKey: '' };
  });
  for (const [member, { field }] of boundMembers(definition.members)) {
    const values = distinct(items.map((item) => String(item.row[field])));
    const middle = values[Math.floor(values.length / 2)] ?? '';
    probes.push({ member: String(member), filterFields: { [member]: middle }, searchKey: '' });
  }
  const [first] = items;
  const [searchField = ''] = definition.searchFields;
  const text = first ? [...String(first.row[searchField])] : [];
  const key = [2, 3, 4, 5]
    .map((length) => text.slice(0, length).join(''))
    .find((candidate) => keepsSome({}, candidate));
  probes.push({ member: 'searchKey', filterFields: {}, searchKey: key ?? '' });
  return probes;
}

/**
 * Filter fields: up to two listing members, and for each bound field an inclusive range now and then
 * (each bound absent three times in four: four bounds together seldom leave a row).
 */
export function filterFields(
  definition: Pick<RequestDefinition, 'members'>,
  items: readonly OracleItem[],
): fc.Arbitrary<Record<string, string[] | string>> {
  const real = memberValues(definition, items);
  const lists = someOf(
    Object.fromEntries(Object.entries(real).map(([name, values]) => [name, valuesFrom(values)])),
  );
  const fields = [...new Set(boundMembers(definition.members).map(([, member]) => member.field))];
  const ranges = fields.map((field) => {
    const values = distinct(items.map((item) => String(item.row[field])));
    const bound = fc.oneof(
      { arbitrary: fc.constant(null), weight: 3 },
      { arbitrary: fc.constantFrom(...values), weight: 1 },
    );
    const names = (match: 'from' | 'to') =>
      boundMembers(definition.members).find(
        ([, member]) => member.field === field && member.match === match,
      )?.[0];
    return fc.tuple(bound, bound).map(([a, b]) => {
      const [from, to] = a !== null && b !== null && compareCodePoints(a, b) > 0 ? [b, a] : [a, b];
      const range: Record<string, string> = {};
      const fromName = names('from');
      const toName = names('to');
      if (from !== null && fromName) range[fromName] = from;
      if (to !== null && toName) range[toName] = to;
      return range;
    });
  });
  return fc
    .tuple(lists, ...ranges)
    .map(([chosen, ...bounds]) => Object.assign({}, chosen, ...bounds) as Record<string, string[] | string>);
}

/** A sort over any field in either direction, or none (the default), sometimes with the direction omitted. */
export const sorts = (fields: readonly string[]) =>
  fc.oneof(
    fc.constant(''),
    fc
      .tuple(fc.constantFrom(...fields), fc.constantFrom(' asc', ' desc', ' DESC', ''))
      .map(([field, direction]) => `${field}${direction}`),
  );

/** Every field, or a few named with spaces and a trailing comma. */
export const selections = (fields: readonly string[]) =>
  fc.oneof(
    { arbitrary: fc.constant(''), weight: 3 },
    {
      arbitrary: fc.subarray([...fields], { minLength: 1 }).map((chosen) => `${chosen.join(', ')},`),
      weight: 1,
    },
  );

/** Pages near the start, and sometimes far in (past the bookmarks of a whole list). */
export const pages = fc.oneof(fc.nat({ max: 4 }), fc.nat({ max: 60 }));
export const pageSizes = fc.oneof(fc.integer({ min: 1, max: 60 }), fc.constant(500));

export interface ListRequest {
  filterFields: Record<string, string[] | string>;
  searchKey: string;
  pageInfo: { page: number; pageSize: number; sort: string; selectedFields: string };
}

/** List requests over a dataset's rows: `selectable` are the fields selectedFields may name. */
export function listRequests(
  definition: RequestDefinition,
  items: readonly OracleItem[],
  selectable: readonly string[],
): fc.Arbitrary<ListRequest> {
  const texts = items.flatMap((item) => definition.searchFields.map((field) => String(item.row[field])));
  return fc.record({
    filterFields: filterFields(definition, items),
    searchKey: searchKeys(texts),
    pageInfo: fc.record({
      page: pages,
      pageSize: pageSizes,
      sort: sorts(definition.sortFields),
      selectedFields: selections(selectable),
    }),
  });
}

/** The seed of a property run: PROPERTY_SEED when set (to replay one), else a new one. */
function propertySeed(): number {
  const given = process.env.PROPERTY_SEED;
  return given ? Number(given) : Math.floor(Math.random() * 2 ** 31);
}

/**
 * Runs `property` over `numRuns` values of `arbitrary`, then `after` (checks over the whole run, such as
 * how many requests exercised a member). A failure of either names the seed that replays the run.
 */
export async function checkProperty<T>(
  arbitrary: fc.Arbitrary<T>,
  property: (value: T) => Promise<void> | void,
  numRuns: number,
  after?: () => void,
): Promise<void> {
  const seed = propertySeed();
  try {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (value) => {
        await property(value);
      }),
      { numRuns, seed },
    );
    after?.();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\n\nReplay this run with PROPERTY_SEED=${seed}.`, { cause: error });
  }
}
