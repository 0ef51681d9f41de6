/**
 * The accounts of one tracker database: add, list, change the password of, remove, and look up for login.
 * Changing a password or removing an account deletes the account's tokens in the same transaction: the
 * server checks every token against the database, so they stop working at once, even in a running server.
 */
import type { Database } from 'better-sqlite3';
import { Scope } from '../../../shared/api/index.ts';
import { hashPassword, type ScryptCost } from './passwords.ts';

export interface User {
  id: number;
  username: string;
  scopes: Scope[];
  createdAt: string;
}

export interface UserRow {
  id: number;
  username: string;
  password_hash: string;
  scopes: string;
  created_at: string;
}

const USERNAME = /^[A-Za-z0-9._@-]{1,100}$/;

export class UserError extends Error {}

export function parseScopes(text: string): Scope[] {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new UserError(`give at least one scope: ${Scope.options.join(', ')}`);
  const scopes: Scope[] = [];
  for (const name of names) {
    const parsed = Scope.safeParse(name);
    if (!parsed.success)
      throw new UserError(`unknown scope "${name}"; scopes are ${Scope.options.join(', ')}`);
    if (!scopes.includes(parsed.data)) scopes.push(parsed.data);
  }
  return scopes;
}

export function toUser(row: UserRow): User {
  return { id: row.id, username: row.username, scopes: parseScopes(row.scopes), createdAt: row.created_at };
}

export function checkPassword(password: string): void {
  if (password.length < 8) throw new UserError('a password has at least 8 characters');
}

/** Refuses a new account's name, password or scopes with what is wrong (every backend's rule). */
export function checkAccount(username: string, password: string, scopes: readonly Scope[]): void {
  if (!USERNAME.test(username)) {
    throw new UserError('a user name is 1–100 letters, digits or . _ @ -');
  }
  checkPassword(password);
  if (scopes.length === 0) throw new UserError('give at least one scope');
}

/** Refuses to add an account over an existing one unless asked to replace it (every backend's rule). */
export function checkNew(username: string, exists: boolean, options: { replace?: boolean }): void {
  if (exists && !options.replace) throw new UserError(`user "${username}" already exists`);
}

/** The account row a backend stored and read back, or the refusal it never came back with. */
export function storedUser(username: string, row: UserRow | undefined): User {
  if (!row) throw new UserError(`user "${username}" could not be stored`);
  return toUser(row);
}

/**
 * Adds an account, or replaces the password and scopes of an existing one when `replace` is set (its tokens
 * are then revoked). `passwordHash` stores a hash made earlier instead of hashing `password` again.
 */
export async function addUser(
  db: Database,
  username: string,
  password: string,
  scopes: Scope[],
  options: { replace?: boolean; cost?: ScryptCost; passwordHash?: string } = {},
): Promise<User> {
  checkAccount(username, password, scopes);
  checkNew(username, findUser(db, username) !== undefined, options);
  const hash = options.passwordHash ?? (await hashPassword(password, options.cost));
  db.transaction(() => {
    db.prepare(
      `INSERT INTO users (username, password_hash, scopes, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (username) DO UPDATE SET password_hash = excluded.password_hash, scopes = excluded.scopes`,
    ).run(username, hash, scopes.join(','), new Date().toISOString());
    db.prepare('DELETE FROM tokens WHERE user_id = (SELECT id FROM users WHERE username = ?)').run(username);
  })();
  return storedUser(username, findUser(db, username));
}

/** Sets a new password and revokes every token of the account; false when there is no such account. */
export async function changePassword(
  db: Database,
  username: string,
  password: string,
  options: { cost?: ScryptCost } = {},
): Promise<boolean> {
  checkPassword(password);
  if (!findUser(db, username)) return false;
  const hash = await hashPassword(password, options.cost);
  return db.transaction(() => {
    const user = findUser(db, username);
    if (!user) return false;
    db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hash, user.id);
    db.prepare('DELETE FROM tokens WHERE user_id = ?').run(user.id);
    return true;
  })();
}

/**
 * Stores a new hash of the same password (a cost upgrade at sign-in). Tokens stay valid: the password did
 * not change. Only replaces `oldHash`, so a password changed meanwhile is never overwritten.
 */
export function replacePasswordHash(db: Database, userId: number, oldHash: string, newHash: string): void {
  db.prepare('UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?').run(
    newHash,
    userId,
    oldHash,
  );
}

export function findUser(db: Database, username: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE username = ?').get(username) as UserRow | undefined;
}

export function listUsers(db: Database): User[] {
  return (db.prepare('SELECT * FROM users ORDER BY username').all() as UserRow[]).map(toUser);
}

/** Removes an account and every token it holds; false when there was no such account. */
export function removeUser(db: Database, username: string): boolean {
  return db.transaction(() => {
    const user = findUser(db, username);
    if (!user) return false;
    db.prepare('DELETE FROM tokens WHERE user_id = ?').run(user.id);
    db.prepare('DELETE FROM users WHERE id = ?').run(user.id);
    return true;
  })();
}
