/**
 * Every page of a list from the API, as an export reads it: the API's bytes, handed to the export's reader
 * thread, which tells this source what each page held. The next page is asked for while the current one is
 * written, so the network and the disk overlap.
 */
import { LIMITS } from '../../../shared/api/index.ts';
import { outOfReach, type Result } from '../../../shared/ipc/contract.ts';
import { ExportFailure, NetworkLost, moreRowsThanCounted } from './errors.ts';
import { OWNER_MESSAGES } from './export-owner.ts';
import type { EncodedPage, PageCount } from './grid-file.ts';

/** Rows per page asked of the API (shared/ipc/exports.ts `exportPageRequest`): its largest page. */
const PAGE_ROWS = LIMITS.pageSizeMax;

/** One page's bytes, or why there are none; `page` is 0-based. */
export type FetchPage = (page: number, signal: AbortSignal) => Promise<Result<EncodedPage>>;

/**
 * A page that needs a new sign-in waits for it (`waitForSignIn` resolves false if the user signs out
 * instead); a server out of reach ends the export as NetworkLost; any other failure ends it with the API's
 * message.
 *
 * A page is counted only once the reader has read it: its count comes back as the value of `next()`. Until
 * the total is known the next page is asked for on the chance that it exists, and dropped if the count says
 * otherwise. The total is the first page's: no page is asked for past it, and rows past it end the export
 * (moreRowsThanCounted).
 */
export async function* apiPages(
  fetchPage: FetchPage,
  signal: AbortSignal,
  waitForSignIn: (signal: AbortSignal) => Promise<boolean>,
  onWaiting: () => void,
): AsyncGenerator<EncodedPage, void, PageCount> {
  const fetchWithSignIn = async (page: number, pageSignal: AbortSignal): Promise<EncodedPage> => {
    for (;;) {
      const answer = await fetchPage(page, pageSignal);
      pageSignal.throwIfAborted();
      if (answer.ok) return answer.data;
      if (outOfReach(answer.error)) {
        throw new NetworkLost(answer.error.message);
      }
      if (answer.error.kind !== 'unauthorized') throw new ExportFailure(answer.error.message);
      onWaiting();
      if (!(await waitForSignIn(pageSignal))) throw new ExportFailure(OWNER_MESSAGES.signedOut);
    }
  };
  const prefetch = (page: number) => {
    const controller = new AbortController();
    const answer = fetchWithSignIn(page, AbortSignal.any([signal, controller.signal]));
    // Awaited on the next turn; a failure while this page is written must not count as unhandled.
    answer.catch(() => undefined);
    return { answer, drop: () => controller.abort() };
  };
  let next = prefetch(0);
  let seen = 0;
  let total: number | undefined;
  for (let page = 0; ; page += 1) {
    const current = await next.answer;
    const following = total === undefined || seen + PAGE_ROWS < total ? prefetch(page + 1) : undefined;
    const counted = yield current;
    seen += counted.rows;
    total ??= counted.totalElements;
    if (seen > total) {
      following?.drop();
      throw new ExportFailure(moreRowsThanCounted(total));
    }
    if (counted.rows < PAGE_ROWS || seen >= total) {
      following?.drop();
      return;
    }
    next = following ?? prefetch(page + 1);
  }
}
