/**
 * Login throttling: failed attempts are counted per user name + address and per address alone, in a sliding
 * window; past the limit a login is refused with 429 and Retry-After until the oldest failure ages out.
 *
 * An attempt is reserved (counted as a failure) before its password is checked, and the reservation is
 * given back when the password was right: checking takes about a second, and guesses sent at once would
 * otherwise all be judged before the first failure was counted. A successful login also clears the
 * user + address count. Kept here in memory for one server process (SQLite); several processes on one
 * PostgreSQL database keep the same counts in it (postgres/pg-accounts.ts).
 *
 * An address is counted by what one client controls (client-address.ts: an IPv6 address by its /64). The
 * counts are kept in the order they last changed: those whose failures have all aged out are dropped as
 * new ones come, and past `maxKeys` the oldest go first, so no stream of new addresses grows memory
 * without bound.
 */
import { clientKey } from './client-address.ts';

export interface ThrottleOptions {
  /** Failures allowed per user name and address within the window. */
  perUser: number;
  /** Failures allowed per address (any user name) within the window. */
  perAddress: number;
  windowMs: number;
  /** Counts kept at most (user + address and address keys together); the oldest go first. */
  maxKeys?: number;
  now?: () => number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { perUser: 5, perAddress: 20, windowMs: 15 * 60 * 1000 };

/** About 100 bytes a count: at most a few MB, far more clients than one server sees failing at once. */
export const DEFAULT_MAX_KEYS = 50_000;

/**
 * The seconds until one more attempt is allowed under a count whose failures within the window happened at
 * `recent` (oldest first), or 0 when one is allowed now: the rule both the in-memory throttle and the one
 * kept in PostgreSQL (postgres/pg-accounts.ts) apply.
 */
export function secondsUntilAllowed(
  recent: readonly number[],
  limit: number,
  windowMs: number,
  now: number,
): number {
  if (recent.length < limit) return 0;
  const oldestThatCounts = recent[recent.length - limit] ?? now;
  return Math.max(1, Math.ceil((oldestThatCounts + windowMs - now) / 1000));
}

/** The keys a sign-in attempt is counted under: user name + client, and the client alone. */
export function throttleKeys(username: string, address: string): { userKey: string; addressKey: string } {
  const client = clientKey(address);
  return { userKey: `user:${username.toLowerCase()}|${client}`, addressKey: `address:${client}` };
}

/** A reserved attempt: a failure unless `succeeded()` is called. */
export interface LoginAttempt {
  succeeded(): void | Promise<void>;
}

export type Reservation = { allowed: true; attempt: LoginAttempt } | { allowed: false; retryAfter: number };

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly options: ThrottleOptions;
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(options: ThrottleOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  }

  /**
   * Counts one attempt now, or refuses it with the seconds until one is allowed. Synchronous, so two
   * requests can never both take the last free attempt.
   */
  reserve(username: string, address: string): Reservation {
    const now = this.now();
    const { userKey, addressKey } = throttleKeys(username, address);
    const retryAfter = Math.max(
      this.wait(userKey, this.options.perUser, now),
      this.wait(addressKey, this.options.perAddress, now),
    );
    if (retryAfter > 0) return { allowed: false, retryAfter };
    for (const key of [userKey, addressKey]) {
      const list = [...this.recent(key, now), now];
      // Moved to the end: the map stays in the order its counts last changed.
      this.failures.delete(key);
      this.failures.set(key, list);
    }
    this.prune(now);
    return {
      allowed: true,
      attempt: {
        succeeded: () => {
          this.failures.delete(userKey);
          this.giveBack(addressKey, now);
        },
      },
    };
  }

  /** Drops counts whose failures have all aged out, oldest first, and the oldest past `maxKeys`. */
  private prune(now: number): void {
    for (const [key, list] of this.failures) {
      const current = (list.at(-1) ?? 0) > now - this.options.windowMs;
      if (current && this.failures.size <= this.maxKeys) return;
      this.failures.delete(key);
    }
  }

  private giveBack(key: string, time: number): void {
    const list = this.failures.get(key);
    const index = list?.lastIndexOf(time) ?? -1;
    if (!list || index < 0) return;
    list.splice(index, 1);
    if (list.length === 0) this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((time) => time > now - this.options.windowMs);
    if (list.length === 0) this.failures.delete(key);
    return list;
  }

  private wait(key: string, limit: number, now: number): number {
    return secondsUntilAllowed(this.recent(key, now), limit, this.options.windowMs, now);
  }
}
