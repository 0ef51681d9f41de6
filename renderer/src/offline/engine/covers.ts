/**
 * Is a request inside a pack's scope: does the pack made from `packQuery` hold every row the server would
 * read to answer it, so that the engine's answer is the server's? (docs/offline.md "What a pack answers".)
 *
 * - A list or totals request of the pack's own list is covered when it refines the pack's query: every
 *   member the pack restricts is restricted by the request to some of the same values, every date bound of
 *   the pack is met by a bound of the request as tight or tighter, and its search holds the pack's search
 *   (the same key, or one that contains it after case folding: a field holding the longer key holds the
 *   shorter one) or the pack has none.
 * - Generator totals are covered like the list (they sum each generator's own totals, which a generators
 *   pack downloads with its details); a pack made without them refuses them when asked (generator-answers.ts).
 * - A lookup lists values over the whole dataset, so only a pack of the whole list (no filter, no search)
 *   covers its list's lookups.
 * - A detail may be in any pack whose query could hold that generator: a generators pack whose `ids` do not
 *   name it does not; otherwise the pack is asked and answers `not-found` when it does not hold it.
 */
import {
  GENERATOR_QUERY,
  MANIFEST_QUERY,
  boundMembers,
  valuesMembers,
  type Member,
} from '../../../../shared/query/definition.ts';
import { foldCase } from '../../../../shared/query/search.ts';
import { compareCodePoints } from '../../../../shared/query/sort.ts';
import type { EngineRequestName, EngineRequests, PackQuery } from './contract.ts';

type Members = Readonly<Record<string, unknown>>;

/** A list member's values; a date bound or an absent member lists none. */
function valuesOf(members: Members, member: string): readonly string[] {
  const values = members[member];
  return Array.isArray(values) ? (values as string[]) : [];
}

/** A bound member's value; absent, empty or not text is no bound. */
function boundOf(members: Members, member: string): string | undefined {
  const value = members[member];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Every member the pack restricts is restricted by the request at least as tightly: to a subset of the
 * pack's values, or by a bound on the same side at or inside the pack's (bounds compare in text order,
 * which is date order for YYYY-MM-DD).
 */
function membersRefine(
  definition: Readonly<Record<string, Member<string, string>>>,
  pack: Members,
  request: Members,
): boolean {
  const lists = valuesMembers(definition).every(([member]) => {
    const allowed = valuesOf(pack, member);
    if (allowed.length === 0) return true;
    const asked = valuesOf(request, member);
    return asked.length > 0 && asked.every((value) => allowed.includes(value));
  });
  return (
    lists &&
    boundMembers(definition).every(([member, { match }]) => {
      const packBound = boundOf(pack, member);
      if (packBound === undefined) return true;
      const asked = boundOf(request, member);
      if (asked === undefined) return false;
      const side = compareCodePoints(asked, packBound);
      return match === 'from' ? side >= 0 : side <= 0;
    })
  );
}

function searchRefines(packKey: string, requestKey: string): boolean {
  return packKey === '' || foldCase(requestKey).includes(foldCase(packKey));
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
  const definition = packQuery.list === 'generators' ? GENERATOR_QUERY : MANIFEST_QUERY;
  return membersRefine(definition.members, packQuery.filterFields, filters);
}
