/**
 * The offline query engine: `openPack` indexes a pack's rows once, and the pack it returns answers the
 * IPC contract's data requests over them as the server would (docs/api.md "Query semantics", run through
 * shared/query): the same validation, filters, search, order, paging, selectedFields, totals and lookups.
 *
 * Pure TypeScript over shared/: no DOM, no storage, so it runs in a Web Worker (engine.worker.ts) and in
 * plain Node under the differential test. What it cannot answer exactly it refuses with an `offline` error
 * rather than guessing (docs/offline.md); covers.ts says beforehand which requests those are.
 */
import type { z } from 'zod';
import {
  GENERATOR_FIELDS,
  GENERATOR_FILTER_MEMBERS,
  GeneratorAggregateRequest,
  GeneratorDetailQuery,
  GeneratorListRequest,
  GeneratorLookupQuery,
  MANIFEST_FIELDS,
  ManifestAggregateRequest,
  ManifestListRequest,
  ManifestLookupQuery,
  type GeneratorDetail,
  type GeneratorFilterFields,
  type GeneratorLookupField,
  type GeneratorRecord,
  type ManifestFilterFields,
  type ManifestLookupField,
  type ManifestRecord,
} from '../../../../shared/api/index.ts';
import type { IpcError } from '../../../../shared/ipc/contract.ts';
import { MANIFEST_LIST_MEMBERS, requestKey } from '../../../../shared/query/canonical.ts';
import type { GeneratorFacts } from '../../../../shared/query/filters.ts';
import {
  DEFAULT_GENERATOR_SORT,
  DEFAULT_MANIFEST_SORT,
  GENERATOR_SEARCH_FIELDS,
  GENERATOR_SORT_FIELDS,
  MANIFEST_SEARCH_FIELDS,
  MANIFEST_SORT_FIELDS,
  parseSelectedFields,
  parseSort,
  type Parsed,
} from '../../../../shared/query/index.ts';
import { parseSearch } from '../../../../shared/query/search.ts';
import { compareCodePoints, GENERATOR_KEY, MANIFEST_KEY } from '../../../../shared/query/sort.ts';
import type {
  EngineAnswer,
  EngineOutputs,
  EngineRequestName,
  EngineRequests,
  PackList,
  PackRows,
} from './contract.ts';
import { generatorFactsOf, handlingCodeOf, lineCodes } from './pack-facts.ts';
import { PackLookups, plainEntries } from './pack-lookups.ts';
import { PackTable } from './pack-table.ts';

/** A pack opened for queries. */
export interface OpenedPack {
  readonly list: PackList;
  answer<Name extends EngineRequestName>(name: Name, input: EngineRequests[Name]): EngineAnswer<Name>;
}

type Generator = GeneratorRecord & Readonly<Record<string, unknown>>;
type Manifest = ManifestRecord & Readonly<Record<string, unknown>>;

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

const MANIFEST_ROW_MEMBERS = {
  generator_names: 'generator_name',
  transporter_names: 'transporter',
  designated_facility_names: 'designated_facility_name',
} as const satisfies Partial<Record<keyof ManifestFilterFields, keyof ManifestRecord>>;

const fail = (kind: IpcError['kind'], message: string): { ok: false; error: IpcError } => ({
  ok: false,
  error: { kind, message },
});

/** A schema's reading of an input, or the first problem as the server words it ("path: message"). */
function read<Schema extends z.ZodType>(schema: Schema, input: unknown): Parsed<z.output<Schema>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue?.path.join('.') ?? '';
  return { ok: false, message: `${path === '' ? '' : `${path}: `}${issue?.message ?? 'invalid request'}` };
}

/** Reads every parameter; the first that fails is the answer. */
function all<T extends readonly Parsed<unknown>[]>(
  ...parsed: T
):
  | { ok: true; values: { [K in keyof T]: T[K] extends Parsed<infer V> ? V : never } }
  | { ok: false; message: string } {
  for (const one of parsed) if (!one.ok) return one;
  return {
    ok: true,
    values: parsed.map((one) => (one as { value: unknown }).value) as {
      [K in keyof T]: T[K] extends Parsed<infer V> ? V : never;
    },
  };
}

/** Neumaier's compensated sum, as SQLite's sum() adds, then round(·, 4) as the server's totals round. */
function tons(values: Iterable<number>): number {
  let sum = 0;
  let compensation = 0;
  for (const value of values) {
    const total = sum + value;
    compensation += Math.abs(sum) >= Math.abs(value) ? sum - total + value : value - total + sum;
    sum = total;
  }
  return Math.round((sum + compensation) * 10_000) / 10_000;
}

function requireFields(
  rows: readonly Readonly<Record<string, unknown>>[],
  fields: readonly string[],
  what: string,
) {
  rows.forEach((row, position) => {
    for (const field of fields) {
      if (!(field in row)) {
        throw new Error(
          `${what} ${position + 1} of the pack lacks "${field}": a pack holds every field of its rows`,
        );
      }
    }
  });
}

function pick(row: Readonly<Record<string, unknown>>, fields: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) picked[field] = row[field];
  return picked;
}

/** Builds the in-memory indexes over a pack's rows; the pack then answers requests. */
export function openPack(rows: PackRows): OpenedPack {
  if (rows.list !== 'generators' && rows.list !== 'manifests') {
    throw new Error(`a pack holds "generators" or "manifests", not "${String(rows.list)}"`);
  }
  const details = new Map(rows.details.map((detail) => [detail.generator_data.epa_handler_id, detail]));
  const generators = rows.list === 'generators' ? generatorAnswers(rows.generators, details) : undefined;
  const manifests = rows.list === 'manifests' ? manifestAnswers(rows.manifests) : undefined;
  const otherList = (name: string) =>
    fail(
      'offline',
      `This offline pack holds ${rows.list}; it cannot answer ${name.split('.')[0] ?? name} requests.`,
    );

  const answers: { [Name in EngineRequestName]: (input: EngineRequests[Name]) => EngineAnswer<Name> } = {
    'generators.list': (input) => generators?.list(input) ?? otherList('generators.list'),
    'generators.aggregate': (input) => generators?.aggregate(input) ?? otherList('generators.aggregate'),
    'generators.lookup': (input) => generators?.lookup(input) ?? otherList('generators.lookup'),
    'generators.detail': (input) => detailAnswer(details, input),
    'manifests.list': (input) => manifests?.list(input) ?? otherList('manifests.list'),
    'manifests.aggregate': (input) => manifests?.aggregate(input) ?? otherList('manifests.aggregate'),
    'manifests.lookup': (input) => manifests?.lookup(input) ?? otherList('manifests.lookup'),
  };
  return {
    list: rows.list,
    answer: (name, input) => {
      const answer = answers[name] as
        ((input: EngineRequests[typeof name]) => EngineAnswer<typeof name>) | undefined;
      if (!answer)
        return fail('bad-request', `the offline engine answers no request named "${String(name)}"`);
      return answer(input);
    },
  };
}

function detailAnswer(
  details: ReadonlyMap<string, GeneratorDetail>,
  input: EngineRequests['generators.detail'],
): EngineAnswer<'generators.detail'> {
  const query = read(GeneratorDetailQuery, input);
  if (!query.ok) return fail('bad-request', query.message);
  const detail = details.get(query.value.handler_id);
  if (!detail)
    return fail(
      'not-found',
      `This offline pack holds no generator with EPA handler id "${query.value.handler_id}".`,
    );
  return { ok: true, data: detail };
}

function generatorAnswers(records: readonly Generator[], details: ReadonlyMap<string, GeneratorDetail>) {
  requireFields(records, GENERATOR_FIELDS, 'generator');
  const facts: (GeneratorFacts | undefined)[] = records.map((record) => {
    const detail = details.get(record.epa_handler_id ?? '');
    return detail ? generatorFactsOf(detail) : undefined;
  });
  const withoutDetail = facts.filter((fact) => fact === undefined).length;
  const members: Record<string, (row: Generator, position: number) => Iterable<string>> = {};
  for (const [member, field] of Object.entries(GENERATOR_ROW_MEMBERS))
    members[member] = (row) => [String(row[field])];
  for (const member of FACT_MEMBERS) members[member] = (_row, position) => facts[position]?.[member] ?? [];
  const table = new PackTable<Generator>(records, {
    keyField: GENERATOR_KEY,
    defaultSort: DEFAULT_GENERATOR_SORT.field,
    searchTexts: (row) => GENERATOR_SEARCH_FIELDS.map((field) => String(row[field])),
    members,
  });
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
  const lookups = new PackLookups<GeneratorLookupField>({
    generator_city: () => plainEntries(table.valuesOf('cities')),
    naics: naicsText,
    epa_handler_id: () => plainEntries(table.valuesOf('ids')),
    generator_state: () => plainEntries(table.valuesOf('states')),
    epa_waste_code: () => plainEntries(table.valuesOf('wasteCodes')),
    generator_name: () => plainEntries(table.valuesOf('names')),
    mmc: () => plainEntries(table.valuesOf('handlingCodes')),
    shipped_year: () => plainEntries(table.valuesOf('shippedYears')),
    status: () => plainEntries(table.valuesOf('statuses')),
  });
  const lacksFacts = (filters: GeneratorFilterFields) =>
    withoutDetail > 0 && FACT_MEMBERS.some((member) => (filters[member]?.length ?? 0) > 0);
  const missingDetails = () =>
    fail(
      'offline',
      `This offline pack lacks the details of ${withoutDetail} generators, which this filter needs.`,
    );
  const select = (filterFields: GeneratorFilterFields, searchKey: string) =>
    table.select(
      requestKey('generators.aggregate', { filterFields, searchKey }),
      GENERATOR_FILTER_MEMBERS.map((member) => [member, filterFields[member] ?? []] as const),
      [],
      searchKey,
    );

  return {
    list(input: EngineRequests['generators.list']): EngineAnswer<'generators.list'> {
      const request = read(GeneratorListRequest, input);
      if (!request.ok) return fail('bad-request', request.message);
      const { pageInfo, filterFields } = request.value;
      const parsed = all(
        parseSearch(request.value.searchKey, 'searchKey'),
        parseSort(pageInfo.sort, GENERATOR_SORT_FIELDS, DEFAULT_GENERATOR_SORT),
        parseSelectedFields(pageInfo.selectedFields, GENERATOR_FIELDS),
      );
      if (!parsed.ok) return fail('bad-request', parsed.message);
      const [searchKey, sort, fields] = parsed.values;
      if (lacksFacts(filterFields)) return missingDetails();
      const selection = select(filterFields, searchKey);
      const positions = table.page(selection, sort, pageInfo.page, pageInfo.pageSize);
      return {
        ok: true,
        data: {
          totalElements: selection.positions.length,
          content: positions.map((position) => pick(records[position] as Generator, fields)),
        },
      };
    },
    aggregate(input: EngineRequests['generators.aggregate']): EngineAnswer<'generators.aggregate'> {
      const request = read(GeneratorAggregateRequest, input);
      if (!request.ok) return fail('bad-request', request.message);
      const search = parseSearch(request.value.searchKey, 'searchKey');
      if (!search.ok) return fail('bad-request', search.message);
      // shipped_count sums each generator's number of manifests, which no answer of the API carries
      // (docs/offline.md); the other three boxes could be summed from the details, but a box set with one
      // wrong number is worse than the saved one.
      return fail(
        'offline',
        'Generator totals are not answered from an offline pack: the number of manifests per generator is not in it.',
      );
    },
    lookup(input: EngineRequests['generators.lookup']): EngineAnswer<'generators.lookup'> {
      const query = read(GeneratorLookupQuery, input);
      if (!query.ok) return fail('bad-request', query.message);
      const search = parseSearch(query.value.search, 'search');
      if (!search.ok) return fail('bad-request', search.message);
      if (withoutDetail > 0 && FACT_LOOKUPS.includes(query.value.field)) return missingDetails();
      return { ok: true, data: lookups.page(query.value.field, search.value, query.value.page) };
    },
  };
}

function manifestAnswers(records: readonly Manifest[]) {
  requireFields(records, MANIFEST_FIELDS, 'manifest');
  // The members over waste lines list a manifest under each code its lines carry (ManifestFacts).
  const members: Record<string, (row: Manifest, position: number) => Iterable<string>> = {
    dot_id_nos: (row) => lineCodes(row, (line) => line.usdot_id_number),
    container_types: (row) => lineCodes(row, (line) => line.container_type_code),
    handling_codes: (row) => lineCodes(row, (line) => handlingCodeOf(line.mmc_and_desc)),
  };
  for (const [member, field] of Object.entries(MANIFEST_ROW_MEMBERS))
    members[member] = (row) => [String(row[field])];
  const table = new PackTable<Manifest>(records, {
    keyField: MANIFEST_KEY,
    defaultSort: DEFAULT_MANIFEST_SORT.field,
    searchTexts: (row) => MANIFEST_SEARCH_FIELDS.map((field) => String(row[field])),
    members,
  });
  const lookups = new PackLookups<ManifestLookupField>({
    manifest_number: () => plainEntries(records.map((row) => String(row.manifest_tracking_number))),
    generator_name: () => plainEntries(table.valuesOf('generator_names')),
    transporter_name: () => plainEntries(table.valuesOf('transporter_names')),
    designated_facility_name: () => plainEntries(table.valuesOf('designated_facility_names')),
    dot_id_no: () => plainEntries(table.valuesOf('dot_id_nos')),
    container_type: () => plainEntries(table.valuesOf('container_types')),
    handling_code: () => plainEntries(table.valuesOf('handling_codes')),
  });
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
    list(input: EngineRequests['manifests.list']): EngineAnswer<'manifests.list'> {
      const request = read(ManifestListRequest, input);
      if (!request.ok) return fail('bad-request', request.message);
      const { pageInfo, filterFields } = request.value;
      const parsed = all(
        parseSearch(request.value.searchKey, 'searchKey'),
        parseSort(pageInfo.sort, MANIFEST_SORT_FIELDS, DEFAULT_MANIFEST_SORT),
        parseSelectedFields(pageInfo.selectedFields, MANIFEST_FIELDS),
      );
      if (!parsed.ok) return fail('bad-request', parsed.message);
      const [searchKey, sort, fields] = parsed.values;
      const selection = select(filterFields, searchKey);
      const positions = table.page(selection, sort, pageInfo.page, pageInfo.pageSize);
      return {
        ok: true,
        data: {
          totalElements: selection.positions.length,
          content: positions.map((position) => pick(records[position] as Manifest, fields)),
        },
      };
    },
    aggregate(input: EngineRequests['manifests.aggregate']): EngineAnswer<'manifests.aggregate'> {
      const request = read(ManifestAggregateRequest, input);
      if (!request.ok) return fail('bad-request', request.message);
      const search = parseSearch(request.value.searchKey, 'searchKey');
      if (!search.ok) return fail('bad-request', search.message);
      const selection = select(request.value.filterFields, search.value);
      const chosen = Array.from(selection.positions, (position) => records[position] as Manifest);
      const total: EngineOutputs['manifests.aggregate'] = {
        total_waste: tons(chosen.map((row) => Number(row.total_waste_quantity_tons))),
        shipped_count: chosen.length,
        container_count: 0,
        waste_streams: 0,
      };
      for (const row of chosen) {
        total.container_count += Number(row.container_count);
        total.waste_streams += Number(row.waste_stream_count);
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
