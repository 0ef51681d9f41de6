/**
 * Is a request inside a pack's scope: does the pack made from `packQuery` hold every row the server would
 * read to answer it, so that the engine's answer is the server's? (docs/offline.md "What a pack answers".)
 *
 * - A list or totals request of the pack's own list is covered when it refines the pack's query: every
 *   member the pack restricts is restricted by the request to some of the same values, every date bound of
 *   the pack is met by a bound of the request as tight or tighter, and its search holds the pack's search
 *   (the same key, or one that contains it after case folding: a field holding the longer key holds the
 *   shorter one) or the pack has none.
 * - Generator totals are never covered: they count each generator's manifests, which the API's answers do
 *   not carry (open-pack.ts).
 * - A lookup lists values over the whole dataset, so only a pack of the whole list (no filter, no search)
 *   covers its list's lookups.
 * - A detail may be in any pack whose query could hold that generator: a generators pack whose `ids` do not
 *   name it does not; otherwise the pack is asked and answers `not-found` when it does not hold it.
 */
import { GENERATOR_FILTER_MEMBERS, type ManifestFilterFields } from '../../../../shared/api/index.ts';
import { MANIFEST_LIST_MEMBERS } from '../../../../shared/query/canonical.ts';
import { foldCase } from '../../../../shared/query/search.ts';
import type { EngineRequestName, EngineRequests, PackQuery } from './contract.ts';

type Members = Readonly<Record<string, unknown>>;

/** A list member's values; a date bound or an absent member lists none. */
function valuesOf(members: Members, member: string): readonly string[] {
  const values = members[member];
  return Array.isArray(values) ? (values as string[]) : [];
}

/** Every member the pack restricts is restricted by the request to a subset of the pack's values. */
function membersRefine(pack: Members, request: Members, members: readonly string[]): boolean {
  return members.every((member) => {
    const allowed = valuesOf(pack, member);
    if (allowed.length === 0) return true;
    const asked = valuesOf(request, member);
    return asked.length > 0 && asked.every((value) => allowed.includes(value));
  });
}

function searchRefines(packKey: string, requestKey: string): boolean {
  return packKey === '' || foldCase(requestKey).includes(foldCase(packKey));
}

/** Both date ranges of the request lie inside the pack's (bounds inclusive, YYYY-MM-DD compares as text). */
function datesRefine(pack: ManifestFilterFields, request: ManifestFilterFields): boolean {
  return (['shipped', 'received'] as const).every((range) => {
    const packStart = pack[`${range}_date_start`];
    const packEnd = pack[`${range}_date_end`];
    const start = request[`${range}_date_start`];
    const end = request[`${range}_date_end`];
    return (!packStart || (!!start && start >= packStart)) && (!packEnd || (!!end && end <= packEnd));
  });
}

function wholeList(packQuery: PackQuery): boolean {
  const members: Members = packQuery.filterFields;
  return (
    packQuery.searchKey === '' &&
    Object.entries(members).every(
      ([member, value]) =>
        valuesOf(members, member).length === 0 &&
        (value === undefined || value === '' || Array.isArray(value)),
    )
  );
}

/** True when the pack made from `packQuery` answers this request exactly. */
export function covers<Name extends EngineRequestName>(
  packQuery: PackQuery,
  name: Name,
  request: EngineRequests[Name],
): boolean {
  // A request of the wrong shape is covered like any other: the engine then refuses it as the server does.
  const query: { filterFields?: unknown; searchKey?: unknown; handler_id?: unknown } =
    typeof request === 'object' && request !== null ? (request as Members) : {};
  if (name === 'generators.detail') {
    if (packQuery.list === 'manifests') return true;
    const ids = packQuery.filterFields.ids ?? [];
    const id = query.handler_id;
    return ids.length === 0 || typeof id !== 'string' || ids.includes(id.trim());
  }
  const [list, method] = name.split('.') as [PackQuery['list'], string];
  if (list !== packQuery.list) return false;
  if (method === 'lookup') return wholeList(packQuery);
  const filters: Members =
    typeof query.filterFields === 'object' && query.filterFields !== null
      ? (query.filterFields as Members)
      : {};
  const searchKey = typeof query.searchKey === 'string' ? query.searchKey : '';
  if (!searchRefines(packQuery.searchKey, searchKey)) return false;
  if (packQuery.list === 'generators') {
    return membersRefine(packQuery.filterFields, filters, GENERATOR_FILTER_MEMBERS);
  }
  return (
    membersRefine(packQuery.filterFields, filters, MANIFEST_LIST_MEMBERS) &&
    datesRefine(packQuery.filterFields, filters)
  );
}
