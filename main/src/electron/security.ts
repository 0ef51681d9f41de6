// ===========================================================================================================
// SECURITY REGION — what the renderer may load, reach and do. Every line here is a deliberate restriction;
// loosening one needs a reason written beside it. The decisions themselves (CSP, which files, which
// origins, which links) live in main/src/security/policy.ts, where they are tested without Electron.
// ===========================================================================================================
import { readFile } from 'node:fs/promises';
import { app, protocol, type Session, type WebContents } from 'electron';
import {
  APP_SCHEME,
  CONTENT_SECURITY_POLICY,
  contentTypeOf,
  isAllowedRendererRequest,
  resolveAppFile,
} from '../security/policy.ts';

/**
 * Before `ready`: the app scheme must be standard (real origins, so CSP 'self', IndexedDB and relative URLs
 * work) and secure (no mixed-content downgrades). Every renderer is sandboxed, whatever a window asks for.
 */
export function hardenAppBeforeReady(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
}

/** No navigation away from the app, no new windows, no <webview>: the app is one page in one window. */
function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-frame-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** Every permission is refused, asked for or merely checked; the app needs none of them. */
export function hardenSession(session: Session, devOrigin: string | undefined): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback(null));
  // Nothing remote is ever loaded into the app: only its own files (and the dev server in development).
  session.webRequest.onBeforeRequest((details, callback) =>
    callback({ cancel: !isAllowedRendererRequest(details.url, devOrigin) }),
  );
}

/**
 * Serves the built renderer on app://tracker/ with the CSP as a response header (the renderer's meta tag
 * repeats it). Only files inside `root` are served; anything else is a 404.
 */
export function serveAppProtocol(root: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppFile(request.url, root);
    if (request.method !== 'GET' || file === undefined) return notFound();
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return notFound();
    }
    return new Response(new Uint8Array(body), {
      status: 200,
      headers: {
        'content-type': contentTypeOf(file),
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
        'cross-origin-opener-policy': 'same-origin',
        'referrer-policy': 'no-referrer',
      },
    });
  });
}

function notFound(): Response {
  return new Response('Not found', {
    status: 404,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'content-security-policy': CONTENT_SECURITY_POLICY,
    },
  });
}
// ===========================================================================================================
// END OF SECURITY REGION
// ===========================================================================================================
