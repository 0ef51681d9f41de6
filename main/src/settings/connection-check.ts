/**
 * "Test connection" in the settings: asks a server address, before it is saved, whether a tracker API
 * answers there. It sends no token (the address may be anyone's) and asks a lookup, which every tracker
 * API guards: a 401 or 403 is the expected answer of a working server to a caller that has not signed in.
 */
import { z } from 'zod';
import type { ConnectionCheck, Result } from '../../../shared/ipc/contract.ts';
import type { ApiClient } from '../api/client.ts';
import { failure, success } from '../api/errors.ts';

export async function checkServer(client: ApiClient, baseUrl: string): Promise<Result<ConnectionCheck>> {
  const answer = await client.send(
    {
      method: 'GET',
      path: '/api/tracker/generators/filters/',
      query: { field: 'generator_state', page: '1', search: '' },
      // Only whether and how the server answers matters here, not what it says.
      response: z.unknown(),
      retry: false,
    },
    { baseUrl },
  );
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
