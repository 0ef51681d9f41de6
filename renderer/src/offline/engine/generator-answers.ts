/**
 * A generators pack's answers: pages, lookups and totals (docs/offline.md). The members over shipments and
 * statuses read each generator's facts from its detail (pack-facts.ts); the totals sum each generator's own
 * totals, downloaded with the pack, since a generator's number of manifests is in no other answer.
 */
import {
  GENERATOR_FIELDS,
  GENERATOR_FILTER_MEMBERS,
  GeneratorAggregateRequest,
  GeneratorListRequest,
  GeneratorLookupQuery,
  type GeneratorDetail,
  type GeneratorFilterFields,
  type GeneratorLookupField,
  type GeneratorRecord,
} from '../../../../shared/api/index.ts';
import { requestKey } from '../../../../shared/query/canonical.ts';
import type { GeneratorFacts } from '../../../../shared/query/filters.ts';
import {
  DEFAULT_GENERATOR_SORT,
  GENERATOR_SEARCH_FIELDS,
  GENERATOR_SORT_FIELDS,
} from '../../../../shared/query/index.ts';
import { parseSearch } from '../../../../shared/query/search.ts';
import { withStatusGroups } from '../../../../shared/query/lookup.ts';
import { compareCodePoints, GENERATOR_KEY } from '../../../../shared/query/sort.ts';
import { compensatedTotal, fail, listPage, read, requireFields } from './answer-support.ts';
import type { EngineAnswer, EngineOutputs, EngineRequests, GeneratorOwnTotals } from './contract.ts';
import { generatorFactsOf } from './pack-facts.ts';
import type { PackIndexes } from './pack-indexes.ts';
import { PackLookups, plainEntries } from './pack-lookups.ts';
import { PackTable } from './pack-table.ts';

type Generator = GeneratorRecord & Readonly<Record<string, unknown>>;

/** The generator members answered from the detail's facts rather than from the row. */
const FACT_MEMBERS = ['shippedYears', 'wasteCodes', 'statuses', 'handlingCodes'] as const;
const FACT_LOOKUPS: readonly GeneratorLookupField[] = ['epa_waste_code', 'mmc', 'shipped_year', 'status'];

/** The generator members read straight from a row field. */
const GENERATOR_ROW_MEMBERS = {
  cities: 'location_city',
  naics: 'primary_naics_code',
  ids: 'epa_handler_id',
  states: 'location_state',
  names: 'generator_name',
} as const satisfies Partial<Record<keyof GeneratorFilterFields, keyof GeneratorRecord>>;

/**
 * Each generator's totals as columns by row position; undefined when any generator lacks them. Its tons are
 * the detail's `total_shipped`, the unrounded sum the server's totals add up (its own aggregated_data
 * rounds them, to two decimals in the sample dialect); its manifests and containers are its own totals.
 */
function totalsColumns(
  records: readonly Generator[],
  details: ReadonlyMap<string, GeneratorDetail>,
  totals: readonly GeneratorOwnTotals[] | undefined,
) {
  if (!totals) return undefined;
  const byId = new Map(totals.map((own) => [own.epa_handler_id, own]));
  const columns = {
    tons: new Float64Array(records.length),
    manifests: new Float64Array(records.length),
    containers: new Float64Array(records.length),
  };
  for (const [position, record] of records.entries()) {
    const id = record.epa_handler_id ?? '';
    const own = byId.get(id);
    const detail = details.get(id);
    if (!own || !detail) return undefined;
    columns.tons[position] = detail.generator_data.total_shipped;
    columns.manifests[position] = own.shipped_count;
    columns.containers[position] = own.container_count;
  }
  return columns;
}

/** `stored`: the indexes the pack kept, used when they were made over these rows (else built). */
export function generatorAnswers(
  records: readonly Generator[],
  details: ReadonlyMap<string, GeneratorDetail>,
  totals?: readonly GeneratorOwnTotals[],
  stored?: Pick<PackIndexes, 'table' | 'lookups'>,
) {
  requireFields(records, GENERATOR_FIELDS, 'generator');
  const facts: (GeneratorFacts | undefined)[] = records.map((record) => {
    const detail = details.get(record.epa_handler_id ?? '');
    return detail ? generatorFactsOf(detail) : undefined;
  });
  const columns = totalsColumns(records, details, totals);
  const withoutDetail = facts.filter((fact) => fact === undefined).length;
  const members: Record<string, (row: Generator, position: number) => Iterable<string>> = {};
  for (const [member, field] of Object.entries(GENERATOR_ROW_MEMBERS))
    members[member] = (row) => [String(row[field])];
  for (const member of FACT_MEMBERS) members[member] = (_row, position) => facts[position]?.[member] ?? [];
  const table = new PackTable<Generator>(
    records,
    {
      keyField: GENERATOR_KEY,
      defaultSort: DEFAULT_GENERATOR_SORT.field,
      sortFields: GENERATOR_SORT_FIELDS,
      searchTexts: (row) => GENERATOR_SEARCH_FIELDS.map((field) => String(row[field])),
      members,
    },
    stored?.table,
  );
  const naicsText = () => {
    const descriptions = new Map<string, string>();
    for (const row of records) {
      const code = String(row.primary_naics_code);
      const description = String(row.primary_naics_desc);
      const kept = descriptions.get(code);
      // The server's min(primary_naics_desc) per code, in code point order.
      if (kept === undefined || compareCodePoints(description, kept) < 0) descriptions.set(code, description);
    }
    return [...descriptions].map(([value, description]) => ({
      value,
      text: description === '' ? value : `${value} - ${description}`,
    }));
  };
  const lookups = new PackLookups<GeneratorLookupField>(
    {
      generator_city: () => plainEntries(table.valuesOf('cities')),
      naics: naicsText,
      epa_handler_id: () => plainEntries(table.valuesOf('ids')),
      generator_state: () => plainEntries(table.valuesOf('states')),
      epa_waste_code: () => plainEntries(table.valuesOf('wasteCodes')),
      generator_name: () => plainEntries(table.valuesOf('names')),
      mmc: () => plainEntries(table.valuesOf('handlingCodes')),
      shipped_year: () => plainEntries(table.valuesOf('shippedYears')),
      status: () => plainEntries(table.valuesOf('statuses')),
    },
    // Lookup lists stored over other rows would list other values: taken only with the table's indexes.
    table.fromStored ? stored?.lookups : undefined,
  );
  const lacksFacts = (filters: GeneratorFilterFields) =>
    withoutDetail > 0 && FACT_MEMBERS.some((member) => (filters[member]?.length ?? 0) > 0);
  const missingDetails = () =>
    fail(
      'offline',
      `This offline pack lacks the details of ${withoutDetail} generators, which this filter needs.`,
    );
  let registrations: ReadonlySet<string> | undefined;
  const select = (filterFields: GeneratorFilterFields, searchKey: string) =>
    table.select(
      requestKey('generators.aggregate', { filterFields, searchKey }),
      GENERATOR_FILTER_MEMBERS.map((member) => [member, filterFields[member] ?? []] as const),
      [],
      searchKey,
    );

  return {
    fromStored: table.fromStored,
    /** Every index, built now where missing, as the pack stores them. */
    indexes: () => ({ table: table.indexes(), lookups: lookups.all() }),
    list(input: EngineRequests['generators.list']): EngineAnswer<'generators.list'> {
      const request = read(GeneratorListRequest, input);
      if (!request.ok) return fail('bad-request', request.message);
      return listPage(table, records, request.value, {
        sortable: GENERATOR_SORT_FIELDS,
        defaultSort: DEFAULT_GENERATOR_SORT,
        fields: GENERATOR_FIELDS,
        select,
        refuse: (filterFields) => (lacksFacts(filterFields) ? missingDetails() : undefined),
      });
    },
    aggregate(input: EngineRequests['generators.aggregate']): EngineAnswer<'generators.aggregate'> {
      const request = read(GeneratorAggregateRequest, input);
      if (!request.ok) return fail('bad-request', request.message);
      const search = parseSearch(request.value.searchKey, 'searchKey');
      if (!search.ok) return fail('bad-request', search.message);
      if (!columns) {
        return fail(
          'offline',
          'This offline pack was made without each generator’s totals; refresh it to answer generator totals offline.',
        );
      }
      if (lacksFacts(request.value.filterFields)) return missingDetails();
      const { positions } = select(request.value.filterFields, search.value);
      const total: EngineOutputs['generators.aggregate'] = {
        epa_total: compensatedTotal(columns.tons, positions),
        shipped_count: 0,
        container_count: 0,
        mmc_count: 0,
      };
      // Whole numbers: a plain sum is exact.
      for (const position of positions) {
        const manifests = columns.manifests[position] ?? 0;
        total.shipped_count += manifests;
        total.container_count += columns.containers[position] ?? 0;
        // The server's "total shippers": generators with at least one manifest (docs/api.md, Totals).
        if (manifests > 0) total.mmc_count += 1;
      }
      return { ok: true, data: total };
    },
    lookup(input: EngineRequests['generators.lookup']): EngineAnswer<'generators.lookup'> {
      const query = read(GeneratorLookupQuery, input);
      if (!query.ok) return fail('bad-request', query.message);
      const search = parseSearch(query.value.search, 'search');
      if (!search.ok) return fail('bad-request', search.message);
      if (withoutDetail > 0 && FACT_LOOKUPS.includes(query.value.field)) return missingDetails();
      const page = lookups.page(query.value.field, search.value, query.value.page);
      if (query.value.field !== 'status') return { ok: true, data: page };
      // Grouped as the server groups them: by the registration statuses of the generators it holds.
      registrations ??= new Set(records.map((record) => String(record.registration_status)));
      return { ok: true, data: withStatusGroups(page, registrations) };
    },
  };
}
