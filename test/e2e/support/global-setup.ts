/**
 * Builds the app once before the suite (electron-vite: main, the preload bundle, the renderer), so every
 * test runs the same files `npm start` would. E2E_SKIP_BUILD=1 reuses an existing out/ when iterating.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { BUILD_ROOT } from './app.ts';

export default function globalSetup(): void {
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync(resolve(BUILD_ROOT, 'renderer/index.html'))) return;
  const root = resolve(import.meta.dirname, '../../..');
  const build = spawnSync(
    process.execPath,
    [resolve(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0)
    throw new Error('The app did not build (electron-vite build); see the output above.');
}
