/**
 * A manifests pack's answers: pages, totals and lookups. The members over waste lines list each manifest
 * under the codes its lines carry; the date members are ranges of the date's order.
 */
import {
  MANIFEST_FIELDS,
  ManifestAggregateRequest,
  ManifestLookupQuery,
  type ManifestFilterFields,
  type ManifestLookupField,
  type ManifestRecord,
} from '../../../../shared/api/index.ts';
import { requestKey } from '../../../../shared/query/canonical.ts';
import {
  MANIFEST_QUERY,
  type ManifestFact,
  type ManifestQuantity,
} from '../../../../shared/query/definition.ts';
import { readManifestList, readRequest } from '../../../../shared/query/parse.ts';
import { reduceTotals } from '../../../../shared/query/totals.ts';
import {
  answerable,
  listPage,
  memberIndexes,
  memberValues,
  ranges,
  requireFields,
} from './answer-support.ts';
import type { EngineAnswer, EngineRequests, PackIndexes } from './contract.ts';
import { lineValues } from './pack-facts.ts';
import { PackLookups, plainEntries } from './pack-lookups.ts';
import { PackTable } from './pack-table.ts';

type Manifest = ManifestRecord & Readonly<Record<string, unknown>>;

/** `stored`: the indexes the pack kept, used when they were made over these rows (else built). */
export function manifestAnswers(
  records: readonly Manifest[],
  stored?: Pick<PackIndexes, 'table' | 'lookups'>,
) {
  requireFields(records, MANIFEST_FIELDS, 'manifest');
  // The quantities the totals reduce, read once into typed arrays: a total then never touches a row object.
  const columns = Object.fromEntries(
    Object.entries(MANIFEST_QUERY.quantities).map(([name, { field }]) => [
      name,
      Float64Array.from(records, (row) => Number(row[field])),
    ]),
  ) as Record<ManifestQuantity, Float64Array>;
  const table = new PackTable<Manifest>(
    records,
    {
      keyField: MANIFEST_QUERY.key,
      defaultSort: MANIFEST_QUERY.defaultSort.field,
      sortFields: MANIFEST_QUERY.sortFields,
      searchTexts: (row) => MANIFEST_QUERY.searchFields.map((field) => String(row[field])),
      // The members over waste lines list a manifest under each value its lines give the fact.
      members: memberIndexes<Manifest, ManifestFact>(MANIFEST_QUERY.members, (fact, row) =>
        lineValues(row, fact),
      ),
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
      memberValues(MANIFEST_QUERY.members, filterFields),
      ranges(MANIFEST_QUERY.members, filterFields),
      searchKey,
    );

  return {
    fromStored: table.fromStored,
    /** Every index, built now where missing, as the pack stores them. */
    indexes: () => ({ table: table.indexes(), lookups: lookups.all() }),
    list(input: EngineRequests['manifests.list']): EngineAnswer<'manifests.list'> {
      const query = answerable(readManifestList(input));
      return query.ok ? listPage(table, records, query.value, select) : query;
    },
    aggregate(input: EngineRequests['manifests.aggregate']): EngineAnswer<'manifests.aggregate'> {
      const request = answerable(readRequest(ManifestAggregateRequest, input));
      if (!request.ok) return request;
      const { positions } = select(request.value.filterFields, request.value.searchKey);
      return { ok: true, data: reduceTotals(MANIFEST_QUERY.totals, columns, positions) };
    },
    lookup(input: EngineRequests['manifests.lookup']): EngineAnswer<'manifests.lookup'> {
      const query = answerable(readRequest(ManifestLookupQuery, input));
      if (!query.ok) return query;
      const { field, search, page } = query.value;
      return { ok: true, data: lookups.page(field, search, page) };
    },
  };
}
