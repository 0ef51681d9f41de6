/**
 * The security policy as plain decisions, testable without Electron: where the app's pages come from,
 * which files the app protocol may serve, what the CSP allows, which links may leave the app. The Electron
 * side that enforces these lives in main/src/electron/security.ts.
 */
import { extname, isAbsolute, relative, resolve } from 'node:path';

/** The renderer is served from app://tracker/, a standard secure scheme, never from file:// or the network. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'tracker';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * Starts from nothing and allows only the app's own files. Inline styles are allowed because the grid
 * library injects its theme as <style> elements; scripts stay 'self' only. The renderer reaches data
 * through window.tracker, never the network, so nothing remote is allowed anywhere.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  // The offline query engine runs in a Web Worker built into the app's own files; nothing else may start one.
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file under `root` an app:// URL names, or undefined for another host, an encoded trick or any path
 * that would leave `root`.
 */
export function resolveAppFile(requestUrl: string, root: string): string | undefined {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return undefined;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return undefined;
  const file = resolve(root, pathname === '/' ? 'index.html' : `.${pathname}`);
  const inside = relative(root, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  return file;
}

/** scheme://host[:port]; computed by hand because URL#origin is "null" for custom schemes such as app:. */
export function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.host === '' ? undefined : `${url.protocol}//${url.host}`;
  } catch {
    return undefined;
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * electron-vite's dev server (ELECTRON_RENDERER_URL) during development only: an unpackaged app, plain http
 * on loopback. Anything else is ignored and the built renderer is served from app://.
 */
export function devServerOrigin(value: string | undefined, isPackaged: boolean): string | undefined {
  if (isPackaged || !value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) ? originOf(value) : undefined;
  } catch {
    return undefined;
  }
}

/** The origins whose main frame may call main: the app protocol, plus the dev server in development. */
export function trustedOrigins(devOrigin: string | undefined): readonly string[] {
  return devOrigin ? [APP_ORIGIN, devOrigin] : [APP_ORIGIN];
}

const LOCAL_SCHEMES = new Set([`${APP_SCHEME}:`, 'data:', 'blob:', 'devtools:']);

/** Requests the renderer's session may make: its own files, inline data, and the dev server with its HMR socket. */
export function isAllowedRendererRequest(text: string, devOrigin: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (LOCAL_SCHEMES.has(url.protocol)) return true;
  if (!devOrigin) return false;
  const asHttp = url.protocol === 'ws:' ? `http://${url.host}` : originOf(text);
  return asHttp === devOrigin;
}

/** Links that may be handed to the user's browser: https only, no credentials in the URL. */
export function isAllowedExternalUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
