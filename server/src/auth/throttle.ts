/**
 * Login throttling: failed attempts are counted per user name + address and per address alone, in a sliding
 * window; past the limit a login is refused with 429 and Retry-After until the oldest failure ages out.
 * A successful login clears the user + address count. Kept in memory: it protects one server process.
 */
export interface ThrottleOptions {
  /** Failures allowed per user name and address within the window. */
  perUser: number;
  /** Failures allowed per address (any user name) within the window. */
  perAddress: number;
  windowMs: number;
  now?: () => number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { perUser: 5, perAddress: 20, windowMs: 15 * 60 * 1000 };

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly options: ThrottleOptions;
  private readonly now: () => number;

  constructor(options: ThrottleOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
  }

  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfter(username: string, address: string): number {
    const now = this.now();
    const waits = [
      this.wait(`user:${username.toLowerCase()}|${address}`, this.options.perUser, now),
      this.wait(`address:${address}`, this.options.perAddress, now),
    ];
    return Math.max(...waits);
  }

  fail(username: string, address: string): void {
    const now = this.now();
    for (const key of [`user:${username.toLowerCase()}|${address}`, `address:${address}`]) {
      const list = this.recent(key, now);
      list.push(now);
      this.failures.set(key, list);
    }
  }

  succeed(username: string, address: string): void {
    this.failures.delete(`user:${username.toLowerCase()}|${address}`);
  }

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((time) => time > now - this.options.windowMs);
    if (list.length === 0) this.failures.delete(key);
    return list;
  }

  private wait(key: string, limit: number, now: number): number {
    const list = this.recent(key, now);
    if (list.length < limit) return 0;
    const oldestThatCounts = list[list.length - limit] ?? now;
    return Math.max(1, Math.ceil((oldestThatCounts + this.options.windowMs - now) / 1000));
  }
}
