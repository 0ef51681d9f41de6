/**
 * The canonical form of every tracker request and its key. Two requests that must get the same answer get
 * the same key: filters in another order, repeated values, empty members, an explicit default sort, every
 * field named in selectedFields, or `filters: "all="` change nothing. Main shares one network request
 * between identical in-flight requests by this key; the renderer's cache stores answers under it.
 *
 * Values are not trimmed or case-folded: filter matching is exact (docs/api.md "Query semantics"), so
 * "CA" and "ca" are different requests. searchKey is kept as sent for the same reason the server keeps it:
 * folding belongs to the matcher, not to the request.
 */
import { GENERATOR_FIELDS, type GeneratorField, type GeneratorFilterFields } from '../api/generators.ts';
import { MANIFEST_FIELDS, type ManifestField, type ManifestFilterFields } from '../api/manifests.ts';
import { GENERATOR_QUERY, MANIFEST_QUERY, boundMembers, valuesMembers, type Sort } from './definition.ts';
import { parseSelectedFields, parseSort } from './parse.ts';
import { compareCodePoints } from './sort.ts';

/** Generator members in the one order of the key: by name. */
const GENERATOR_MEMBERS = valuesMembers(GENERATOR_QUERY.members)
  .map(([member]) => member)
  .sort();
/** Manifest members in the definition's order: the lists, then the date bounds. */
const MANIFEST_LISTS = valuesMembers(MANIFEST_QUERY.members).map(([member]) => member);
const MANIFEST_BOUNDS = boundMembers(MANIFEST_QUERY.members).map(([member]) => member);

/** A list member's values, unique and in code-point order; undefined when it restricts nothing. */
function canonicalValues(values: readonly string[] | undefined): string[] | undefined {
  if (!values || values.length === 0) return undefined;
  return [...new Set(values)].sort(compareCodePoints);
}

/** Generator filters with members in one order, empty members dropped, values unique and sorted. */
export function canonicalGeneratorFilters(filters: GeneratorFilterFields | undefined): GeneratorFilterFields {
  const canonical: GeneratorFilterFields = {};
  for (const member of GENERATOR_MEMBERS) {
    const values = canonicalValues(filters?.[member]);
    if (values) canonical[member] = values;
  }
  return canonical;
}

/** Manifest filters likewise; an empty date bound is no bound. */
export function canonicalManifestFilters(filters: ManifestFilterFields | undefined): ManifestFilterFields {
  const canonical: ManifestFilterFields = {};
  for (const member of MANIFEST_LISTS) {
    const values = canonicalValues(filters?.[member]);
    if (values) canonical[member] = values;
  }
  for (const member of MANIFEST_BOUNDS) {
    const date = filters?.[member];
    if (date) canonical[member] = date;
  }
  return canonical;
}

export interface CanonicalPage {
  page: number;
  pageSize: number;
  /** "<field> asc|desc", absent for the list's default order. */
  sort?: string;
  /** Comma-separated in the row's field order, absent for every field. */
  selectedFields?: string;
}

interface PageInput {
  page: number;
  pageSize: number;
  sort?: string | undefined;
  selectedFields?: string | undefined;
  filters?: string | undefined;
}

function canonicalPage<Field extends string>(
  pageInfo: PageInput,
  sortable: readonly Field[],
  defaultSort: Sort<Field>,
  fields: readonly Field[],
): CanonicalPage {
  const canonical: CanonicalPage = { page: pageInfo.page, pageSize: pageInfo.pageSize };
  const sort = parseSort(pageInfo.sort, sortable, defaultSort);
  // An unreadable sort is kept as sent: the server answers it with a 400, and so must every copy of it.
  if (!sort.ok) canonical.sort = pageInfo.sort;
  else if (sort.value.field !== defaultSort.field || sort.value.direction !== defaultSort.direction) {
    canonical.sort = `${sort.value.field} ${sort.value.direction}`;
  }
  const selected = parseSelectedFields(pageInfo.selectedFields, fields);
  if (!selected.ok) canonical.selectedFields = pageInfo.selectedFields;
  else if (selected.value.length < fields.length) canonical.selectedFields = selected.value.join(',');
  return canonical;
}

export function canonicalGeneratorPage(pageInfo: PageInput): CanonicalPage {
  return canonicalPage<GeneratorField>(
    pageInfo,
    GENERATOR_QUERY.sortFields,
    GENERATOR_QUERY.defaultSort,
    GENERATOR_FIELDS,
  );
}

export function canonicalManifestPage(pageInfo: PageInput): CanonicalPage {
  return canonicalPage<ManifestField>(
    pageInfo,
    MANIFEST_QUERY.sortFields,
    MANIFEST_QUERY.defaultSort,
    MANIFEST_FIELDS,
  );
}

interface QueryInput<Filters> {
  filterFields?: Filters | undefined;
  searchKey?: string | undefined;
}
interface LookupInput {
  field: string;
  page: number;
  search?: string | undefined;
}

/** Every request the renderer can make, by the contract's `group.method` name. */
export interface TrackerRequests {
  'generators.aggregate': QueryInput<GeneratorFilterFields>;
  'generators.list': QueryInput<GeneratorFilterFields> & { pageInfo: PageInput };
  'generators.lookup': LookupInput;
  'generators.detail': { handler_id: string };
  'manifests.aggregate': QueryInput<ManifestFilterFields>;
  'manifests.list': QueryInput<ManifestFilterFields> & { pageInfo: PageInput };
  'manifests.lookup': LookupInput;
}
export type TrackerRequestName = keyof TrackerRequests;

const canonicalLookup = (input: LookupInput) => ({
  field: input.field,
  page: input.page,
  search: input.search ?? '',
});

const canonicalForms: { [Name in TrackerRequestName]: (input: TrackerRequests[Name]) => object } = {
  'generators.aggregate': (input) => ({
    filterFields: canonicalGeneratorFilters(input.filterFields),
    searchKey: input.searchKey ?? '',
  }),
  'generators.list': (input) => ({
    pageInfo: canonicalGeneratorPage(input.pageInfo),
    filterFields: canonicalGeneratorFilters(input.filterFields),
    searchKey: input.searchKey ?? '',
  }),
  'generators.lookup': canonicalLookup,
  'generators.detail': (input) => ({ handler_id: input.handler_id }),
  'manifests.aggregate': (input) => ({
    filterFields: canonicalManifestFilters(input.filterFields),
    searchKey: input.searchKey ?? '',
  }),
  'manifests.list': (input) => ({
    pageInfo: canonicalManifestPage(input.pageInfo),
    filterFields: canonicalManifestFilters(input.filterFields),
    searchKey: input.searchKey ?? '',
  }),
  'manifests.lookup': canonicalLookup,
};

/** The canonical form of a request: members in one order, nothing that does not change the answer. */
export function canonicalRequest<Name extends TrackerRequestName>(
  name: Name,
  input: TrackerRequests[Name],
): object {
  return canonicalForms[name](input);
}

/** The key of a request: equal for exactly the requests that must get the same answer. */
export function requestKey<Name extends TrackerRequestName>(
  name: Name,
  input: TrackerRequests[Name],
): string {
  return `${name} ${JSON.stringify(canonicalRequest(name, input))}`;
}
