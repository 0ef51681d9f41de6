/**
 * The field's failure for the benchmarks: a server that hangs. The server process is paused with SIGSTOP
 * (its connections are taken by the kernel and nothing answers, as with a paused server, a captive portal
 * or a dying VPN) and resumed with SIGCONT, when it answers everything it was sent meanwhile. What the app
 * shows is read in the page, frame by frame, by the grid's first row and the Offline banner.
 *
 * Used by bench/offline.ts (a query a pack covers) and bench/renderer.ts (saved pages, and a grid that has
 * been through aborted and failed loads). Reports, never asserts.
 */
import type { ChildProcess } from 'node:child_process';
import type { Page } from '@playwright/test';

/** How long one shown result may take before it counts as never shown: far past every target. */
const WAIT_MS = 60_000;

/** The page's globals these functions read, seen from Node's types (which have no DOM). */
type PageDocument = {
  document: {
    querySelector(
      selectors: string,
    ): { querySelector(s: string): { textContent: string | null } | null } | null;
  };
};

/** The server pauses (it hangs) until `resume`; safe to call when it already is. */
export function pause(child: ChildProcess): void {
  child.kill('SIGSTOP');
}

export function resume(child: ChildProcess): void {
  child.kill('SIGCONT');
}

/** A grid's first row, by the grid region's name and a column. */
export interface FirstRow {
  /** "Manifests results" */
  region: string;
  colId: string;
}

/**
 * Milliseconds from now (in the page) to the first animation frame whose grid shows `expected` in its first
 * row; undefined when it never does within WAIT_MS. `act` makes the change (a search, a sort) once the
 * clock runs; the first row must change to `expected` (rows shown before do not count).
 */
export async function rowsShownMs(
  page: Page,
  where: FirstRow,
  expected: string,
  act: () => Promise<void>,
): Promise<number | undefined> {
  const started = await page.evaluate(() => performance.now());
  await act();
  return shownSince(page, where, expected, started);
}

/** As rowsShownMs, from a time taken earlier in the page (`performance.now()`). */
export async function shownSince(
  page: Page,
  where: FirstRow,
  expected: string,
  started: number,
): Promise<number | undefined> {
  try {
    const handle = await page.waitForFunction(
      ([region, colId, text, since]) => {
        const grid = (globalThis as unknown as PageDocument).document.querySelector(
          `[aria-label="${region}"]`,
        );
        const cell = grid?.querySelector(`.ag-row[row-index="0"] [col-id="${colId}"]`);
        return cell?.textContent?.trim() === text ? performance.now() - since : false;
      },
      [where.region, where.colId, expected, started] as const,
      { polling: 'raf', timeout: WAIT_MS },
    );
    return Number(await handle.jsonValue());
  } catch {
    return undefined;
  }
}

/**
 * Starts watching, from now, for the Offline banner to be shown (or gone), frame by frame in the page;
 * returns the function that resolves with the milliseconds it took (undefined when it did not happen within
 * WAIT_MS). The time is taken when it happens, however late it is read.
 */
export async function watchBanner(page: Page, shown: boolean): Promise<() => Promise<number | undefined>> {
  const key = `__bannerWatch${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    ([slot, wanted]) => {
      const page = globalThis as unknown as PageDocument & {
        requestAnimationFrame(callback: () => void): number;
      } & Record<string, unknown>;
      const start = performance.now();
      page[slot] = null;
      const frame = () => {
        const banner = page.document.querySelector('[role="status"][aria-label="Offline"]');
        if ((banner !== null) === wanted) page[slot] = performance.now() - start;
        else page.requestAnimationFrame(frame);
      };
      page.requestAnimationFrame(frame);
    },
    [key, shown] as const,
  );
  return async () => {
    try {
      const handle = await page.waitForFunction(
        (slot) => (globalThis as unknown as Record<string, number | null>)[slot] ?? false,
        key,
        { polling: 100, timeout: WAIT_MS },
      );
      return Number(await handle.jsonValue());
    } catch {
      return undefined;
    }
  };
}

/** The page's clock now. */
export function pageNow(page: Page): Promise<number> {
  return page.evaluate(() => performance.now());
}

/** A search typed into a workspace's search box and sent at once (Enter skips the box's 300 ms wait). */
export async function search(page: Page, box: string, text: string): Promise<void> {
  const input = page.getByRole('searchbox', { name: box });
  await input.fill(text);
  await input.press('Enter');
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

export function median(values: number[]): number {
  return sorted(values)[Math.floor(values.length / 2)] ?? NaN;
}

export function p95(values: number[]): number {
  const ordered = sorted(values);
  return ordered[Math.min(ordered.length - 1, Math.ceil(ordered.length * 0.95) - 1)] ?? NaN;
}

/** "1,234 ms", or "never (within 60 s)". */
export function shownText(ms: number | undefined): string {
  return ms === undefined
    ? `never (within ${WAIT_MS / 1000} s)`
    : `${ms.toLocaleString('en-US', { maximumFractionDigits: 0 })} ms`;
}
