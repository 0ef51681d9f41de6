/**
 * The server's SQL held to shared/query's definitions over one database: random requests over every filter
 * member of both lists (values from the data, values that do not exist, ""), date ranges, search keys (cut
 * from real text, non-ASCII, one to six characters, in any case), every sort field in both directions, any
 * page size and page, answered over real HTTP, must equal the shared predicates and comparator applied to
 * every row read straight from SQLite (with the derived facts read from the raw tables, never from the
 * server's sets). Run over the demo data (query-semantics.test.ts) and over data imported from EPA files
 * (import/imported-conformance.test.ts).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeneratorFilterFields } from '../../shared/api/index.ts';
import {
  generatorMatches,
  manifestFacts,
  manifestMatches,
  type GeneratorFacts,
  type GeneratorRow,
  type ManifestFacts,
  type ManifestRow,
} from '../../shared/query/filters.ts';
import { generatorComparator, manifestComparator } from '../../shared/query/sort.ts';
import { manifestFilterFields, searchKeys, someOf, valuesFrom } from '../helpers/query-arbitraries.ts';
import { startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import {
  GENERATOR_FIELDS,
  GENERATOR_FILTER_MEMBERS,
  GENERATOR_SEARCH_FIELDS,
  INSPECTOR,
  MANIFEST_SCALAR_FIELDS,
  MANIFEST_SEARCH_FIELDS,
  listPage,
  loadGenerators,
  loadManifests,
  signInAs,
  sortedDistinct,
  type Row,
  type Session,
} from './support.ts';

interface Generator {
  row: GeneratorRow & Row;
  facts: GeneratorFacts;
}
interface Manifest {
  row: ManifestRow & Row;
  facts: ManifestFacts;
}

/**
 * Registers the suite over the database `setup` builds (with the demo accounts): `runs` requests per sort
 * field and direction; `cleanup` after.
 */
export function queryConformance(options: {
  setup: () => Promise<string>;
  cleanup: () => void;
  runs: number;
}): void {
  const RUNS = options.runs;
  let server: TrackerServer;
  let session: Session;
  let generators: Generator[];
  let manifests: Manifest[];

  beforeAll(async () => {
    server = await startTrackerServer({ dbPath: await options.setup() });
    session = await signInAs(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
    // Every column read here is TEXT or a number, as GeneratorRow and ManifestRow declare.
    generators = loadGenerators(server.db).map((g) => ({
      row: g.row as GeneratorRow & Row,
      facts: {
        shippedYears: g.years,
        wasteCodes: g.wasteCodes,
        handlingCodes: g.handlingCodes,
        statuses: new Set(
          [String(g.row.registration_status), g.federalStatus].filter((status) => status !== ''),
        ),
      },
    }));
    manifests = loadManifests(server.db).map((m) => ({
      row: m.row as ManifestRow & Row,
      facts: manifestFacts(m.lines),
    }));
  });

  afterAll(async () => {
    await server?.close();
    options.cleanup();
  });

  /** A date bound, absent three times in four (four bounds together seldom leave a row). */
  const dateBound = (dates: readonly string[]) =>
    fc.oneof(
      { arbitrary: fc.constant(null), weight: 3 },
      { arbitrary: fc.constantFrom(...dates), weight: 1 },
    );

  /** Pages near the start, and sometimes far in (past the bookmarks of the whole list). */
  const pages = fc.oneof(fc.nat({ max: 4 }), fc.nat({ max: 60 }));

  /** Per member, the requests in which it took part and removed some rows but not all: it was exercised. */
  const exercised = new Map<string, number>();
  function noteExercised(members: string[], before: number, after: number): void {
    if (after === 0 || after === before) return;
    for (const member of members) exercised.set(member, (exercised.get(member) ?? 0) + 1);
  }

  const generatorCases = GENERATOR_FIELDS.flatMap((field) =>
    (['asc', 'desc'] as const).map((direction) => [field, direction] as const),
  );

  describe('generators: the server answers what the shared predicates and comparator define', () => {
    it.each(generatorCases)('sorted by %s %s', async (field, direction) => {
      const real: Record<keyof GeneratorFilterFields, string[]> = {
        shippedYears: sortedDistinct(generators.flatMap((g) => [...g.facts.shippedYears])),
        cities: sortedDistinct(generators.map((g) => g.row.location_city)),
        naics: sortedDistinct(generators.map((g) => g.row.primary_naics_code)),
        ids: sortedDistinct(generators.map((g) => g.row.epa_handler_id)),
        states: sortedDistinct(generators.map((g) => g.row.location_state)),
        wasteCodes: sortedDistinct(generators.flatMap((g) => [...g.facts.wasteCodes])),
        names: sortedDistinct(generators.map((g) => g.row.generator_name)),
        statuses: sortedDistinct(generators.flatMap((g) => [...g.facts.statuses])),
        handlingCodes: sortedDistinct(generators.flatMap((g) => [...g.facts.handlingCodes])),
      };
      const filters = someOf(
        Object.fromEntries(GENERATOR_FILTER_MEMBERS.map((member) => [member, valuesFrom(real[member])])),
      );
      const texts = generators.flatMap((g) => GENERATOR_SEARCH_FIELDS.map((name) => g.row[name]));
      const request = fc.record({
        filterFields: filters,
        searchKey: searchKeys(texts),
        page: pages,
        pageSize: fc.integer({ min: 1, max: 60 }),
      });
      const compare = generatorComparator({ field, direction });

      await fc.assert(
        fc.asyncProperty(request, async ({ filterFields, searchKey, page, pageSize }) => {
          const matching = generators.filter((g) =>
            generatorMatches(g.row, g.facts, filterFields, searchKey),
          );
          const expected = matching
            .map((g) => g.row)
            .sort(compare)
            .slice(page * pageSize, (page + 1) * pageSize);
          const answer = await listPage(session, 'generators', {
            filterFields,
            searchKey,
            sort: `${field} ${direction}`,
            page,
            pageSize,
          });
          expect(answer.totalElements).toBe(matching.length);
          expect(answer.content).toEqual(expected);
          const members = Object.entries(filterFields)
            .filter(([, values]) => values.length > 0)
            .map(([member]) => `generators.${member}`);
          noteExercised(
            searchKey === '' ? members : [...members, 'generators.searchKey'],
            generators.length,
            matching.length,
          );
        }),
        { numRuns: RUNS },
      );
    });
  });

  const manifestCases = MANIFEST_SCALAR_FIELDS.flatMap((field) =>
    (['asc', 'desc'] as const).map((direction) => [field, direction] as const),
  );

  describe('manifests: the server answers what the shared predicates and comparator define', () => {
    it.each(manifestCases)('sorted by %s %s', async (field, direction) => {
      const lineCodes = (pick: (facts: ManifestFacts) => ReadonlySet<string>) =>
        sortedDistinct(manifests.flatMap((m) => [...pick(m.facts)]));
      const dates = sortedDistinct(manifests.flatMap((m) => [m.row.shipped_date, m.row.received_date]));
      const range = fc
        .tuple(dateBound(dates), dateBound(dates))
        .map(([a, b]) => (a !== null && b !== null && a > b ? [b, a] : [a, b]));
      const filters = fc
        .tuple(
          someOf({
            generator_names: valuesFrom(sortedDistinct(manifests.map((m) => m.row.generator_name))),
            transporter_names: valuesFrom(sortedDistinct(manifests.map((m) => m.row.transporter))),
            designated_facility_names: valuesFrom(
              sortedDistinct(manifests.map((m) => m.row.designated_facility_name)),
            ),
            dot_id_nos: valuesFrom(lineCodes((facts) => facts.dotIds)),
            container_types: valuesFrom(lineCodes((facts) => facts.containerTypes)),
            handling_codes: valuesFrom(lineCodes((facts) => facts.handlingCodes)),
          }),
          range,
          range,
        )
        .map(manifestFilterFields);
      const texts = manifests.flatMap((m) => MANIFEST_SEARCH_FIELDS.map((name) => m.row[name]));
      const request = fc.record({
        filterFields: filters,
        searchKey: searchKeys(texts),
        page: pages,
        pageSize: fc.integer({ min: 1, max: 60 }),
      });
      const compare = manifestComparator({ field, direction });

      await fc.assert(
        fc.asyncProperty(request, async ({ filterFields, searchKey, page, pageSize }) => {
          const matching = manifests.filter((m) => manifestMatches(m.row, m.facts, filterFields, searchKey));
          const expected = matching
            .map((m) => m.row)
            .sort(compare)
            .slice(page * pageSize, (page + 1) * pageSize);
          const answer = await listPage(session, 'manifests', {
            filterFields,
            searchKey,
            sort: `${field} ${direction}`,
            page,
            pageSize,
            selectedFields: MANIFEST_SCALAR_FIELDS.join(','),
          });
          expect(answer.totalElements).toBe(matching.length);
          expect(answer.content).toEqual(expected);
          const members = Object.entries(filterFields)
            .filter(([, values]) => (Array.isArray(values) ? values.length > 0 : Boolean(values)))
            .map(([member]) => `manifests.${member}`);
          noteExercised(
            searchKey === '' ? members : [...members, 'manifests.searchKey'],
            manifests.length,
            matching.length,
          );
        }),
        { numRuns: RUNS },
      );
    });
  });

  describe('coverage', () => {
    it('exercised every filter member of both lists, every date bound and the search', () => {
      const expected = [
        ...GENERATOR_FILTER_MEMBERS.map((member) => `generators.${member}`),
        'generators.searchKey',
        ...[
          'generator_names',
          'transporter_names',
          'designated_facility_names',
          'dot_id_nos',
          'container_types',
          'handling_codes',
          'shipped_date_start',
          'shipped_date_end',
          'received_date_start',
          'received_date_end',
          'searchKey',
        ].map((member) => `manifests.${member}`),
      ];
      expect(expected.filter((member) => !exercised.has(member))).toEqual([]);
    });
  });
}
