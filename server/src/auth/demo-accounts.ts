/**
 * The demo accounts of a demo database. For demo data only: a real deployment adds its own accounts with
 * `npm run users` and never has these.
 */
import type { Database } from 'better-sqlite3';
import type { Scope } from '../../../shared/api/index.ts';
import { hashPassword } from './passwords.ts';
import { addUser } from './users.ts';

export const DEMO_ACCOUNTS: readonly { username: string; password: string; scopes: Scope[] }[] = [
  { username: 'inspector', password: 'inspector-demo', scopes: ['generators', 'manifests'] },
  { username: 'generators-only', password: 'generators-demo', scopes: ['generators'] },
];

/**
 * Hashed once per process at the full cost (about a second each) and reused by every database built after:
 * the test suites build many demo databases. A fresh salt per process; the passwords are public anyway.
 */
let demoHashes: Promise<string[]> | undefined;

export async function createDemoAccounts(db: Database): Promise<void> {
  demoHashes ??= Promise.all(DEMO_ACCOUNTS.map((account) => hashPassword(account.password)));
  const hashes = await demoHashes;
  for (const [index, account] of DEMO_ACCOUNTS.entries()) {
    await addUser(db, account.username, account.password, account.scopes, {
      replace: true,
      passwordHash: hashes[index],
    });
  }
}
