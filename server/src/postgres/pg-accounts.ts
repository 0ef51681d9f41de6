/**
 * Accounts, tokens and the sign-in throttle in PostgreSQL, shared by every server process on the database:
 * a token issued by one process works on all, a logout on one is refused by all from the next request, and
 * failed sign-ins spread over processes are counted together. The rules are the SQLite backend's
 * (auth/tokens.ts, auth/throttle.ts, auth/users.ts); only where the counts and rows live differs.
 */
import { randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';
import type { Scope } from '../../../shared/api/index.ts';
import { hashPassword, type ScryptCost } from '../auth/passwords.ts';
import {
  secondsUntilAllowed,
  throttleKeys,
  type Reservation,
  type ThrottleOptions,
} from '../auth/throttle.ts';
import { hashToken, type TokenOwner } from '../auth/tokens.ts';
import {
  checkAccount,
  checkNew,
  checkPassword,
  parseScopes,
  storedUser,
  toUser,
  type User,
  type UserRow,
} from '../auth/users.ts';
import type { AccountRow, Accounts, SignInThrottle, Tokens } from '../store/store.ts';

class PgTokens implements Tokens {
  private readonly sql: Sql;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(sql: Sql, options: { ttlMs: number; now?: () => number }) {
    this.sql = sql;
    this.ttlMs = options.ttlMs;
    this.now = options.now ?? Date.now;
  }

  get ttlSeconds(): number {
    return Math.max(1, Math.round(this.ttlMs / 1000));
  }

  async issue(userId: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.sql`DELETE FROM tokens WHERE expires_at <= ${now} OR revoked = 1`;
    await this.sql`INSERT INTO tokens (token_hash, user_id, expires_at)
                   VALUES (${hashToken(token)}, ${userId}, ${now + this.ttlMs})`;
    return token;
  }

  async verify(token: string): Promise<TokenOwner | undefined> {
    const [row] = await this.sql<{ userId: number; username: string; scopes: string }[]>`
      SELECT id AS "userId", username, scopes FROM users
      WHERE id = (SELECT user_id FROM tokens
                  WHERE token_hash = ${hashToken(token)} AND revoked = 0 AND expires_at > ${this.now()})`;
    return row && { userId: row.userId, username: row.username, scopes: parseScopes(row.scopes) };
  }

  async revoke(token: string): Promise<void> {
    await this.sql`UPDATE tokens SET revoked = 1 WHERE token_hash = ${hashToken(token)}`;
  }
}

/**
 * One row per counted failure. A reservation runs in a transaction holding an advisory lock on the client's
 * key, which both of its counts share: two attempts from one client, on any two processes, are judged one
 * after the other, so they can never both take the last free attempt. Failures past the window are deleted
 * as reservations come, so the table holds at most the window's failures.
 */
class PgThrottle implements SignInThrottle {
  private readonly sql: Sql;
  private readonly options: ThrottleOptions;
  private readonly now: () => number;

  constructor(sql: Sql, options: ThrottleOptions) {
    this.sql = sql;
    this.options = options;
    this.now = options.now ?? Date.now;
  }

  reserve(username: string, address: string): Promise<Reservation> {
    const { userKey, addressKey } = throttleKeys(username, address);
    const { perUser, perAddress, windowMs } = this.options;
    return this.sql.begin(async (tx): Promise<Reservation> => {
      await tx`SELECT pg_advisory_xact_lock(hashtextextended(${addressKey}, 0))`;
      const now = this.now();
      const since = now - windowMs;
      await tx`DELETE FROM sign_in_failures WHERE at <= ${since}`;
      const rows = await tx<{ key: string; at: number }[]>`
        SELECT key, at::float8 AS at FROM sign_in_failures
        WHERE key IN (${userKey}, ${addressKey}) AND at > ${since} ORDER BY at, id`;
      const times = (key: string) => rows.filter((row) => row.key === key).map((row) => row.at);
      const retryAfter = Math.max(
        secondsUntilAllowed(times(userKey), perUser, windowMs, now),
        secondsUntilAllowed(times(addressKey), perAddress, windowMs, now),
      );
      if (retryAfter > 0) return { allowed: false, retryAfter };
      const [counted] = await tx<{ id: string }[]>`
        INSERT INTO sign_in_failures (key, at) VALUES (${addressKey}, ${now}), (${userKey}, ${now})
        RETURNING id::text`;
      return {
        allowed: true,
        attempt: {
          // The user's count is cleared; the client's gives back this attempt only.
          succeeded: async () => {
            await this.sql`DELETE FROM sign_in_failures
                           WHERE key = ${userKey} OR id = ${counted?.id ?? '0'}::bigint`;
          },
        },
      };
    });
  }
}

export function pgAccounts(sql: Sql): Accounts {
  return {
    findUser: async (username) => {
      const [row] = await sql<AccountRow[]>`
        SELECT id, username, password_hash, scopes FROM users WHERE username = ${username}`;
      return row;
    },
    replacePasswordHash: async (userId, oldHash, newHash) => {
      await sql`UPDATE users SET password_hash = ${newHash} WHERE id = ${userId} AND password_hash = ${oldHash}`;
    },
    tokens: (options) => new PgTokens(sql, options),
    throttle: (options) => new PgThrottle(sql, options),
  };
}

/** `npm run users` on PostgreSQL: the operations of auth/users.ts, with the same rules and messages. */
export const pgUsers = {
  async add(
    sql: Sql,
    username: string,
    password: string,
    scopes: Scope[],
    options: { replace?: boolean; cost?: ScryptCost; passwordHash?: string } = {},
  ): Promise<User> {
    checkAccount(username, password, scopes);
    const [existing] = await sql`SELECT 1 FROM users WHERE username = ${username}`;
    checkNew(username, existing !== undefined, options);
    const hash = options.passwordHash ?? (await hashPassword(password, options.cost));
    const [row] = await sql.begin(async (tx) => {
      const stored = await tx<UserRow[]>`
        INSERT INTO users (username, password_hash, scopes, created_at)
        VALUES (${username}, ${hash}, ${scopes.join(',')}, ${new Date().toISOString()})
        ON CONFLICT (username) DO UPDATE SET password_hash = excluded.password_hash, scopes = excluded.scopes
        RETURNING *`;
      await tx`DELETE FROM tokens WHERE user_id = ${stored[0]?.id ?? 0}`;
      return stored;
    });
    return storedUser(username, row);
  },

  async changePassword(sql: Sql, username: string, password: string, options: { cost?: ScryptCost } = {}) {
    checkPassword(password);
    const [user] = await sql<{ id: number }[]>`SELECT id FROM users WHERE username = ${username}`;
    if (!user) return false;
    const hash = await hashPassword(password, options.cost);
    return sql.begin(async (tx) => {
      const updated = await tx`UPDATE users SET password_hash = ${hash} WHERE id = ${user.id} RETURNING id`;
      if (updated.length === 0) return false;
      await tx`DELETE FROM tokens WHERE user_id = ${user.id}`;
      return true;
    });
  },

  async list(sql: Sql): Promise<User[]> {
    return (await sql<UserRow[]>`SELECT * FROM users ORDER BY username`).map(toUser);
  },

  async remove(sql: Sql, username: string): Promise<boolean> {
    // Tokens go with the account (ON DELETE CASCADE), in the same statement.
    const removed = await sql`DELETE FROM users WHERE username = ${username} RETURNING id`;
    return removed.length > 0;
  },
};
