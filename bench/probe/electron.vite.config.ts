/**
 * The app as the benchmarks that drive it in Chromium build it: the app's own configuration
 * (electron.vite.config.ts), with the data pipeline's probe (renderer/src/data/probe.ts) loaded beside the
 * app's entry in index.html. The shipped app is built without it, so no build a user runs has the probe.
 *
 * electron-vite bundles this file with the app's configuration into this folder, so the app's paths, made
 * from its own folder, come out under bench/probe/: each is taken back to the project's root.
 */
import { relative, resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import app from '../../electron.vite.config.ts';

const root = resolve(import.meta.dirname, '../..');
const fromRoot = (path: string) => resolve(root, relative(import.meta.dirname, path));
const inputs = (input: unknown) =>
  Object.fromEntries(
    Object.entries(input as Record<string, string>).map(([name, path]) => [name, fromRoot(path)]),
  );

const withProbe: Plugin = {
  name: 'waste-tracker-bench-probe',
  // Before Vite reads the page's scripts, so the probe is bundled as an entry of its own.
  transformIndexHtml: {
    order: 'pre',
    handler: (html) =>
      html.replace('</body>', '    <script type="module" src="./src/data/probe.ts"></script>\n  </body>'),
  },
};

export default defineConfig({
  main: {
    ...app.main,
    build: { rollupOptions: { input: inputs(app.main?.build?.rollupOptions?.input) } },
  },
  preload: {
    ...app.preload,
    build: {
      ...app.preload?.build,
      rollupOptions: {
        ...app.preload?.build?.rollupOptions,
        input: inputs(app.preload?.build?.rollupOptions?.input),
      },
    },
  },
  renderer: {
    ...app.renderer,
    root: resolve(root, 'renderer'),
    plugins: [...(app.renderer?.plugins ?? []), withProbe],
    build: { rollupOptions: { input: inputs(app.renderer?.build?.rollupOptions?.input) } },
  },
});
