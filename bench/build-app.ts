/**
 * The app built for a benchmark that runs it in Chromium through the bridge: as it ships, or with the data
 * pipeline's probe (bench/probe/electron.vite.config.ts) for a benchmark that times the pipeline itself.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** Where the build with the probe is kept, so `--skip-build` can serve it again. */
const PROBE_OUT = resolve(root, 'out/bench-probe');

/**
 * The built app's folder. As it ships: `out/` as it is with `skipBuild`, else a fresh electron-vite build of
 * the working tree into a temporary folder, which `cleanups` removes. With the probe: out/bench-probe, built
 * afresh unless `skipBuild` finds it there.
 */
export function buildBenchApp(
  skipBuild: boolean,
  cleanups: (() => Promise<unknown>)[],
  { probe = false }: { probe?: boolean } = {},
): string {
  const built = probe ? PROBE_OUT : resolve(root, 'out');
  if (skipBuild) {
    if (!existsSync(resolve(built, 'renderer/index.html')))
      throw new Error(
        probe
          ? '--skip-build: out/bench-probe has no built renderer; run the benchmark once without --skip-build.'
          : '--skip-build: out/ has no built renderer; run npx electron-vite build first.',
      );
    return built;
  }
  let out = PROBE_OUT;
  if (!probe) {
    const folder = mkdtempSync(join(tmpdir(), 'waste-tracker-bench-'));
    cleanups.push(() => Promise.resolve(rmSync(folder, { recursive: true, force: true })));
    out = join(folder, 'out');
  }
  console.error('Building the app (electron-vite)…');
  const build = spawnSync(
    process.execPath,
    [
      resolve(root, 'node_modules/electron-vite/bin/electron-vite.js'),
      'build',
      ...(probe ? ['--config', resolve(import.meta.dirname, 'probe/electron.vite.config.ts')] : []),
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
