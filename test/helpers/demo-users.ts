/**
 * The demo accounts' sign-ins for tests and benchmarks, read from the one list the demo data is built
 * from (server/src/auth/demo-accounts.ts), so no password is written twice.
 */
import { DEMO_ACCOUNTS } from '../../server/src/auth/demo-accounts.ts';

function demoUser(username: string): { username: string; password: string } {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.username === username);
  if (!account) throw new Error(`the demo data has no user ${username}`);
  return { username: account.username, password: account.password };
}

export const DEMO_USERS = {
  inspector: demoUser('inspector'),
  generatorsOnly: demoUser('generators-only'),
} as const;
