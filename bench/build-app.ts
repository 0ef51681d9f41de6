/** The app built for a benchmark that runs it in Chromium through the bridge. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/**
 * The built app's folder: `out/` as it is with `skipBuild`, else a fresh electron-vite build of the working
 * tree into a temporary folder, which `cleanups` removes.
 */
export function buildBenchApp(skipBuild: boolean, cleanups: (() => Promise<unknown>)[]): string {
  if (skipBuild) {
    const out = resolve(root, 'out');
    if (!existsSync(resolve(out, 'renderer/index.html')))
      throw new Error('--skip-build: out/ has no built renderer; run npx electron-vite build first.');
    return out;
  }
  const folder = mkdtempSync(join(tmpdir(), 'waste-tracker-bench-'));
  cleanups.push(() => Promise.resolve(rmSync(folder, { recursive: true, force: true })));
  const out = join(folder, 'out');
  console.error('Building the app (electron-vite)…');
  const build = spawnSync(
    process.execPath,
    [
      resolve(root, 'node_modules/electron-vite/bin/electron-vite.js'),
      'build',
      '--logLevel',
      'error',
      '--outDir',
      out,
    ],
    { cwd: root, stdio: 'inherit', timeout: 180_000 },
  );
  if (build.status !== 0)
    throw new Error('The app did not build (electron-vite build); see the output above.');
  return out;
}
