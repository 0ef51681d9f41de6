import react from '@vitejs/plugin-react';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import { resolve } from 'node:path';

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'main/src/index.ts'),
          // An export's writer and reader threads, loaded by main/src/export/export-threads.ts from beside the bundle.
          'writer-worker': resolve(import.meta.dirname, 'main/src/export/writer-worker.ts'),
          'reader-worker': resolve(import.meta.dirname, 'main/src/export/reader-worker.ts'),
        },
      },
    },
  },
  // A sandboxed preload can load neither ES modules nor packages: one self-contained CommonJS file.
  preload: {
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'preload/src/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    plugins: [react()],
    build: { rollupOptions: { input: { index: resolve(import.meta.dirname, 'renderer/index.html') } } },
  },
});
