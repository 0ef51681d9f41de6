/**
 * The lookups this reference server adds to the spec (shared/api GENERATOR_LOOKUP_EXTENSIONS: shipped years
 * and statuses) are missing on a server that implements only the spec, which refuses them as unknown fields
 * (400, or a 404 for a path it lacks). A refused one is remembered for the server, so its box is not asked
 * again; its values are found another way where there is one, and otherwise the box says why it is empty.
 */
import { create } from 'zustand';
import { GENERATOR_LOOKUP_EXTENSIONS, LIMITS, type LookupResult } from '../../../shared/api/index.ts';
import type { IpcError, Result } from '../../../shared/ipc/contract.ts';
import { foldCase } from '../../../shared/query/search.ts';
import { useSession } from './session.ts';
import { manifestPage } from './tracker-data.ts';

type ExtensionsState = {
  /** Extension lookup fields each server refused, by server address. */
  refused: Readonly<Record<string, readonly string[]>>;
};

export const useLookupExtensions = create<ExtensionsState>()(() => ({ refused: {} }));

const server = () => useSession.getState().status?.baseUrl ?? '';

/** A lookup field this server adds to the spec, which another server may not have. */
export function isExtensionField(field: string): boolean {
  return (GENERATOR_LOOKUP_EXTENSIONS as readonly string[]).includes(field);
}

/** The answer of a server that does not know the field, rather than one that failed to answer. */
export function refusesField(error: IpcError): boolean {
  return error.kind === 'bad-request' || error.kind === 'not-found';
}

export function fieldRefused(field: string): void {
  const { refused } = useLookupExtensions.getState();
  const known = refused[server()] ?? [];
  if (!known.includes(field))
    useLookupExtensions.setState({ refused: { ...refused, [server()]: [...known, field] } });
}

/** Whether the current server refused this lookup field. */
export function useFieldRefused(field: string): boolean {
  const baseUrl = useSession((state) => state.status?.baseUrl ?? '');
  return useLookupExtensions((state) => state.refused[baseUrl]?.includes(field) ?? false);
}

/** The year of a manifest's shipped_date (YYYY-MM-DD), if it has one. */
function yearOf(answer: Awaited<ReturnType<typeof manifestPage>>): Result<number | undefined> {
  if (!answer.ok) return answer;
  const year = Number(answer.data.content[0]?.shipped_date?.slice(0, 4));
  return { ok: true, data: Number.isInteger(year) && year > 0 ? year : undefined };
}

/**
 * The shipped years a server without the shipped_year lookup can still tell: every year from its first
 * shipment to its last, read from the manifests list sorted by shipped date each way (two one-row pages).
 * A year between them may hold no shipment; picking it then finds no generator. Answered as a lookup page
 * (spec 2.7): searched as a lookup is, 50 a page.
 */
export async function shippedYearsFromManifests(
  search: string,
  page: number,
  signal: AbortSignal,
): Promise<Result<LookupResult>> {
  const end = (direction: 'asc' | 'desc') =>
    manifestPage(
      { filterFields: {}, searchKey: '' },
      { page: 0, pageSize: 1, sort: `shipped_date ${direction}`, selectedFields: 'shipped_date' },
      signal,
    ).then(yearOf);
  const [first, last] = await Promise.all([end('asc'), end('desc')]);
  if (!first.ok) return first;
  if (!last.ok) return last;
  const years: string[] = [];
  if (first.data !== undefined && last.data !== undefined) {
    for (let year = first.data; year <= last.data; year += 1) years.push(String(year));
  }
  const matching = years.filter((year) => foldCase(year).includes(foldCase(search)));
  const start = (page - 1) * LIMITS.lookupPageSize;
  return {
    ok: true,
    data: {
      results: matching
        .slice(start, start + LIMITS.lookupPageSize)
        .map((year) => ({ value: year, text: year })),
      pagination: { more: matching.length > start + LIMITS.lookupPageSize },
    },
  };
}
