/**
 * "Test connection" in the settings: asks a server address, before it is saved, whether a tracker API
 * answers there. It sends no token (the address may be anyone's) and asks a lookup, which every tracker
 * API guards: a 401 or 403 is the expected answer of a working server to a caller that has not signed in.
 *
 * The renderer's reachability probe asks the same, more briefly: whether the server answers at all.
 */
import { z } from 'zod';
import { outOfReach, type ConnectionCheck, type Result } from '../../../shared/ipc/contract.ts';
import type { ApiClient } from '../api/client.ts';
import { failure, success } from '../api/errors.ts';

/**
 * How long the reachability probe waits for an answer. A working server answers it (a 401 from its guard,
 * before any query) in milliseconds; one that has not answered in this long is taken for out of reach, and
 * the app works from saved data until a later probe is answered.
 */
export const PROBE_TIMEOUT_MS = 3_000;

/** A guarded lookup asked without a token: only whether and how the server answers matters, not what it says. */
function guardedLookup(timeoutMs?: number) {
  return {
    method: 'GET' as const,
    path: '/api/tracker/generators/filters/',
    query: { field: 'generator_state', page: '1', search: '' },
    response: z.unknown(),
    retry: false,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
}

/**
 * Whether the server at `baseUrl` answers at all, within PROBE_TIMEOUT_MS: any answer counts, a refusal
 * included; a network failure or no answer in time is the failure the client gives for it.
 */
export async function probeServer(client: ApiClient, baseUrl: string): Promise<Result<null>> {
  const answer = await client.send(guardedLookup(PROBE_TIMEOUT_MS), { baseUrl });
  if (!answer.ok && outOfReach(answer.error)) return answer;
  return success(null);
}

export async function checkServer(client: ApiClient, baseUrl: string): Promise<Result<ConnectionCheck>> {
  const answer = await client.send(guardedLookup(), { baseUrl });
  if (answer.ok) return success({ message: `A tracker API answers at ${baseUrl}.` });
  const { kind, status } = answer.error;
  if (kind === 'unauthorized' || kind === 'forbidden')
    return success({ message: `A tracker API answers at ${baseUrl}; sign in to use it.` });
  if (kind === 'not-found') {
    return failure(
      'not-found',
      `A server answers at ${baseUrl}, but it has no tracker API there. Check the address and its path.`,
      status,
    );
  }
  return answer;
}
