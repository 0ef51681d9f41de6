/**
 * Reads an offline pack through the tracker API over HTTP, as the app's pack download does: every page of
 * the pack's query with every field, then the detail of every generator the rows name (and, for a generators
 * pack, each generator's own totals), each answer parsed by shared/api's schemas as main parses it. Used by the offline engine's tests and its benchmark.
 */
import {
  GeneratorDetail,
  GeneratorList,
  GeneratorTotals,
  ManifestList,
  LIMITS,
  type GeneratorRecord,
  type ManifestRecord,
} from '../../shared/api/index.ts';
import type { GeneratorOwnTotals, PackQuery, PackRows } from '../../renderer/src/offline/engine/contract.ts';
import { send } from './tracker-server.ts';

export interface ApiSession {
  baseUrl: string;
  token: string;
}

async function call(
  session: ApiSession,
  path: string,
  init: { method?: string; body?: string } = {},
): Promise<unknown> {
  const { status, text } = await send(session.baseUrl, `/api/tracker/${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  if (status < 200 || status >= 300) throw new Error(`${path} answered ${status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

/** Every row of a list matching the filters and search, in the key order (stable while paging). */
async function allRows(
  session: ApiSession,
  list: 'generators' | 'manifests',
  filterFields: object,
  searchKey: string,
): Promise<unknown[]> {
  const rows: unknown[] = [];
  const pageSize = LIMITS.pageSizeMax;
  const sort = list === 'generators' ? 'epa_handler_id asc' : 'manifest_tracking_number asc';
  for (let page = 0; ; page += 1) {
    const body = await call(session, `${list}/`, {
      method: 'POST',
      body: JSON.stringify({ pageInfo: { page, pageSize, sort }, filterFields, searchKey }),
    });
    const { content, totalElements } = (list === 'generators' ? GeneratorList : ManifestList).parse(body);
    rows.push(...content);
    if (content.length < pageSize || rows.length >= totalElements) return rows;
  }
}

async function details(session: ApiSession, ids: readonly string[]): Promise<GeneratorDetail[]> {
  const result: GeneratorDetail[] = [];
  // A few at a time: enough to overlap the round trips, few enough for a shared machine.
  for (let from = 0; from < ids.length; from += 8) {
    const chunk = ids.slice(from, from + 8);
    const bodies = await Promise.all(
      chunk.map((id) => call(session, `generators/details/?handler_id=${encodeURIComponent(id)}`)),
    );
    result.push(...bodies.map((body) => GeneratorDetail.parse(body)));
  }
  return result;
}

/** Each generator's own totals: its aggregated_data with ids=[it]. */
async function ownTotals(session: ApiSession, ids: readonly string[]): Promise<GeneratorOwnTotals[]> {
  const result: GeneratorOwnTotals[] = [];
  for (let from = 0; from < ids.length; from += 8) {
    const chunk = ids.slice(from, from + 8);
    const bodies = await Promise.all(
      chunk.map((id) =>
        call(session, 'generators/aggregated_data/', {
          method: 'POST',
          body: JSON.stringify({ filterFields: { ids: [id] }, searchKey: '' }),
        }),
      ),
    );
    result.push(
      ...bodies.map((body, index) => ({ ...GeneratorTotals.parse(body), epa_handler_id: chunk[index]! })),
    );
  }
  return result;
}

/** The rows of the pack made from `query`. */
export async function readPack(session: ApiSession, query: PackQuery): Promise<PackRows> {
  if (query.list === 'generators') {
    const generators = (await allRows(
      session,
      'generators',
      query.filterFields,
      query.searchKey,
    )) as GeneratorRecord[];
    const ids = generators.map((row) => row.epa_handler_id ?? '');
    return {
      list: 'generators',
      generators,
      details: await details(session, ids),
      manifests: [],
      totals: await ownTotals(session, ids),
    };
  }
  const manifests = (await allRows(
    session,
    'manifests',
    query.filterFields,
    query.searchKey,
  )) as ManifestRecord[];
  const ids = [...new Set(manifests.map((row) => row.generator_epa_id ?? ''))];
  const generators: GeneratorRecord[] = [];
  for (let from = 0; from < ids.length; from += LIMITS.filterValuesMax) {
    const chunk = ids.slice(from, from + LIMITS.filterValuesMax);
    generators.push(...((await allRows(session, 'generators', { ids: chunk }, '')) as GeneratorRecord[]));
  }
  return { list: 'manifests', generators, details: await details(session, ids), manifests };
}
