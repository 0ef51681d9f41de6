/**
 * The demo accounts of a demo database. For demo data only: a real deployment adds its own accounts with
 * `npm run users` and never has these.
 */
import type { Database } from 'better-sqlite3';
import type { Scope } from '../../../shared/api/index.ts';
import { addUser } from './users.ts';

export const DEMO_ACCOUNTS: readonly { username: string; password: string; scopes: Scope[] }[] = [
  { username: 'inspector', password: 'inspector-demo', scopes: ['generators', 'manifests'] },
  { username: 'generators-only', password: 'generators-demo', scopes: ['generators'] },
];

export async function createDemoAccounts(db: Database): Promise<void> {
  for (const account of DEMO_ACCOUNTS) {
    await addUser(db, account.username, account.password, account.scopes, { replace: true });
  }
}
