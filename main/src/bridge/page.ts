/**
 * What the bridge sends the browser besides the renderer's own files: the page with one script added, that
 * script (the Electron shim followed by the real preload bundle), and the CSP.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../security/policy.ts';

/** Where the bridge's own files live, under the secret; the renderer's build never uses this folder name. */
export const BRIDGE_FOLDER = '__bridge';
export const PRELOAD_SCRIPT = `${BRIDGE_FOLDER}/preload.js`;

/**
 * The app's CSP, with only the bridge's own origin added where the shim needs it: its event socket. Fetches
 * to the page's origin are already 'self'.
 */
export function bridgeContentSecurityPolicy(origin: string): string {
  const socketOrigin = origin.replace(/^http:/, 'ws:');
  return CONTENT_SECURITY_POLICY.replace("connect-src 'self'", `connect-src 'self' ${socketOrigin}`);
}

/**
 * Adds the preload as a classic script before the renderer's first script. Classic scripts run while the
 * page is parsed and module scripts only after, so the preload runs first, as it does in Electron.
 */
export function withPreload(html: string): string {
  const tag = `<script src="./${PRELOAD_SCRIPT}"></script>`;
  const firstScript = html.search(/<script\b/i);
  if (firstScript !== -1) return `${html.slice(0, firstScript)}${tag}\n    ${html.slice(firstScript)}`;
  const headEnd = html.search(/<\/head>/i);
  if (headEnd === -1) throw new Error("The renderer's index.html has neither a <script> nor a </head>.");
  return `${html.slice(0, headEnd)}${tag}\n  ${html.slice(headEnd)}`;
}

/**
 * The shim, then the preload bundle run as the CommonJS module it was built as, with `require('electron')`
 * answered by the shim. Everything stays inside one function, so nothing leaks into the page's globals.
 */
export async function preloadScript(preloadFile: string): Promise<string> {
  const [shim, preload] = await Promise.all([
    readFile(join(import.meta.dirname, 'page-shim.js'), 'utf8'),
    readFile(preloadFile, 'utf8'),
  ]);
  return [
    '(function () {',
    "'use strict';",
    shim,
    'const electron = createBridgeElectron();',
    'const module = { exports: {} };',
    'const require = (name) => {',
    "  if (name === 'electron') return electron;",
    // A sandboxed Electron preload cannot load other modules either; the bundle is self-contained.
    "  throw new Error('The preload may require only electron, not ' + name + '.');",
    '};',
    '(function (require, module, exports) {',
    preload,
    '})(require, module, module.exports);',
    '})();',
    '',
  ].join('\n');
}
