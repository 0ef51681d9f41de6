/**
 * bench:offline's figures for a server that hangs (bench/hanging-server.ts): with a pack of every manifest
 * complete, the server is paused; a new search the pack covers shows its rows, the first time and once the
 * app is offline; how long until the app says it is offline; and, the server resumed, how long until the
 * app is back online. Beside them, the same kind of search with the server answering.
 */
import type { ChildProcess } from 'node:child_process';
import type { Page } from '@playwright/test';
import {
  median,
  p95,
  pause,
  resume,
  rowsShownMs,
  search,
  shownText,
  watchBanner,
  type FirstRow,
} from './hanging-server.ts';

const GRID: FirstRow = { region: 'Manifests results', colId: 'manifest_tracking_number' };
const SEARCH_BOX = 'Search manifests';
/** Searches never sent before, each answered by the pack: a few with the server up, the rest paused. */
const ONLINE = ['salt', 'gas', 'plat', 'ash', 'haul'] as const;
const HANGING = [
  'bay',
  'tech',
  'north',
  'west',
  'park',
  'lake',
  'clean',
  'freight',
  'star',
  'river',
  'lab',
] as const;

export interface HangingFigures {
  /** A search with the server answering, request to rows (ms), each once. */
  online: number[];
  /** The first search after the server began to hang. */
  first: number | undefined;
  /** From the pause to the Offline banner. */
  offlineAfter: number | undefined;
  /** Each later search, the app offline. */
  offline: number[];
  /** Searches whose rows were never shown. */
  missed: number;
  /** From the server resumed to the banner gone. */
  backOnline: number | undefined;
}

/** The first tracking number the server lists for a search (its default order); undefined for none. */
type FirstOf = (searchKey: string) => Promise<string | undefined>;

async function shown(page: Page, firstOf: FirstOf, text: string): Promise<number | undefined | null> {
  const expected = await firstOf(text);
  if (expected === undefined) return null;
  return rowsShownMs(page, GRID, expected, () => search(page, SEARCH_BOX, text));
}

/**
 * Runs on the Manifests workspace of a signed-in app with a complete pack of every manifest; leaves the
 * server running and the search box empty. `firstOf` is asked while the server answers.
 */
export async function measureHangingPack(
  page: Page,
  child: ChildProcess,
  firstOf: FirstOf,
): Promise<HangingFigures> {
  const expected = new Map<string, string | undefined>();
  for (const text of [...ONLINE, ...HANGING]) expected.set(text, await firstOf(text));
  const known: FirstOf = (text) => Promise.resolve(expected.get(text));
  const figures: HangingFigures = {
    online: [],
    first: undefined,
    offlineAfter: undefined,
    offline: [],
    missed: 0,
    backOnline: undefined,
  };
  const note = (ms: number | undefined | null, into: number[]) => {
    if (ms === undefined) figures.missed += 1;
    else if (ms !== null) into.push(ms);
  };
  for (const text of ONLINE) note(await shown(page, known, text), figures.online);

  const [first, ...rest] = HANGING;
  const offlineBanner = await watchBanner(page, true);
  pause(child);
  try {
    const firstMs = await shown(page, known, first);
    figures.first = firstMs ?? undefined;
    if (firstMs === undefined) figures.missed += 1;
    figures.offlineAfter = await offlineBanner();
    for (const text of rest) note(await shown(page, known, text), figures.offline);
  } finally {
    const bannerGone = await watchBanner(page, false);
    resume(child);
    figures.backOnline = await bannerGone();
  }
  await search(page, SEARCH_BOX, '');
  return figures;
}

const ms = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 0 });

/** The report's rows: measure | target | measured | raw baseline | ratio. */
export function hangingRows(figures: HangingFigures): string {
  const online = median(figures.online);
  const ratio = (value: number | undefined) => (value === undefined ? '—' : (value / online).toFixed(1));
  return [
    `| a new search the pack covers, the server hanging (paused with SIGSTOP): its first rows, the first time | ≤ 2 s (before: the request timeout, 20 s) | ${shownText(figures.first)} | the same kind of search, the server answering: ${ms(online)} ms (median of ${figures.online.length}) | ${ratio(figures.first)} |`,
    `| … once the app is offline (median / p95 of ${figures.offline.length}) | ≤ 300 ms | ${ms(median(figures.offline))} / ${ms(p95(figures.offline))} ms | ${ms(online)} ms | ${ratio(median(figures.offline))} |`,
    `| the Offline banner, from the pause (1.5 s without an answer, then the 3 s probe) | — | ${shownText(figures.offlineAfter)} | — | — |`,
    `| back online after the server answers again (the banner gone, from SIGCONT) | ≤ 3 s | ${shownText(figures.backOnline)} | — | — |`,
    ...(figures.missed > 0 ? [`| searches whose rows never showed | 0 | ${figures.missed} | — | — |`] : []),
  ].join('\n');
}
