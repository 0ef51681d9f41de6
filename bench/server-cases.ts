/**
 * The requests bench:server times, each with the same repository query to call directly: built over one
 * database connection, identically in the benchmark and in the bare baseline server (bench/paired-servers.ts).
 * A direct call answers what the tracker server sends in its default (sample) dialect, value for value.
 */
import type { Database } from 'better-sqlite3';
import { generatorDetail, generatorTotals, manifestTotals } from '../server/src/http/dialect.ts';
import { endpoints } from '../main/src/api/endpoints.ts';
import { launchDefaults } from '../main/src/settings/launch-options.ts';
import { DetailRepository } from '../server/src/repositories/detail-repository.ts';
import { GeneratorsRepository } from '../server/src/repositories/generators-repository.ts';
import { ManifestsRepository } from '../server/src/repositories/manifests-repository.ts';
import {
  GENERATOR_FIELDS,
  GENERATOR_LOOKUP_FIELDS,
  MANIFEST_FIELDS,
  MANIFEST_LOOKUP_FIELDS,
  type GeneratorFilterFields,
  type GeneratorLookupField,
  type ManifestFilterFields,
  type ManifestLookupField,
} from '../shared/api/index.ts';
import { MANIFEST_COLUMNS, defaultFields } from '../shared/columns.ts';
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../shared/query/definition.ts';
import { parseSelectedFields } from '../shared/query/parse.ts';

/**
 * The fields the manifests grid asks for until the user picks columns: its required fields
 * (renderer/src/workspaces/manifests.tsx, `requiredFields`, which a .tsx file keeps out of plain Node) and
 * the catalogue's visible columns, joined as renderer/src/workspaces/workspace.tsx joins them.
 */
const APP_MANIFEST_SELECTED_FIELDS = [
  ...new Set([
    'manifest_tracking_number',
    'generator_epa_id',
    'waste_lines',
    ...defaultFields(MANIFEST_COLUMNS),
  ]),
].join(',');

export interface Case {
  group: string;
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** The same query, called directly, shaped as the tracker server sends it. */
  direct: () => unknown;
  target: string;
}

/** The slowest search found (a key too short for any index, so a scan of every manifest) and a first page. */
export interface IsolationCases {
  slow: LoadCase;
  firstPage: LoadCase;
}

export interface LoadCase {
  name: string;
  path: string;
  body: unknown;
  /** The same query, called directly, shaped as the tracker server sends it. */
  direct: () => unknown;
}

/** The search key among candidates whose match count is nearest to `target`. */
function searchKeyNear(
  db: Database,
  table: 'generators' | 'manifests',
  candidates: string[],
  target: number,
) {
  const count = db.prepare(`SELECT count(*) FROM ${table}_search WHERE ${table}_search MATCH ?`).pluck();
  let best = { key: '', matches: -1 };
  for (const key of new Set(candidates)) {
    if (key.length < 3) continue;
    const matches = count.get(`"${key.replaceAll('"', '""')}"`) as number;
    if (
      best.matches < 0 ||
      Math.abs(Math.log((matches + 1) / (target + 1))) < Math.abs(Math.log((best.matches + 1) / (target + 1)))
    ) {
      best = { key, matches };
    }
  }
  return best;
}

/** Every timed request in report order, and the filtered first pages put under load. */
export function benchCases(db: Database): { cases: Case[]; load: LoadCase[]; isolation: IsolationCases } {
  const generators = new GeneratorsRepository(db);
  const manifests = new ManifestsRepository(db);
  const details = new DetailRepository(db);
  generators.warm();

  const firstValue = (lookup: { results: { value: string }[] }) => lookup.results[0]?.value ?? '';
  const topValue = (sql: string) => db.prepare(sql).pluck().get() as string;
  const generatorFilters: Record<string, GeneratorFilterFields> = {
    shippedYears: { shippedYears: ['2024'] },
    cities: {
      cities: [topValue('SELECT location_city FROM generators GROUP BY 1 ORDER BY count(*) DESC LIMIT 1')],
    },
    naics: {
      naics: [
        topValue('SELECT primary_naics_code FROM generators GROUP BY 1 ORDER BY count(*) DESC LIMIT 1'),
      ],
    },
    ids: { ids: [topValue('SELECT epa_handler_id FROM generators ORDER BY shipped_count DESC LIMIT 1')] },
    states: { states: ['CA'] },
    wasteCodes: { wasteCodes: ['D001'] },
    names: { names: [topValue('SELECT generator_name FROM generators ORDER BY shipped_count DESC LIMIT 1')] },
    statuses: { statuses: [firstValue(generators.lookup('status', '', 1))] },
    handlingCodes: { handlingCodes: [firstValue(generators.lookup('mmc', '', 1))] },
  };
  const manifestFilters: Record<string, ManifestFilterFields> = {
    generator_names: { generator_names: generatorFilters.names?.names ?? [] },
    transporter_names: { transporter_names: [firstValue(manifests.lookup('transporter_name', '', 1))] },
    designated_facility_names: {
      designated_facility_names: [firstValue(manifests.lookup('designated_facility_name', '', 1))],
    },
    dot_id_nos: { dot_id_nos: ['UN3082'] },
    container_types: { container_types: ['DM'] },
    handling_codes: { handling_codes: [firstValue(manifests.lookup('handling_code', '', 1))] },
    shipped_date: { shipped_date_start: '2024-01-01', shipped_date_end: '2024-03-31' },
    received_date: { received_date_start: '2024-01-01', received_date_end: '2024-03-31' },
  };

  const manifestWords = (
    db
      .prepare('SELECT generator_name, transporter, designated_facility_name FROM manifests LIMIT 2000')
      .raw()
      .all() as string[][]
  )
    .flat()
    .flatMap((text) => text.split(/\s+/));
  const oneMatch = topValue('SELECT manifest_tracking_number FROM manifests LIMIT 1 OFFSET 12345');
  const searches = [
    { label: '1 match', key: oneMatch, matches: 1 },
    { label: '~200 matches', ...searchKeyNear(db, 'manifests', manifestWords, 200) },
    { label: '~50k matches', ...searchKeyNear(db, 'manifests', manifestWords, 50_000) },
  ];

  const generatorPage = (filterFields: GeneratorFilterFields, searchKey = '', page = 0) => ({
    body: {
      pageInfo: { page, pageSize: 50, filters: 'all=', selectedFields: '', sort: '' },
      filterFields,
      searchKey,
    },
    direct: () =>
      generators.page({
        filterFields,
        searchKey,
        sort: GENERATOR_QUERY.defaultSort,
        page,
        pageSize: 50,
        fields: GENERATOR_FIELDS,
      }),
  });
  const manifestPage = (
    filterFields: ManifestFilterFields,
    searchKey = '',
    page = 0,
    fields: readonly (typeof MANIFEST_FIELDS)[number][] = MANIFEST_FIELDS,
  ) => ({
    body: {
      pageInfo: {
        page,
        pageSize: 50,
        filters: 'all=',
        selectedFields: fields === MANIFEST_FIELDS ? '' : fields.join(','),
        sort: '',
      },
      filterFields,
      searchKey,
    },
    direct: () =>
      manifests.pageBytes({
        filterFields,
        searchKey,
        sort: MANIFEST_QUERY.defaultSort,
        page,
        pageSize: 50,
        fields,
      }),
  });

  const cases: Case[] = [];
  const list = (
    group: string,
    name: string,
    path: string,
    page: { body: unknown; direct: () => unknown },
    target = 'p50 ≤ 5, p99 ≤ 25',
  ) => cases.push({ group, name, method: 'POST', path, body: page.body, direct: page.direct, target });
  list('generators list', 'first page, no filter', '/api/tracker/generators/', generatorPage({}));
  for (const [name, filter] of Object.entries(generatorFilters)) {
    list(
      'generators list',
      `${name} = ${JSON.stringify(Object.values(filter)[0])}`,
      '/api/tracker/generators/',
      generatorPage(filter),
    );
  }
  list(
    'generators list',
    'states CA + shippedYears 2024',
    '/api/tracker/generators/',
    generatorPage({ states: ['CA'], shippedYears: ['2024'] }),
  );
  list(
    'generators list',
    'page 1,000 (offset 50,000)',
    '/api/tracker/generators/',
    generatorPage({}, '', 1000),
  );
  list('manifests list', 'first page, no filter', '/api/tracker/manifests/', manifestPage({}));
  for (const [name, filter] of Object.entries(manifestFilters)) {
    list(
      'manifests list',
      `${name} = ${JSON.stringify(Object.values(filter))}`,
      '/api/tracker/manifests/',
      manifestPage(filter),
    );
  }
  list(
    'manifests list',
    'shipped 2024-Q1 + transporter',
    '/api/tracker/manifests/',
    manifestPage({ ...manifestFilters.shipped_date, ...manifestFilters.transporter_names }),
  );
  list(
    'manifests list',
    'page 10,000 (offset 500,000)',
    '/api/tracker/manifests/',
    manifestPage({}, '', 10_000),
  );
  for (const search of searches) {
    list(
      'searchKey',
      `manifests "${search.key}" (${search.matches.toLocaleString('en-US')} matches)`,
      '/api/tracker/manifests/',
      manifestPage({}, search.key),
      'p50 ≤ 25',
    );
  }
  const lookupSources = [
    {
      group: 'generators',
      path: '/api/tracker/generators/filters/',
      fields: GENERATOR_LOOKUP_FIELDS,
      lookup: (field: string, search: string) => generators.lookup(field as GeneratorLookupField, search, 1),
    },
    {
      group: 'manifests',
      path: '/api/tracker/shipments_and_waste_volumes/filters/',
      fields: MANIFEST_LOOKUP_FIELDS,
      lookup: (field: string, search: string) => manifests.lookup(field as ManifestLookupField, search, 1),
    },
  ];
  for (const source of lookupSources) {
    for (const field of source.fields) {
      for (const search of ['', field === 'manifest_number' ? '123' : 'a']) {
        cases.push({
          group: 'lookups',
          name: `${source.group} ${field}${search ? ` search "${search}"` : ''}`,
          method: 'GET',
          path: `${source.path}?field=${field}&page=1&search=${search}`,
          direct: () => source.lookup(field, search),
          target: 'p50 ≤ 5, p99 ≤ 25',
        });
      }
    }
  }
  // Rare substrings of the longest lists: each scanned the whole list before the lookup index.
  const someHandlerId = topValue('SELECT epa_handler_id FROM generators LIMIT 1 OFFSET 4321');
  const rareLookups = [
    { source: lookupSources[1], field: 'manifest_number', search: oneMatch.slice(1, 8) },
    { source: lookupSources[1], field: 'manifest_number', search: '000000' },
    { source: lookupSources[0], field: 'epa_handler_id', search: someHandlerId.slice(3, 10) },
    { source: lookupSources[0], field: 'generator_name', search: 'zzq' },
  ];
  for (const { source, field, search } of rareLookups) {
    if (!source) continue;
    cases.push({
      group: 'lookups',
      name: `${source.group} ${field} search "${search}" (${source.lookup(field, search).results.length} on page 1)`,
      method: 'GET',
      path: `${source.path}?field=${field}&page=1&search=${search}`,
      direct: () => source.lookup(field, search),
      target: 'p50 ≤ 5, p99 ≤ 25',
    });
  }
  const aggregate = (
    group: 'generators' | 'manifests',
    name: string,
    filterFields: GeneratorFilterFields | ManifestFilterFields,
    target: string,
  ) =>
    cases.push({
      group: 'aggregated_data',
      name: `${group} ${name}`,
      method: 'POST',
      path: `/api/tracker/${group}/aggregated_data/`,
      body: { filterFields, searchKey: '' },
      direct: () =>
        group === 'generators'
          ? generatorTotals(generators.totals(filterFields as GeneratorFilterFields, ''), 'sample')
          : manifestTotals(manifests.totals(filterFields as ManifestFilterFields, ''), 'sample'),
      target,
    });
  aggregate('generators', 'no filter', {}, 'p50 ≤ 5');
  aggregate('generators', 'states CA', { states: ['CA'] }, 'p50 ≤ 50');
  aggregate('generators', 'wasteCodes D001', { wasteCodes: ['D001'] }, 'p50 ≤ 50');
  aggregate('manifests', 'no filter', {}, 'p50 ≤ 5');
  for (const [name, filter] of Object.entries(manifestFilters))
    aggregate('manifests', name, filter, 'p50 ≤ 50');
  const detailId = generatorFilters.ids?.ids?.[0] ?? '';
  cases.push({
    group: 'detail',
    name: `largest generator ${detailId}`,
    method: 'GET',
    path: `/api/tracker/generators/details/?handler_id=${detailId}`,
    direct: () => {
      const detail = details.find(detailId);
      return detail && generatorDetail(detail, 'sample');
    },
    target: 'p50 ≤ 5, p99 ≤ 25',
  });

  const byTransporter = manifestFilters.transporter_names ?? {};
  // The manifests grid's first page exactly as the app sends it: the default page size of its settings,
  // its selectedFields, and the page info the main process fills in (main/src/api/endpoints.ts).
  const appPageSize = launchDefaults([], {}).defaults.pageSize;
  const appRequest = endpoints.manifestsList({
    filterFields: byTransporter,
    searchKey: '',
    pageInfo: { page: 0, pageSize: appPageSize, selectedFields: APP_MANIFEST_SELECTED_FIELDS },
  });
  const appFields = parseSelectedFields(APP_MANIFEST_SELECTED_FIELDS, MANIFEST_FIELDS);
  if (!appFields.ok) throw new Error(`the app's selectedFields: ${appFields.message}`);
  const load: LoadCase[] = [
    {
      name: `manifests first page as the app asks (${appPageSize} rows, the grid's ${appFields.value.length - 1} columns and the waste lines), transporter filter`,
      path: appRequest.path,
      body: appRequest.body,
      direct: () =>
        manifests.pageBytes({
          filterFields: byTransporter,
          searchKey: '',
          sort: MANIFEST_QUERY.defaultSort,
          page: 0,
          pageSize: appPageSize,
          fields: appFields.value,
        }),
    },
    {
      name: 'manifests first page (50 rows, every field with the waste lines), transporter filter',
      path: '/api/tracker/manifests/',
      ...manifestPage(byTransporter),
    },
    {
      name: 'manifests first page (50 rows, grid columns without waste lines), transporter filter',
      path: '/api/tracker/manifests/',
      ...manifestPage(
        byTransporter,
        '',
        0,
        MANIFEST_FIELDS.filter((field) => field !== 'waste_lines'),
      ),
    },
    {
      name: 'generators first page (50 rows), states CA',
      path: '/api/tracker/generators/',
      ...generatorPage({ states: ['CA'] }),
    },
  ];
  const isolation: IsolationCases = {
    slow: {
      name: 'manifests searchKey "é" (one character: every manifest scanned and counted)',
      path: '/api/tracker/manifests/',
      ...manifestPage({}, 'é'),
    },
    firstPage: {
      name: 'manifests first page, no filter',
      path: '/api/tracker/manifests/',
      ...manifestPage({}),
    },
  };
  return { cases, load, isolation };
}
