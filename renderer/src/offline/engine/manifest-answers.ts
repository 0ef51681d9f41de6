/**
 * A manifests pack's answers: pages, totals and lookups. The members over waste lines list each manifest
 * under the codes its lines carry; the date members are ranges of the date's order.
 */
import {
  MANIFEST_FIELDS,
  ManifestAggregateRequest,
  ManifestListRequest,
  ManifestLookupQuery,
  type ManifestFilterFields,
  type ManifestLookupField,
  type ManifestRecord,
} from '../../../../shared/api/index.ts';
import { MANIFEST_LIST_MEMBERS, requestKey } from '../../../../shared/query/canonical.ts';
import {
  DEFAULT_MANIFEST_SORT,
  MANIFEST_SEARCH_FIELDS,
  MANIFEST_SORT_FIELDS,
} from '../../../../shared/query/index.ts';
import { parseSearch } from '../../../../shared/query/search.ts';
import { MANIFEST_KEY } from '../../../../shared/query/sort.ts';
import { compensatedTotal, fail, listPage, read, requireFields } from './answer-support.ts';
import type { EngineAnswer, EngineOutputs, EngineRequests } from './contract.ts';
import { handlingCodeOf, lineCodes } from './pack-facts.ts';
import type { PackIndexes } from './pack-indexes.ts';
import { PackLookups, plainEntries } from './pack-lookups.ts';
import { PackTable } from './pack-table.ts';

type Manifest = ManifestRecord & Readonly<Record<string, unknown>>;

const MANIFEST_ROW_MEMBERS = {
  generator_names: 'generator_name',
  transporter_names: 'transporter',
  designated_facility_names: 'designated_facility_name',
} as const satisfies Partial<Record<keyof ManifestFilterFields, keyof ManifestRecord>>;

/** `stored`: the indexes the pack kept, used when they were made over these rows (else built). */
export function manifestAnswers(
  records: readonly Manifest[],
  stored?: Pick<PackIndexes, 'table' | 'lookups'>,
) {
  requireFields(records, MANIFEST_FIELDS, 'manifest');
  // The numbers the totals sum, read once into typed arrays: a total then never touches a row object.
  const column = (field: keyof ManifestRecord) => Float64Array.from(records, (row) => Number(row[field]));
  const columns = {
    tons: column('total_waste_quantity_tons'),
    containers: column('container_count'),
    streams: column('waste_stream_count'),
  };
  // The members over waste lines list a manifest under each code its lines carry (ManifestFacts).
  const members: Record<string, (row: Manifest, position: number) => Iterable<string>> = {
    dot_id_nos: (row) => lineCodes(row, (line) => line.usdot_id_number),
    container_types: (row) => lineCodes(row, (line) => line.container_type_code),
    handling_codes: (row) => lineCodes(row, (line) => handlingCodeOf(line.mmc_and_desc)),
  };
  for (const [member, field] of Object.entries(MANIFEST_ROW_MEMBERS))
    members[member] = (row) => [String(row[field])];
  const table = new PackTable<Manifest>(
    records,
    {
      keyField: MANIFEST_KEY,
      defaultSort: DEFAULT_MANIFEST_SORT.field,
      sortFields: MANIFEST_SORT_FIELDS,
      searchTexts: (row) => MANIFEST_SEARCH_FIELDS.map((field) => String(row[field])),
      members,
    },
    stored?.table,
  );
  const lookups = new PackLookups<ManifestLookupField>(
    {
      manifest_number: () => plainEntries(records.map((row) => String(row.manifest_tracking_number))),
      generator_name: () => plainEntries(table.valuesOf('generator_names')),
      transporter_name: () => plainEntries(table.valuesOf('transporter_names')),
      designated_facility_name: () => plainEntries(table.valuesOf('designated_facility_names')),
      dot_id_no: () => plainEntries(table.valuesOf('dot_id_nos')),
      container_type: () => plainEntries(table.valuesOf('container_types')),
      handling_code: () => plainEntries(table.valuesOf('handling_codes')),
    },
    // Lookup lists stored over other rows would list other values: taken only with the table's indexes.
    table.fromStored ? stored?.lookups : undefined,
  );
  const select = (filterFields: ManifestFilterFields, searchKey: string) =>
    table.select(
      requestKey('manifests.aggregate', { filterFields, searchKey }),
      MANIFEST_LIST_MEMBERS.map((member) => [member, filterFields[member] ?? []] as const),
      // The date members' inclusive bounds (MANIFEST_DATE_TESTS), read from the field's order: YYYY-MM-DD
      // text sorts as the dates do.
      [
        { field: 'shipped_date', from: filterFields.shipped_date_start, to: filterFields.shipped_date_end },
        {
          field: 'received_date',
          from: filterFields.received_date_start,
          to: filterFields.received_date_end,
        },
      ],
      searchKey,
    );

  return {
    fromStored: table.fromStored,
    /** Every index, built now where missing, as the pack stores them. */
    indexes: () => ({ table: table.indexes(), lookups: lookups.all() }),
    list(input: EngineRequests['manifests.list']): EngineAnswer<'manifests.list'> {
      const request = read(ManifestListRequest, input);
      if (!request.ok) return fail('bad-request', request.message);
      return listPage(table, records, request.value, {
        sortable: MANIFEST_SORT_FIELDS,
        defaultSort: DEFAULT_MANIFEST_SORT,
        fields: MANIFEST_FIELDS,
        select,
      });
    },
    aggregate(input: EngineRequests['manifests.aggregate']): EngineAnswer<'manifests.aggregate'> {
      const request = read(ManifestAggregateRequest, input);
      if (!request.ok) return fail('bad-request', request.message);
      const search = parseSearch(request.value.searchKey, 'searchKey');
      if (!search.ok) return fail('bad-request', search.message);
      const selection = select(request.value.filterFields, search.value);
      const { positions } = selection;
      const total: EngineOutputs['manifests.aggregate'] = {
        total_waste: compensatedTotal(columns.tons, positions),
        shipped_count: positions.length,
        container_count: 0,
        waste_streams: 0,
      };
      for (const position of positions) {
        total.container_count += columns.containers[position] ?? 0;
        total.waste_streams += columns.streams[position] ?? 0;
      }
      return { ok: true, data: total };
    },
    lookup(input: EngineRequests['manifests.lookup']): EngineAnswer<'manifests.lookup'> {
      const query = read(ManifestLookupQuery, input);
      if (!query.ok) return fail('bad-request', query.message);
      const search = parseSearch(query.value.search, 'search');
      if (!search.ok) return fail('bad-request', search.message);
      return { ok: true, data: lookups.page(query.value.field, search.value, query.value.page) };
    },
  };
}
