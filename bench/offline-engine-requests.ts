/**
 * The requests bench:offline-engine times: drawn with a fixed seed from a pack's own values, so every run
 * asks the same things. Up to two filter members (a few real values each), a date range on manifests now
 * and then, search keys of one to six characters cut from real text, any sort field and direction, pages
 * near the start and far in.
 */
import fc from 'fast-check';
import {
  GENERATOR_FIELDS,
  GENERATOR_LOOKUP_FIELDS,
  MANIFEST_LOOKUP_FIELDS,
  type GeneratorFilterFields,
  type ManifestFilterFields,
} from '../shared/api/index.ts';
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../shared/query/definition.ts';
import { compareCodePoints } from '../shared/query/sort.ts';
import type { PackRows } from '../renderer/src/offline/engine/contract.ts';
import { LINE_FACTS, generatorFactsOf } from '../renderer/src/offline/engine/pack-facts.ts';

const SEED = 20_261_123;

export interface ListRequest {
  filterFields: GeneratorFilterFields & ManifestFilterFields;
  searchKey: string;
  pageInfo: { page: number; pageSize: number; sort: string };
}

const distinct = (values: Iterable<string>) =>
  [...new Set(values)].filter((value) => value !== '').sort(compareCodePoints);

const valuesFrom = (real: readonly string[]) => fc.subarray([...real], { minLength: 1, maxLength: 3 });

/** A search key: none twice in three, else a 1–6 character fragment of real text in some casing. */
const searchKeys = (texts: readonly string[]) =>
  fc.oneof(
    { arbitrary: fc.constant(''), weight: 2 },
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...texts), fc.nat(), fc.integer({ min: 1, max: 6 }), fc.boolean())
        .map(([text, start, length, upper]) => {
          const characters = [...text];
          const fragment = characters
            .slice(start % Math.max(1, characters.length), (start % Math.max(1, characters.length)) + length)
            .join('');
          return upper ? fragment.toUpperCase() : fragment;
        }),
      weight: 1,
    },
  );

function someOf(members: Record<string, fc.Arbitrary<string[]>>): fc.Arbitrary<Record<string, string[]>> {
  return fc
    .subarray(Object.keys(members), { maxLength: 2 })
    .chain((chosen) =>
      fc.record(Object.fromEntries(chosen.map((member) => [member, members[member] ?? fc.constant([])]))),
    );
}

const pageInfo = (fields: readonly string[]) =>
  fc.record({
    page: fc.oneof(fc.nat({ max: 3 }), fc.nat({ max: 400 })),
    pageSize: fc.constantFrom(50, 100, 500),
    sort: fc.oneof(
      fc.constant(''),
      fc.tuple(fc.constantFrom(...fields), fc.constantFrom('asc', 'desc')).map(([f, d]) => `${f} ${d}`),
    ),
  });

export function manifestRequests(rows: PackRows, count: number): ListRequest[] {
  const { manifests } = rows;
  const lines = manifests.flatMap((m) => m.waste_lines ?? []);
  const dates = distinct(manifests.map((m) => m.shipped_date ?? ''));
  const range = fc.option(
    fc.tuple(fc.constantFrom(...dates), fc.constantFrom(...dates)).map(([a, b]) => (a > b ? [b, a] : [a, b])),
    { freq: 3 },
  );
  const request = fc.record({
    lists: someOf({
      generator_names: valuesFrom(distinct(manifests.map((m) => m.generator_name ?? ''))),
      transporter_names: valuesFrom(distinct(manifests.map((m) => m.transporter ?? ''))),
      designated_facility_names: valuesFrom(distinct(manifests.map((m) => m.designated_facility_name ?? ''))),
      dot_id_nos: valuesFrom(distinct(lines.map((line) => line.usdot_id_number))),
      container_types: valuesFrom(distinct(lines.map((line) => line.container_type_code))),
      handling_codes: valuesFrom(distinct(lines.map(LINE_FACTS.handlingCodes))),
    }),
    range,
    searchKey: searchKeys(
      manifests.slice(0, 5000).flatMap((m) => MANIFEST_QUERY.searchFields.map((f) => String(m[f]))),
    ),
    pageInfo: pageInfo(MANIFEST_QUERY.sortFields),
  });
  return fc
    .sample(request, { numRuns: count, seed: SEED })
    .map(({ lists, range: dates, searchKey, pageInfo: page }) => ({
      filterFields: {
        ...lists,
        ...(dates ? { shipped_date_start: dates[0], shipped_date_end: dates[1] } : {}),
      },
      searchKey,
      pageInfo: page,
    }));
}

export function generatorRequests(rows: PackRows, count: number): ListRequest[] {
  const { generators } = rows;
  const facts = rows.details.map(generatorFactsOf);
  const request = fc.record({
    filterFields: someOf({
      shippedYears: valuesFrom(distinct(facts.flatMap((f) => [...f.shippedYears]))),
      cities: valuesFrom(distinct(generators.map((g) => g.location_city ?? ''))),
      naics: valuesFrom(distinct(generators.map((g) => g.primary_naics_code ?? ''))),
      states: valuesFrom(distinct(generators.map((g) => g.location_state ?? ''))),
      wasteCodes: valuesFrom(distinct(facts.flatMap((f) => [...f.wasteCodes]))),
      statuses: valuesFrom(distinct(facts.flatMap((f) => [...f.statuses]))),
      handlingCodes: valuesFrom(distinct(facts.flatMap((f) => [...f.handlingCodes]))),
    }),
    searchKey: searchKeys(
      generators.slice(0, 5000).flatMap((g) => GENERATOR_QUERY.searchFields.map((f) => String(g[f]))),
    ),
    pageInfo: pageInfo(GENERATOR_FIELDS),
  });
  return fc.sample(request, { numRuns: count, seed: SEED });
}

export function lookupRequests(
  rows: PackRows,
  count: number,
): { field: string; page: number; search: string }[] {
  const fields = rows.list === 'manifests' ? MANIFEST_LOOKUP_FIELDS : GENERATOR_LOOKUP_FIELDS;
  const texts =
    rows.list === 'manifests'
      ? rows.manifests.slice(0, 5000).flatMap((m) => [m.manifest_tracking_number ?? '', m.transporter ?? ''])
      : rows.generators.slice(0, 5000).flatMap((g) => [g.generator_name ?? '', g.location_city ?? '']);
  const query = fc.record({
    field: fc.constantFrom(...fields),
    page: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 50 })),
    search: searchKeys(texts),
  });
  return fc.sample(query, { numRuns: count, seed: SEED });
}
