/**
 * npm run scan:electron: Doyensec's Electronegativity over the app's sources, failing on any HIGH or MEDIUM
 * finding. It is part of `npm test`, so a window that loses its sandbox or context isolation fails CI.
 *
 * It runs offline. The scanner fetches its translations from the network at start, and its HTTP client
 * throws an uncaught error when that request times out and retries; so its translation loader is replaced
 * with one that reads the translations the package ships. Its one network check (Electron releases with
 * security fixes, from GitHub) is left out: `npm outdated electron` answers that from the registry.
 */
import { Module, createRequire } from 'node:module';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
/**
 * The app's own sources: main (windows, sessions, shell), the preload, and the renderer's page with its CSP.
 * They are scanned as one tree because the scanner's global checks (CSP, navigation limits, permission
 * handlers) weigh findings across every file of one input.
 */
const INPUTS = ['main/src', 'preload/src', 'renderer/index.html', 'renderer/src'];
const ELECTRON_VERSION = '45.0.0';
const OFFLINE_EXCLUDED = ['AvailableSecurityFixesGlobalCheck'];
const FAILING_SEVERITIES = new Set(['HIGH', 'MEDIUM']);

/**
 * Findings the scanner marks "review required" that were reviewed and are safe, with the reason. Only
 * review-required findings can be listed, and a listed one that no longer appears fails the scan, so the
 * list cannot silently outlive the code it speaks for.
 */
const REVIEWED: readonly { id: string; file: string; reason: string }[] = [
  {
    id: 'OPEN_EXTERNAL_JS_CHECK',
    file: 'main/src/electron/shell.ts',
    reason:
      'the one call of shell.openExternal; it throws unless isAllowedExternalUrl (main/src/security/policy.ts, ' +
      'tested) accepts the URL: https: only, no user name or password; the IPC handler checks the same first',
  },
  {
    id: 'OPEN_EXTERNAL_JS_CHECK',
    file: 'renderer/src/data/tracker-data.ts',
    reason:
      "not Electron's shell: the renderer asks main over the typed IPC contract (shell.openExternal, input " +
      'validated by zod), and main refuses anything but an https: URL before calling the shell',
  },
  {
    id: 'PRELOAD_JS_CHECK',
    file: 'main/src/electron/app.ts',
    reason:
      'the preload is the bundled preload/src, which exposes through contextBridge exactly the methods of ' +
      'the IPC contract (shared/ipc) and no Electron or Node object, in a sandboxed, isolated renderer',
  },
];

interface Level {
  name: string;
}
interface Issue {
  id: string;
  file: string;
  location: { line: number; column: number };
  severity: Level;
  confidence: Level;
  description: string;
  manualReview?: boolean;
}
interface ScanResult {
  issues: Issue[];
  errors: { file: string; message: string; tolerable: boolean }[];
}
type Run = (options: Record<string, unknown>) => Promise<ScanResult>;

const require = createRequire(import.meta.url);
const runnerPath = require.resolve('@doyensec/electronegativity');
const scannerRequire = createRequire(runnerPath);

/** Puts an offline translation loader where the runner will require its own. */
function useShippedTranslations(): void {
  const i18nPath = join(dirname(runnerPath), 'locales', 'i18n.js');
  const i18n = scannerRequire('i18n') as {
    configure(options: Record<string, unknown>): void;
    setLocale(locale: string): void;
  };
  const load = (): Promise<void> => {
    i18n.configure({
      locales: ['en-US'],
      defaultLocale: 'en-US',
      directory: dirname(i18nPath),
      updateFiles: false,
      objectNotation: true,
      retryInDefaultLocale: true,
      register: globalThis,
    });
    i18n.setLocale('en-US');
    return Promise.resolve();
  };
  const cached = new Module(i18nPath);
  cached.filename = i18nPath;
  cached.loaded = true;
  cached.exports = load;
  require.cache[i18nPath] = cached;
}

async function main(): Promise<void> {
  useShippedTranslations();
  const run = scannerRequire(runnerPath) as Run;
  const tree = mkdtempSync(join(tmpdir(), 'electron-scan-'));
  let result: ScanResult;
  try {
    for (const input of INPUTS) cpSync(join(ROOT, input), join(tree, input), { recursive: true });
    result = await run({
      input: tree,
      excludeFromScan: OFFLINE_EXCLUDED,
      electronVersionOverride: ELECTRON_VERSION,
      isRelative: false,
    });
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
  for (const error of result.errors.filter((error) => !error.tolerable)) {
    console.error(`could not parse ${relative(tree, error.file)}: ${error.message}`);
    process.exitCode = 1;
  }
  const failing: Issue[] = [];
  const unmatched = new Set(REVIEWED);
  for (const issue of result.issues) {
    const file = issue.file === 'N/A' ? 'the app' : relative(tree, issue.file);
    const reviewed = issue.manualReview
      ? REVIEWED.find((entry) => entry.id === issue.id && entry.file === file)
      : undefined;
    const line = `${issue.severity.name} ${issue.confidence.name} ${issue.id} ${file}:${issue.location.line}`;
    if (reviewed) {
      unmatched.delete(reviewed);
      console.log(`${line} reviewed: ${reviewed.reason}`);
      continue;
    }
    console.log(`${line}${issue.manualReview ? ' (review required)' : ''}: ${issue.description}`);
    if (FAILING_SEVERITIES.has(issue.severity.name)) failing.push(issue);
  }
  for (const entry of unmatched) {
    console.error(
      `the reviewed finding ${entry.id} in ${entry.file} no longer appears; remove it from REVIEWED`,
    );
    process.exitCode = 1;
  }
  if (failing.length > 0) {
    console.error(`Electronegativity: ${failing.length} HIGH or MEDIUM finding(s).`);
    process.exitCode = 1;
  } else {
    console.log('Electronegativity: no HIGH or MEDIUM findings.');
  }
}

await main();
