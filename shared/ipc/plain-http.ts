/**
 * Plain http:// to a server that is not on this computer: the password at sign-in, the token on every call
 * and every row come back readable by anyone on the network path (a shared Wi-Fi, a proxy). The app refuses
 * such an address unless the user confirms a clear warning for that server; the confirmation is kept per
 * server (Settings.plainHttpServers). Loopback addresses never leave the computer and need no confirmation.
 */

/** Host names that stay on this computer. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/**
 * The origin of `baseUrl` when it is plain http:// to another computer, e.g. "http://tracker.example.gov";
 * undefined for https://, loopback, or an address that does not parse.
 */
export function plainHttpOrigin(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname) ? url.origin : undefined;
}

/** Whether `baseUrl` may be used as it stands: not plain http to another computer, or confirmed for it. */
export function plainHttpAllowed(baseUrl: string, confirmed: readonly string[]): boolean {
  const origin = plainHttpOrigin(baseUrl);
  return origin === undefined || confirmed.includes(origin);
}

export const PLAIN_HTTP_MESSAGES = {
  warning: (origin: string) =>
    `${origin} uses plain http://: your password, your session and every row you see would cross the network unencrypted, readable by anyone on the way. Use its https:// address if it has one.`,
  refused: (origin: string) =>
    `${origin} uses plain http://, which would send your password and data unencrypted; confirm the warning to use it anyway, or use its https:// address.`,
  confirm: 'I understand: use this server without encryption',
} as const;
