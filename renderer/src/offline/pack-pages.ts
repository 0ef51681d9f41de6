/**
 * What a pack's download asks the data pipeline for, page by page (pack-download.ts stores them): the list's
 * rows sorted by its public unique key, generators in batches of ids, and generators' details in batches of
 * one IPC reply each. A page that cannot be had stops the download with a DownloadStop that says whether its
 * reason passes by itself (the server out of reach: the download resumes when it answers again).
 */
import { LIMITS } from '../../../shared/api/index.ts';
import { outOfReach, type IpcError } from '../../../shared/ipc/contract.ts';
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../../../shared/query/definition.ts';
import { request, requestGeneratorDetails } from '../data/pipeline.ts';
import { CONNECTION_LOST } from './database.ts';
import type { GeneratorOwnTotals, PackQuery } from './engine-seam.ts';

/** Sorting by the public unique key keeps every page's rows in place while the pack downloads. */
const KEY_SORT = {
  generators: `${GENERATOR_QUERY.key} asc`,
  manifests: `${MANIFEST_QUERY.key} asc`,
} as const;

export const STOPPED = {
  connection: CONNECTION_LOST,
  storageFull:
    'Storage is full: the rows downloaded so far are kept. Free some space (delete a pack or clear the cache) and resume.',
  failed: (message: string) => `The download stopped: ${message}`,
} as const;

/**
 * Why a download stopped short; also the abort reason of a caller that stops it for a reason that passes by
 * itself (the app went offline), so the pack is left `interrupted` with the reason, to resume by itself.
 */
export class DownloadStop extends Error {
  readonly reason: string;
  readonly storageFull: boolean;
  readonly passes: boolean;

  constructor(reason: string, options: { storageFull?: boolean; passes?: boolean } = {}) {
    super(reason);
    this.reason = reason;
    this.storageFull = options.storageFull ?? false;
    this.passes = options.passes ?? false;
  }
}

function stopFor(error: IpcError): DownloadStop {
  return outOfReach(error)
    ? new DownloadStop(STOPPED.connection, { passes: true })
    : new DownloadStop(STOPPED.failed(error.message));
}

export interface Page {
  rows: unknown[];
  /** Rows the part holds in all, as the first page tells. */
  total: number;
  /** A generators pack's details page: the own totals of its generators. */
  totals?: GeneratorOwnTotals[];
}

export function listPage(query: PackQuery, page: number, signal: AbortSignal): Promise<Page> {
  // The server's largest page (docs/api.md, Limits).
  const pageInfo = { page, pageSize: LIMITS.pageSizeMax, sort: KEY_SORT[query.list] };
  const answer =
    query.list === 'generators'
      ? request('generators.list', { ...query, pageInfo }, { signal, cache: false })
      : request('manifests.list', { ...query, pageInfo }, { signal, cache: false });
  return answer.then((result) => {
    if (!result.ok) throw stopFor(result.error);
    return { rows: result.data.content, total: result.data.totalElements };
  });
}

export async function generatorBatch(ids: string[], signal: AbortSignal): Promise<Page> {
  const pageInfo = { page: 0, pageSize: ids.length, sort: KEY_SORT.generators };
  const result = await request(
    'generators.list',
    { pageInfo, filterFields: { ids }, searchKey: '' },
    { signal, cache: false },
  );
  if (!result.ok) throw stopFor(result.error);
  return { rows: result.data.content, total: result.data.totalElements };
}

export async function detailBatch(ids: string[], totals: boolean, signal: AbortSignal): Promise<Page> {
  const result = await requestGeneratorDetails({ ids, totals }, signal);
  if (!result.ok) throw stopFor(result.error);
  // A generator the server no longer knows (result.data.missing) has no detail to take along; the rest of
  // the pack stands.
  const { found } = result.data;
  return {
    rows: found.map((entry) => entry.detail),
    total: ids.length,
    ...(totals
      ? {
          totals: found.flatMap((entry) =>
            entry.totals
              ? [{ ...entry.totals, epa_handler_id: entry.detail.generator_data.epa_handler_id }]
              : [],
          ),
        }
      : {}),
  };
}

export function batches(ids: string[], size: number): string[][] {
  const out: string[][] = [];
  for (let start = 0; start < ids.length; start += size) out.push(ids.slice(start, start + size));
  return out;
}
