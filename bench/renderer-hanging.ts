/**
 * bench:renderer's figures for a server that hangs (bench/hanging-server.ts), on the generators grid:
 *
 * - the grid after aborted and failed loads: the server paused, the user searches, sorts twice, searches
 *   again and sorts (every request but the last superseded, or failed once the app finds the server out of
 *   reach); then the server resumed: how long until the last query's first rows, short pauses (the loads
 *   abort) and long ones (they fail, and the app goes offline); beside it, a new query with the server up;
 * - saved pages with the server paused: a search seen before shows its rows, the first time and once the
 *   app is offline, and how long until the app is back online once the server answers again.
 */
import type { ChildProcess } from 'node:child_process';
import type { Page } from '@playwright/test';
import {
  median,
  pageNow,
  pause,
  resume,
  rowsShownMs,
  search,
  shownSince,
  shownText,
  watchBanner,
  type FirstRow,
} from './hanging-server.ts';

const GRID: FirstRow = { region: 'Generators results', colId: 'epa_handler_id' };
const SEARCH_BOX = 'Search generators';
/** Where every round's clicks leave the grid: sorted by city, ascending. */
const FINAL_SORT = 'location_city asc';
/** How long the server stays paused in a round: under and over the time the app takes to call it offline. */
const PAUSES_MS = [3_000, 3_000, 8_000, 8_000] as const;
/** Per round: the searches sent while paused, the last one's rows awaited; and a new one sent with the server up. */
const ROUNDS = [
  { searches: ['ch', 'che'], fresh: 'ind' },
  { searches: ['co', 'cor'], fresh: 'ser' },
  { searches: ['ma', 'man'], fresh: 'tec' },
  { searches: ['pl', 'pla'], fresh: 'sto' },
] as const;

/** The first EPA handler id the server lists for a search in an order; undefined for none. */
export type FirstOf = (searchKey: string, sort: string) => Promise<string | undefined>;

export interface GridHangFigures {
  rounds: { pauseMs: number; afterResume: number | undefined; online: number | undefined }[];
  /** A saved page asked for with the server paused: the first time, then once offline. */
  savedFirst: number | undefined;
  savedOffline: number[];
  offlineAfter: number | undefined;
  backOnline: number | undefined;
}

async function clickHeader(page: Page, name: string): Promise<void> {
  await page
    .getByRole('region', { name: GRID.region, exact: true })
    .getByRole('columnheader', { name, exact: true })
    .click();
}

/** Name ascending, Name descending, then City ascending: two superseded orders and the final one. */
async function sortTwiceThenByCity(page: Page): Promise<void> {
  await clickHeader(page, 'Name');
  await clickHeader(page, 'Name');
  await clickHeader(page, 'City');
}

/**
 * Runs on the generators workspace of a signed-in app; `firstOf` is asked while the server answers. Leaves
 * the server running.
 */
export async function measureHangingGrid(
  page: Page,
  child: ChildProcess,
  firstOf: FirstOf,
): Promise<GridHangFigures> {
  const figures: GridHangFigures = {
    rounds: [],
    savedFirst: undefined,
    savedOffline: [],
    offlineAfter: undefined,
    backOnline: undefined,
  };
  for (const [index, round] of ROUNDS.entries()) {
    const pauseMs = PAUSES_MS[index] ?? 3_000;
    const [first, last] = round.searches;
    const expected = await firstOf(last, FINAL_SORT);
    const fresh = await firstOf(round.fresh, FINAL_SORT);
    if (expected === undefined || fresh === undefined) continue;
    const pausedAt = Date.now();
    pause(child);
    let afterResume: number | undefined;
    try {
      await search(page, SEARCH_BOX, first);
      await sortTwiceThenByCity(page);
      await search(page, SEARCH_BOX, last);
      await clickHeader(page, 'Name');
      await clickHeader(page, 'City');
      await page.waitForTimeout(Math.max(0, pauseMs - (Date.now() - pausedAt)));
    } finally {
      const resumedAt = await pageNow(page);
      resume(child);
      afterResume = await shownSince(page, GRID, expected, resumedAt);
    }
    // The app is online again before the comparison is taken.
    await (
      await watchBanner(page, false)
    )();
    const online = await rowsShownMs(page, GRID, fresh, () => search(page, SEARCH_BOX, round.fresh));
    figures.rounds.push({ pauseMs, afterResume, online });
  }

  // Saved pages: the rounds' fresh searches were each shown once, so each is saved.
  const saved: string[] = ROUNDS.map((round) => round.fresh);
  const expected = new Map<string, string | undefined>();
  for (const text of saved) expected.set(text, await firstOf(text, FINAL_SORT));
  await search(page, SEARCH_BOX, 'zz-never-saved');
  const offlineBanner = await watchBanner(page, true);
  pause(child);
  try {
    const [first = '', ...rest] = saved;
    figures.savedFirst = await rowsShownMs(page, GRID, expected.get(first) ?? '', () =>
      search(page, SEARCH_BOX, first),
    );
    figures.offlineAfter = await offlineBanner();
    for (const text of [...rest, first]) {
      const ms = await rowsShownMs(page, GRID, expected.get(text) ?? '', () =>
        search(page, SEARCH_BOX, text),
      );
      if (ms !== undefined) figures.savedOffline.push(ms);
    }
  } finally {
    const bannerGone = await watchBanner(page, false);
    resume(child);
    figures.backOnline = await bannerGone();
  }
  return figures;
}

const ms = (value: number) => `${value.toLocaleString('en-US', { maximumFractionDigits: 0 })} ms`;

/** The report's section, in Markdown. */
export function hangingSection(figures: GridHangFigures): string {
  const rounds = figures.rounds.map(
    (round, index) =>
      `| ${index + 1} | ${round.pauseMs / 1000} s | ${shownText(round.afterResume)} | ${shownText(round.online)} |`,
  );
  return `## A server that hangs

The server process is paused with SIGSTOP (its connections are taken and nothing answers, as with a captive
portal or a dying VPN) and resumed with SIGCONT, when it answers what it was sent meanwhile. Times run in the
page, to the first frame whose grid shows the query's first row as the server lists it.

**The grid after aborted and failed loads** (target: the next query's first rows ≤ 1 s after the server
answers). With the server paused, each round searches, sorts by Name twice, searches again and sorts by Name
and then City: every request but the last is superseded while it waits. A 3 s pause ends before the app
calls the server out of reach (1.5 s without an answer, then the 3 s probe); in an 8 s one the app goes
offline and the waiting loads fail with "nothing saved answers this". Before this change the grid stayed on
"Loading…" with empty rows after such a round, until the page was reloaded. "New query, server up" is a
search never sent before, in the same order, with the server answering: the raw baseline.

| round | paused | last query's first rows, after the server answers again | new query, server up |
| --- | --- | --- | --- |
${rounds.join('\n')}

**Saved pages with the server paused** (targets: ≤ 2 s the first time, ≤ 300 ms once offline, back online
≤ 3 s after the server answers): searches shown once before, asked again with the server paused.

| measure | measured |
| --- | --- |
| a saved page, the first time (request to first rows) | ${shownText(figures.savedFirst)} |
| … once the app is offline (median of ${figures.savedOffline.length}) | ${figures.savedOffline.length > 0 ? ms(median(figures.savedOffline)) : '—'} |
| the Offline banner, from the pause | ${shownText(figures.offlineAfter)} |
| back online after the server answers again (the banner gone, from SIGCONT) | ${shownText(figures.backOnline)} |
`;
}
