/**
 * bench:export's build of main: the app's own main configuration (electron.vite.config.ts: its plugins,
 * dependencies left external), with the benchmark's export process as the entry beside the export's two
 * worker entries, so the benchmark runs the bundled code the app ships rather than the TypeScript sources.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import app from '../../electron.vite.config.ts';

const root = resolve(import.meta.dirname, '../..');

export default defineConfig({
  main: {
    ...app.main,
    build: {
      rollupOptions: {
        input: {
          'export-in-main': resolve(import.meta.dirname, 'export-in-main.ts'),
          'writer-worker': resolve(root, 'main/src/export/writer-worker.ts'),
          'reader-worker': resolve(root, 'main/src/export/reader-worker.ts'),
        },
      },
    },
  },
});
