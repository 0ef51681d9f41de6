/**
 * The open-pack half of npm run bench:offline: a pack opened cold after a reload, generated list pages,
 * totals and lookups answered over it offline, the page's longest task while they run, and the heap of the
 * page and of the engine's worker with the pack open — all in the app, through its data pipeline (the
 * probe, renderer/src/data/probe.ts, in the benchmarks' build) and timed by the pipeline's own user timings, request to
 * answer. The raw baseline is the reference server answering the same requests over HTTP, before it stops.
 */
import type { BrowserContext, Page } from '@playwright/test';
import type { PackRows } from '../renderer/src/offline/engine/contract.ts';
import type { TrackerRequests } from '../shared/query/canonical.ts';
import { lookupRequests, manifestRequests } from './offline-engine-requests.ts';

export type QueryKind = 'manifests.list' | 'manifests.aggregate' | 'manifests.lookup';
export const QUERY_KINDS: readonly QueryKind[] = [
  'manifests.list',
  'manifests.aggregate',
  'manifests.lookup',
];

/**
 * What renderer/src/data/probe.ts answers, as it reaches this process (that file runs on the page's window,
 * which this Node program cannot compile against).
 */
type ProbeAnswer =
  | { ok: true; source: 'network' | 'cache'; totalElements?: number }
  | { ok: false; kind: string; message: string };

export interface PackQuery {
  name: QueryKind;
  input: TrackerRequests[QueryKind];
}

/** `count` generated requests of each kind inside a pack of every manifest (bench/offline-engine-requests.ts). */
export function packQueries(rows: PackRows, count: number): PackQuery[] {
  const lists = manifestRequests(rows, count);
  return [
    ...lists.map((input) => ({ name: 'manifests.list' as const, input })),
    ...manifestRequests(rows, count * 2)
      .slice(count)
      .map(({ filterFields, searchKey }) => ({
        name: 'manifests.aggregate' as const,
        input: { filterFields, searchKey },
      })),
    ...lookupRequests(rows, count).map((input) => ({ name: 'manifests.lookup' as const, input })),
  ];
}

// ---------------------------------------------------------------------------------------------------------
// The raw baseline: the reference server answering the same requests over HTTP.

/** As main sends them (main/src/api/endpoints.ts): the path, and a body or a query. */
function httpOf(query: PackQuery): { path: string; body?: unknown } {
  if (query.name === 'manifests.lookup') {
    const { field, page, search } = query.input as TrackerRequests['manifests.lookup'];
    const parameters = new URLSearchParams({ field, page: String(page), search: search ?? '' });
    return { path: `shipments_and_waste_volumes/filters/?${parameters.toString()}` };
  }
  if (query.name === 'manifests.aggregate') return { path: 'manifests/aggregated_data/', body: query.input };
  const { pageInfo, ...rest } = query.input as TrackerRequests['manifests.list'];
  // An empty sort asks for the default order, which main spells out as the API's samples do.
  const sort = pageInfo.sort?.trim() || undefined;
  return { path: 'manifests/', body: { ...rest, pageInfo: { ...pageInfo, sort } } };
}

/** Each request's time on the server, sent one at a time as the pipeline sends a view's; ms, and list totals. */
export async function serverTimes(
  origin: string,
  token: string,
  queries: readonly PackQuery[],
): Promise<{ ms: number[]; totals: (number | undefined)[] }> {
  const ms: number[] = [];
  const totals: (number | undefined)[] = [];
  for (const query of queries) {
    const { path, body } = httpOf(query);
    const started = performance.now();
    const response = await fetch(`${origin}/api/tracker/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as { totalElements?: number };
    ms.push(performance.now() - started);
    if (!response.ok) throw new Error(`${path} answered HTTP ${response.status}: ${JSON.stringify(answer)}`);
    totals.push(answer.totalElements);
  }
  return { ms, totals };
}

// ---------------------------------------------------------------------------------------------------------
// In the app, offline.

/**
 * Before the app's scripts run: every task of the page's main thread longer than 50 ms (the Long Tasks
 * API's floor), kept on the window for `longestTask`.
 */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Observer = new (report: (list: { getEntries(): { duration: number }[] }) => void) => {
      observe(options: { type: string; buffered: boolean }): void;
    };
    const page = globalThis as unknown as { benchLongTasks: number[]; PerformanceObserver: Observer };
    const seen: number[] = [];
    page.benchLongTasks = seen;
    new page.PerformanceObserver((list) => {
      for (const entry of list.getEntries()) seen.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** The longest task seen since the last call (0 when none passed 50 ms), and how many passed 50 ms. */
async function longestTask(page: Page): Promise<{ longest: number; count: number }> {
  return page.evaluate(() => {
    const seen = (globalThis as unknown as { benchLongTasks: number[] }).benchLongTasks;
    const taken = seen.splice(0, seen.length);
    return { longest: Math.max(0, ...taken), count: taken.length };
  });
}

/** One request through the app's pipeline; its answer and the pipeline's request-to-answer time. */
async function throughPipeline(page: Page, query: PackQuery): Promise<{ answer: ProbeAnswer; ms: number }> {
  return page.evaluate(async ({ name, input }) => {
    type Probe = { request(name: string, input: unknown): Promise<ProbeAnswer> };
    const probe = (globalThis as unknown as { trackerProbe?: Probe }).trackerProbe;
    if (!probe)
      throw new Error('The app has no probe: it was not built by bench/probe/electron.vite.config.ts.');
    const since = performance.now();
    const answer = await probe.request(name, input);
    const timing = performance
      .getEntriesByType('measure')
      .find(
        (entry) =>
          entry.name.startsWith('tracker ') &&
          entry.startTime >= since &&
          (entry as { detail?: unknown }).detail === name,
      );
    performance.clearMeasures();
    return { answer, ms: timing?.duration ?? Number.NaN };
  }, query);
}

function failed(query: PackQuery, answer: ProbeAnswer): Error {
  const why = answer.ok ? `it came from the ${answer.source}, not the pack` : answer.message;
  return new Error(`${query.name} ${JSON.stringify(query.input)} was not answered by the pack: ${why}`);
}

export interface OpenPackTimes {
  /** The first request after a reload: reading the pack from IndexedDB, handing it to the worker, indexing, answering. */
  openMs: number;
  openLongestTask: { longest: number; count: number };
  ms: Record<QueryKind, number[]>;
  queriesLongestTask: { longest: number; count: number };
  /** List requests whose total differs from the server's. */
  totalsDiffering: number;
  /** The five slowest requests, slowest first: what to look at when a p95 misses. */
  slowest: { query: PackQuery; ms: number }[];
}

/**
 * Opens the pack cold (the page has just loaded: the engine holds nothing) with a first list page, then
 * sends every query; each must be answered from the pack, and a list's total must be the server's.
 */
export async function openPackTimes(
  page: Page,
  queries: readonly PackQuery[],
  serverTotals: readonly (number | undefined)[],
): Promise<OpenPackTimes> {
  await longestTask(page);
  const first: PackQuery = {
    name: 'manifests.list',
    input: { filterFields: {}, searchKey: '', pageInfo: { page: 0, pageSize: 50, sort: '' } },
  };
  const opened = await throughPipeline(page, first);
  if (!opened.answer.ok || opened.answer.source !== 'cache') throw failed(first, opened.answer);
  const openLongestTask = await longestTask(page);

  const ms: Record<QueryKind, number[]> = {
    'manifests.list': [],
    'manifests.aggregate': [],
    'manifests.lookup': [],
  };
  let totalsDiffering = 0;
  const timed: { query: PackQuery; ms: number }[] = [];
  for (const [index, query] of queries.entries()) {
    const { answer, ms: took } = await throughPipeline(page, query);
    if (!answer.ok || answer.source !== 'cache') throw failed(query, answer);
    if (answer.totalElements !== serverTotals[index]) totalsDiffering += 1;
    ms[query.name].push(took);
    timed.push({ query, ms: took });
  }
  return {
    openMs: opened.ms,
    openLongestTask,
    ms,
    queriesLongestTask: await longestTask(page),
    totalsDiffering,
    slowest: timed.sort((a, b) => b.ms - a.ms).slice(0, 5),
  };
}

/**
 * The JavaScript heap in use after a full collection, of the page and of each of its workers (the engine
 * holds the pack in its worker), through the DevTools protocol; bytes.
 */
export async function heapInUse(
  context: BrowserContext,
  page: Page,
): Promise<{ pageBytes: number; workerBytes: number }> {
  const cdp = await context.newCDPSession(page);
  try {
    type Reply = { id: number; result?: { usedSize?: number }; error?: { message: string } };
    const sessions: string[] = [];
    const waiting = new Map<number, (reply: Reply) => void>();
    cdp.on('Target.attachedToTarget', (event) => {
      if (event.targetInfo.type === 'worker') sessions.push(event.sessionId);
    });
    cdp.on('Target.receivedMessageFromTarget', (event) => {
      const reply = JSON.parse(event.message) as Reply;
      waiting.get(reply.id)?.(reply);
    });
    // Unflattened sessions: Playwright's CDP session sends to one target; these carry messages to workers.
    await cdp.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: false,
      flatten: false,
    });
    // The worker's attachment is reported right after; wait for it a moment rather than race it.
    for (let waited = 0; sessions.length === 0 && waited < 2_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    let nextId = 1;
    const inWorker = async (sessionId: string, method: string): Promise<Reply> => {
      const id = nextId;
      nextId += 1;
      const reply = new Promise<Reply>((resolve) => waiting.set(id, resolve));
      await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) });
      const answer = await reply;
      if (answer.error) throw new Error(`${method} in a worker: ${answer.error.message}`);
      return answer;
    };
    let workerBytes = 0;
    for (const sessionId of sessions) {
      await inWorker(sessionId, 'HeapProfiler.collectGarbage');
      workerBytes += (await inWorker(sessionId, 'Runtime.getHeapUsage')).result?.usedSize ?? 0;
    }
    if (sessions.length === 0) throw new Error('The page runs no worker: the offline engine is not running.');
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return { pageBytes: usedSize, workerBytes };
  } finally {
    await cdp.detach();
  }
}
