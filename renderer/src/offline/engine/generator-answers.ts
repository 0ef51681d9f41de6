/**
 * A generators pack's answers: pages, lookups and totals (docs/offline.md). The members over shipments and
 * statuses read each generator's facts from its detail (pack-facts.ts); the totals sum each generator's own
 * totals, downloaded with the pack, since a generator's number of manifests is in no other answer.
 */
import {
  GENERATOR_FIELDS,
  GeneratorAggregateRequest,
  GeneratorLookupQuery,
  type GeneratorDetail,
  type GeneratorFilterFields,
  type GeneratorLookupField,
  type GeneratorRecord,
} from '../../../../shared/api/index.ts';
import { requestKey } from '../../../../shared/query/canonical.ts';
import {
  GENERATOR_QUERY,
  valuesMembers,
  type GeneratorFact,
  type GeneratorQuantity,
} from '../../../../shared/query/definition.ts';
import { withStatusGroups } from '../../../../shared/query/lookup.ts';
import { readGeneratorList, readRequest } from '../../../../shared/query/parse.ts';
import { compareCodePoints } from '../../../../shared/query/sort.ts';
import { reduceTotals } from '../../../../shared/query/totals.ts';
import { answerable, fail, listPage, memberIndexes, memberValues, requireFields } from './answer-support.ts';
import type { EngineAnswer, EngineRequests, GeneratorOwnTotals, PackIndexes } from './contract.ts';
import { generatorFactsOf, type GeneratorFacts } from './pack-facts.ts';
import { PackLookups, plainEntries } from './pack-lookups.ts';
import { PackTable } from './pack-table.ts';

type Generator = GeneratorRecord & Readonly<Record<string, unknown>>;

/** The generator members answered from the detail's facts rather than from the row. */
const FACT_MEMBERS = valuesMembers(GENERATOR_QUERY.members).flatMap(([name, member]) =>
  member.match === 'holds' ? [name] : [],
);
const FACT_LOOKUPS: readonly GeneratorLookupField[] = ['epa_waste_code', 'mmc', 'shipped_year', 'status'];

/**
 * Each generator's quantities (the totals' columns) by row position; undefined when any generator lacks
 * them. Its tons are the detail's `total_shipped`, the unrounded sum the server's totals add up (its own
 * aggregated_data rounds them, to two decimals in the sample dialect); its manifests and containers are its
 * own totals.
 */
function quantityColumns(
  records: readonly Generator[],
  details: ReadonlyMap<string, GeneratorDetail>,
  totals: readonly GeneratorOwnTotals[] | undefined,
): Record<GeneratorQuantity, Float64Array> | undefined {
  if (!totals) return undefined;
  const byId = new Map(totals.map((own) => [own.epa_handler_id, own]));
  const columns: Record<GeneratorQuantity, Float64Array> = {
    shippedTons: new Float64Array(records.length),
    shippedCount: new Float64Array(records.length),
    containerCount: new Float64Array(records.length),
  };
  for (const [position, record] of records.entries()) {
    const id = record.epa_handler_id ?? '';
    const own = byId.get(id);
    const detail = details.get(id);
    if (!own || !detail) return undefined;
    columns.shippedTons[position] = detail.generator_data.total_shipped;
    columns.shippedCount[position] = own.shipped_count;
    columns.containerCount[position] = own.container_count;
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
  const columns = quantityColumns(records, details, totals);
  const withoutDetail = facts.filter((fact) => fact === undefined).length;
  const table = new PackTable<Generator>(
    records,
    {
      keyField: GENERATOR_QUERY.key,
      defaultSort: GENERATOR_QUERY.defaultSort.field,
      sortFields: GENERATOR_QUERY.sortFields,
      searchTexts: (row) => GENERATOR_QUERY.searchFields.map((field) => String(row[field])),
      members: memberIndexes<Generator, GeneratorFact>(
        GENERATOR_QUERY.members,
        (fact, _row, position) => facts[position]?.[fact] ?? [],
      ),
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
      memberValues(GENERATOR_QUERY.members, filterFields),
      [],
      searchKey,
    );

  return {
    fromStored: table.fromStored,
    /** Every index, built now where missing, as the pack stores them. */
    indexes: () => ({ table: table.indexes(), lookups: lookups.all() }),
    list(input: EngineRequests['generators.list']): EngineAnswer<'generators.list'> {
      const query = answerable(readGeneratorList(input));
      if (!query.ok) return query;
      if (lacksFacts(query.value.filterFields)) return missingDetails();
      return listPage(table, records, query.value, select);
    },
    aggregate(input: EngineRequests['generators.aggregate']): EngineAnswer<'generators.aggregate'> {
      const request = answerable(readRequest(GeneratorAggregateRequest, input));
      if (!request.ok) return request;
      if (!columns) {
        return fail(
          'offline',
          'This offline pack was made without each generator’s totals; refresh it to answer generator totals offline.',
        );
      }
      const { filterFields, searchKey } = request.value;
      if (lacksFacts(filterFields)) return missingDetails();
      const { positions } = select(filterFields, searchKey);
      return { ok: true, data: reduceTotals(GENERATOR_QUERY.totals, columns, positions) };
    },
    lookup(input: EngineRequests['generators.lookup']): EngineAnswer<'generators.lookup'> {
      const query = answerable(readRequest(GeneratorLookupQuery, input));
      if (!query.ok) return query;
      const { field, search, page } = query.value;
      if (withoutDetail > 0 && FACT_LOOKUPS.includes(field)) return missingDetails();
      const values = lookups.page(field, search, page);
      if (field !== 'status') return { ok: true, data: values };
      // Grouped as the server groups them: by the registration statuses of the generators it holds.
      registrations ??= new Set(records.map((record) => String(record.registration_status)));
      return { ok: true, data: withStatusGroups(values, registrations) };
    },
  };
}
