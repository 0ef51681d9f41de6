/**
 * The server's SQL held to shared/query's definition over one database: random requests over every filter
 * member of both lists (values from the data, values that do not exist, ""), date ranges, search keys (cut
 * from real text, non-ASCII, one to six characters, in any case), every sort field in both directions, any
 * page size and page, selectedFields, answered over real HTTP, must equal the definition run over every row
 * read straight from SQLite (test/helpers/query-oracle.ts; the derived facts read from the raw tables, never
 * from the server's sets). Run over the demo data (query-semantics.test.ts) and over data imported from EPA
 * files (import/imported-conformance.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeneratorTotals, ManifestTotals } from '../../shared/api/index.ts';
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../../shared/query/definition.ts';
import { parseSelectedFields } from '../../shared/query/parse.ts';
import { checkProperty, listRequests, memberProbes, type ListRequest } from '../helpers/query-arbitraries.ts';
import { comparator, matches, totals, type Definition, type OracleItem } from '../helpers/query-oracle.ts';
import { startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import {
  GENERATOR_FIELDS,
  GENERATOR_FILTER_MEMBERS,
  INSPECTOR,
  MANIFEST_FILTER_MEMBERS,
  MANIFEST_SCALAR_FIELDS,
  PATHS,
  listPage,
  loadGenerators,
  loadManifests,
  post,
  signInAs,
  type ListKind,
  type Row,
  type Session,
} from './support.ts';

const TOTALS_PATHS = { generators: PATHS.generatorTotals, manifests: PATHS.manifestTotals } as const;

/** Per member, the requests in which it took part and removed some rows but not all: it was exercised. */
const exercised = new Map<string, number>();
function noteExercised(members: string[], before: number, after: number): void {
  if (after === 0 || after === before) return;
  for (const member of members) exercised.set(member, (exercised.get(member) ?? 0) + 1);
}

const pick = (row: Row, fields: readonly string[]) =>
  Object.fromEntries(fields.map((field) => [field, row[field]]));

/**
 * Asks the server a generated request sorted by `field` `direction`, and checks its page and total against
 * the definition run over `items`.
 */
async function expectDefinitionAnswer(
  session: Session,
  list: ListKind,
  definition: Definition,
  items: readonly OracleItem[],
  request: ListRequest,
  sort: { field: string; direction: 'asc' | 'desc' },
  selectable: readonly string[],
): Promise<void> {
  const { filterFields, searchKey, pageInfo } = request;
  const selected = parseSelectedFields(pageInfo.selectedFields, selectable);
  if (!selected.ok) throw new Error(selected.message);
  const matching = items.filter((item) => matches(definition, item, filterFields, searchKey));
  const compare = comparator(definition, sort);
  const { page, pageSize } = pageInfo;
  const expected = matching
    .map((item) => item.row)
    .sort(compare)
    .slice(page * pageSize, (page + 1) * pageSize)
    .map((row) => pick(row, selected.value));
  const answer = await listPage(session, list, {
    filterFields,
    searchKey,
    sort: `${sort.field} ${sort.direction}`,
    page,
    pageSize,
    selectedFields: selected.value.join(','),
  });
  expect(answer.totalElements).toBe(matching.length);
  expect(answer.content).toEqual(expected);
  // The totals boxes of the same request: the definition's reductions over the same rows.
  const totalsAnswer = await post(session.baseUrl, TOTALS_PATHS[list], session.token, {
    filterFields,
    searchKey,
  });
  expect(totalsAnswer.status, totalsAnswer.text).toBe(200);
  const served = (list === 'generators' ? GeneratorTotals : ManifestTotals).parse(totalsAnswer.body);
  const truth = totals(definition, matching);
  for (const [name, value] of Object.entries(truth)) {
    const got = (served as Record<string, number>)[name];
    const reduction = definition.totals[name];
    // The sample dialect writes a rounded sum with two decimals; every other total is a whole number.
    if (reduction?.reduce === 'sum' && reduction.decimals !== undefined) {
      expect(Math.abs((got ?? Number.NaN) - value), name).toBeLessThan(0.0051);
    } else {
      expect(got, name).toBe(value);
    }
  }
  const members = Object.entries(filterFields)
    .filter(([, values]) => values.length > 0)
    .map(([member]) => `${list}.${member}`);
  noteExercised(
    searchKey === '' ? members : [...members, `${list}.searchKey`],
    items.length,
    matching.length,
  );
}

const casesOf = (fields: readonly string[]) =>
  fields.flatMap((field) => (['asc', 'desc'] as const).map((direction) => [field, direction] as const));

/**
 * Registers the suite over the database `setup` builds (with the demo accounts): `runs` requests per sort
 * field and direction; `cleanup` after.
 */
export function queryConformance(options: {
  setup: () => Promise<string>;
  cleanup: () => void;
  runs: number;
}): void {
  let server: TrackerServer;
  let session: Session;
  let generators: OracleItem[];
  let manifests: OracleItem[];

  beforeAll(async () => {
    server = await startTrackerServer({ dbPath: await options.setup(), socket: false });
    session = await signInAs(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
    generators = loadGenerators(server.db);
    manifests = loadManifests(server.db);
  });

  afterAll(async () => {
    await server?.close();
    options.cleanup();
  });

  describe('generators: the server answers what the definition defines', () => {
    it.each(casesOf(GENERATOR_QUERY.sortFields))('sorted by %s %s', async (field, direction) => {
      await checkProperty(
        listRequests(GENERATOR_QUERY, generators, GENERATOR_FIELDS),
        (request) =>
          expectDefinitionAnswer(
            session,
            'generators',
            GENERATOR_QUERY,
            generators,
            request,
            { field, direction },
            GENERATOR_FIELDS,
          ),
        options.runs,
      );
    });
  });

  describe('manifests: the server answers what the definition defines', () => {
    it.each(casesOf(MANIFEST_QUERY.sortFields))('sorted by %s %s', async (field, direction) => {
      // The truth holds each manifest's scalar fields; its waste lines are held to the data elsewhere.
      await checkProperty(
        listRequests(MANIFEST_QUERY, manifests, MANIFEST_SCALAR_FIELDS),
        (request) =>
          expectDefinitionAnswer(
            session,
            'manifests',
            MANIFEST_QUERY,
            manifests,
            {
              ...request,
              pageInfo: {
                ...request.pageInfo,
                selectedFields: request.pageInfo.selectedFields || MANIFEST_SCALAR_FIELDS.join(','),
              },
            },
            { field, direction },
            MANIFEST_SCALAR_FIELDS,
          ),
        options.runs,
      );
    });
  });

  describe('each filter member alone, and the search, keeping some rows and not all', () => {
    const probe = (list: ListKind, member: string) => {
      const [definition, items, fields] =
        list === 'generators'
          ? [GENERATOR_QUERY, generators, GENERATOR_FIELDS]
          : [MANIFEST_QUERY, manifests, MANIFEST_SCALAR_FIELDS];
      const found = memberProbes(definition, items).find((candidate) => candidate.member === member);
      if (!found) throw new Error(`the definition of ${list} has no member ${member}`);
      return { definition, items, fields, ...found };
    };
    it.each([...GENERATOR_FILTER_MEMBERS, 'searchKey'])('generators: %s', async (member) => {
      const { definition, items, fields, filterFields, searchKey } = probe('generators', member);
      const request = {
        filterFields,
        searchKey,
        pageInfo: { page: 0, pageSize: 50, sort: '', selectedFields: '' },
      };
      const [field = ''] = definition.sortFields;
      await expectDefinitionAnswer(
        session,
        'generators',
        definition,
        items,
        request,
        { field, direction: 'asc' },
        fields,
      );
    });
    it.each([...MANIFEST_FILTER_MEMBERS, 'searchKey'])('manifests: %s', async (member) => {
      const { definition, items, fields, filterFields, searchKey } = probe('manifests', member);
      const request = {
        filterFields,
        searchKey,
        pageInfo: { page: 0, pageSize: 50, sort: '', selectedFields: fields.join(',') },
      };
      const [field = ''] = definition.sortFields;
      await expectDefinitionAnswer(
        session,
        'manifests',
        definition,
        items,
        request,
        { field, direction: 'asc' },
        fields,
      );
    });
  });

  describe('coverage', () => {
    it('exercised every filter member of both lists, every date bound and the search', () => {
      const expected = [
        ...GENERATOR_FILTER_MEMBERS.map((member) => `generators.${member}`),
        'generators.searchKey',
        ...MANIFEST_FILTER_MEMBERS.map((member) => `manifests.${member}`),
        'manifests.searchKey',
      ];
      expect(expected.filter((member) => !exercised.has(member))).toEqual([]);
    });
  });
}
