/**
 * Bearer tokens: 256 random bits, handed out once and stored only as their SHA-256 hash, with an expiry.
 * Revoked and expired tokens are swept on each login so the table does not grow without bound.
 */
import type { Database, Statement } from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import type { Scope } from '../../../shared/api/index.ts';
import { parseScopes } from './users.ts';

export interface TokenOwner {
  userId: number;
  username: string;
  scopes: Scope[];
}

/** A value now, or a promise of it: SQLite answers in process, PostgreSQL over the network. */
export type MaybePromise<T> = T | Promise<T>;

/** Bearer tokens as every store keeps them (this file's TokenStore on SQLite, postgres/pg-accounts.ts). */
export interface Tokens {
  readonly ttlSeconds: number;
  issue(userId: number): MaybePromise<string>;
  /** The owner of a live token, or undefined for an unknown, revoked or expired one. */
  verify(token: string): MaybePromise<TokenOwner | undefined>;
  revoke(token: string): MaybePromise<void>;
}

/** The SHA-256 of a token, as every backend stores it. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class TokenStore {
  private readonly ttlMs: number;
  private readonly now: () => number;
  // Prepared once: every request verifies a token, and preparing costs more than the lookup itself.
  private readonly sweep: Statement;
  private readonly insert: Statement;
  private readonly owner: Statement;
  private readonly revokeHash: Statement;

  constructor(db: Database, options: { ttlMs: number; now?: () => number }) {
    this.ttlMs = options.ttlMs;
    this.now = options.now ?? Date.now;
    this.sweep = db.prepare('DELETE FROM tokens WHERE expires_at <= ? OR revoked = 1');
    this.insert = db.prepare('INSERT INTO tokens (token_hash, user_id, expires_at) VALUES (?, ?, ?)');
    // A subquery rather than a join: the same two primary-key searches at a third of the join's cost.
    this.owner = db.prepare(
      `SELECT id AS userId, username, scopes FROM users
       WHERE id = (SELECT user_id FROM tokens WHERE token_hash = ? AND revoked = 0 AND expires_at > ?)`,
    );
    this.revokeHash = db.prepare('UPDATE tokens SET revoked = 1 WHERE token_hash = ?');
  }

  get ttlSeconds(): number {
    return Math.max(1, Math.round(this.ttlMs / 1000));
  }

  issue(userId: number): string {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    this.sweep.run(now);
    this.insert.run(hashToken(token), userId, now + this.ttlMs);
    return token;
  }

  /** The owner of a live token, or undefined for an unknown, revoked or expired one. */
  verify(token: string): TokenOwner | undefined {
    const row = this.owner.get(hashToken(token), this.now()) as
      { userId: number; username: string; scopes: string } | undefined;
    return row && { userId: row.userId, username: row.username, scopes: parseScopes(row.scopes) };
  }

  revoke(token: string): void {
    this.revokeHash.run(hashToken(token));
  }
}
