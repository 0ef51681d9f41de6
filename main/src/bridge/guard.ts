/**
 * Who may use the loopback bridge: only a caller that knows the per-run secret and speaks to the bridge by
 * its own loopback address. The secret is the first path segment of every URL, so the renderer's relative
 * URLs carry it without help; the Host and Origin checks stop a web page that resolved some other name to
 * 127.0.0.1 (DNS rebinding) or another local page from driving it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const BRIDGE_HOST = '127.0.0.1';

/** 32 random bytes, as URL-safe text. */
export function newBridgeSecret(): string {
  return randomBytes(32).toString('base64url');
}

export interface BridgeIdentity {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** 127.0.0.1:PORT, the only Host header the bridge answers. */
  host: string;
  secret: string;
}

export function bridgeIdentity(port: number, secret: string): BridgeIdentity {
  const host = `${BRIDGE_HOST}:${port}`;
  return { origin: `http://${host}`, host, secret };
}

export interface IncomingLike {
  url?: string | undefined;
  headers: { host?: string | undefined; origin?: string | undefined };
}

export type Verdict =
  | { allowed: true; /** The path after the secret: "/…", or "" for the bare secret. */ path: string }
  | { allowed: false; reason: string };

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `requireOrigin` is for calls that act (invocations, the event socket): a browser always sends Origin on
 * those, so a missing one means a caller that is not the bridge's own page.
 */
export function checkRequest(
  identity: BridgeIdentity,
  request: IncomingLike,
  options: { requireOrigin: boolean },
): Verdict {
  if (request.headers.host !== identity.host) return { allowed: false, reason: 'wrong Host' };
  const origin = request.headers.origin;
  if (origin === undefined ? options.requireOrigin : origin !== identity.origin) {
    return { allowed: false, reason: 'wrong or missing Origin' };
  }
  const url = request.url ?? '';
  if (!url.startsWith('/')) return { allowed: false, reason: 'no secret' };
  const end = url.indexOf('/', 1);
  const secret = url.slice(1, end === -1 ? undefined : end).split(/[?#]/, 1)[0] ?? '';
  if (!sameSecret(secret, identity.secret)) return { allowed: false, reason: 'no secret' };
  const rest = end === -1 ? '' : url.slice(end);
  return { allowed: true, path: rest.split(/[?#]/, 1)[0] ?? '' };
}
