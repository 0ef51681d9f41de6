/**
 * Many generator details in one IPC reply, for an offline pack's download: a pack of 100,000 manifests names
 * ~10,000 generators, and one IPC round trip per detail took 30.4 s where the API alone answered them in
 * 3.8 s (docs/benchmarks/offline.md). Main fetches a batch a few at a time through the session (its token,
 * timeout, retries and shared flights), so sign-in and cancel work as for any single request.
 *
 * A generator the server does not know (404) is listed apart and the rest of the batch stands; any other
 * failure answers the batch with that failure (a 401 included, so the caller signs in and asks again), and
 * stops the requests still in flight.
 */
import type { GeneratorDetails, ParsedInputOf, Result } from '../../../shared/ipc/contract.ts';
import { MESSAGES } from '../../../shared/ipc/messages.ts';
import { endpoints } from '../api/endpoints.ts';
import { failure, success, type Failure } from '../api/errors.ts';
import type { Session } from '../session/session.ts';

/**
 * Requests in flight per batch: enough to keep the loopback busy while a reply is parsed, few enough to
 * leave the server to other users (measured with npm run bench:offline).
 */
export const DETAILS_PARALLEL = 8;

type Found = GeneratorDetails['found'][number];

export async function generatorDetails(
  session: Pick<Session, 'call'>,
  input: ParsedInputOf<'generators', 'details'>,
  signal?: AbortSignal,
): Promise<Result<GeneratorDetails>> {
  const { ids, totals } = input;
  const found: (Found | undefined)[] = new Array<Found | undefined>(ids.length);
  const missing: string[] = [];
  // Stops the other requests of the batch once one has failed, or when the caller cancels.
  const stop = new AbortController();
  const cancelled = () => stop.abort();
  if (signal?.aborted) stop.abort();
  signal?.addEventListener('abort', cancelled, { once: true });
  let failed: Failure | undefined;
  let next = 0;

  const fail = (error: Failure) => {
    failed ??= error;
    stop.abort();
  };

  const worker = async () => {
    while (!stop.signal.aborted && next < ids.length) {
      const index = next;
      next += 1;
      const id = ids[index]!;
      const detail = await session.call(endpoints.generatorDetail({ handler_id: id }), stop.signal);
      if (!detail.ok) {
        if (detail.error.kind === 'not-found') missing.push(id);
        else fail(detail);
        continue;
      }
      if (!totals) {
        found[index] = { detail: detail.data };
        continue;
      }
      const own = await session.call(
        endpoints.generatorsAggregate({ filterFields: { ids: [id] }, searchKey: '' }),
        stop.signal,
      );
      if (!own.ok) fail(own);
      else found[index] = { detail: detail.data, totals: own.data };
    }
  };

  try {
    await Promise.all(Array.from({ length: Math.min(DETAILS_PARALLEL, ids.length) }, worker));
  } finally {
    signal?.removeEventListener('abort', cancelled);
  }
  if (signal?.aborted) return failure('cancelled', MESSAGES.cancelled);
  if (failed) return failed;
  return success({
    found: found.filter((entry): entry is Found => entry !== undefined),
    missing: ids.filter((id) => missing.includes(id)),
  });
}
