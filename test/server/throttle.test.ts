/**
 * The sign-in throttle's memory and its keys: an IPv6 client is counted by its /64 (where it can pick any
 * of 2^64 addresses), an IPv4 client seen through an IPv6 socket as itself; counts that aged out are dropped,
 * and past the cap the oldest go first.
 */
import { describe, expect, it } from 'vitest';
import { clientKey } from '../../server/src/auth/client-address.ts';
import { LoginThrottle } from '../../server/src/auth/throttle.ts';

describe('the key a client is counted under', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::ffff:c000:0207', '192.0.2.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:1:2::', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.7', '64:ff9b:0:0::/64'],
  ])('%s is counted as %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});

const WINDOW = 60_000;

function throttle(options: { perAddress?: number; maxKeys?: number } = {}) {
  let now = 1_000_000;
  const limits = new LoginThrottle({
    perUser: 100,
    perAddress: options.perAddress ?? 100,
    windowMs: WINDOW,
    ...(options.maxKeys ? { maxKeys: options.maxKeys } : {}),
    now: () => now,
  });
  return { limits, advance: (ms: number) => (now += ms) };
}

describe('the sign-in throttle', () => {
  it('counts every address of one /64 together, and another /64 apart', () => {
    const { limits } = throttle({ perAddress: 3 });
    for (const host of ['1', '2', '3'])
      expect(limits.reserve('a', `2001:db8:1:2::${host}`).allowed).toBe(true);
    expect(limits.reserve('b', '2001:db8:1:2:ffff::9')).toMatchObject({ allowed: false });
    expect(limits.reserve('a', '2001:db8:1:3::1').allowed).toBe(true);
  });

  it('drops the oldest counts past its cap, so a stream of new addresses cannot grow it', () => {
    const { limits, advance } = throttle({ perAddress: 1, maxKeys: 10 });
    expect(limits.reserve('a', '198.51.100.1').allowed).toBe(true);
    expect(limits.reserve('a', '198.51.100.1').allowed).toBe(false);
    // Each new address adds two counts (user + address, address): five more push the first out.
    for (let host = 2; host <= 6; host += 1) {
      advance(1);
      expect(limits.reserve('a', `198.51.100.${host}`).allowed).toBe(true);
    }
    expect(limits.reserve('a', '198.51.100.1').allowed).toBe(true);
    expect(limits.reserve('a', '198.51.100.6').allowed).toBe(false);
  });

  it('forgets counts whose failures have aged out', () => {
    const { limits, advance } = throttle({ perAddress: 1 });
    expect(limits.reserve('a', '198.51.100.1').allowed).toBe(true);
    expect(limits.reserve('a', '198.51.100.1')).toMatchObject({ allowed: false, retryAfter: 60 });
    advance(WINDOW + 1);
    expect(limits.reserve('a', '198.51.100.1').allowed).toBe(true);
  });
});
