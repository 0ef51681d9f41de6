/**
 * The part of a client's address that one client controls, for counting its failed sign-ins: an IPv4
 * address as it is, an IPv6 address by its /64. One home or office is given at least a /64, so keyed by the
 * full address a client could try a new password from each of 2^64 addresses and never be throttled.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The eight groups of an IPv6 address (zone removed, `::` expanded, an embedded IPv4 tail as two groups). */
function groupsOf(address: string): number[] | undefined {
  let text = address.split('%')[0] ?? '';
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail && isIPv4(tail)) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${text.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const missing = 8 - left.length - right.length;
  if (rest === undefined ? missing !== 0 : missing < 1) return undefined;
  const groups = [...left, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...right];
  return groups.map((group) => Number.parseInt(group, 16));
}

/** The key a client's failures are counted under: "192.0.2.7", or "2001:db8:1:2::/64". */
export function clientKey(address: string): string {
  if (isIPv4(address)) return address;
  if (!isIPv6(address.split('%')[0] ?? '')) return address;
  const groups = groupsOf(address);
  if (!groups) return address;
  // An IPv4 client seen through an IPv6 socket (::ffff:192.0.2.7) is the IPv4 client.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
