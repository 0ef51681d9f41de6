// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { posix } from 'node:path';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Folders are process boundaries: each folder may import only what can run where it runs.
 * A wrong import fails lint, not review.
 * @param {string[]} folders project folders this code must not reach into
 * @param {string[]} modules package or builtin patterns this code must not load
 */
function boundary(folders, modules, layerPatterns = []) {
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...layerPatterns,
          ...folders.map((folder) => ({
            group: [`**/${folder}/**`, `${folder}/**`],
            message: `This folder runs in another process and must not import ${folder}/.`,
          })),
          ...modules.map((module) => ({
            group: [module],
            message: `${module} cannot run where this code runs.`,
          })),
        ],
      },
    ],
  };
}

/**
 * Layers inside a process: each folder of `root` imports only the folders listed for it (and shared/ and the
 * packages its process allows), and the files at `root` itself (the entry and the shell, above the folders)
 * only where it lists '.'. A folder's rule repeats its process boundary, because a later config's options for a rule replace
 * an earlier one's. Imports are matched by the relative path from the folder to each forbidden one
 * (`../session/x.ts`, `../../data/x.ts`, `../x.ts` from a nested folder to its parent), to files directly in
 * it: a nested folder is a layer of its own.
 * @param {string} root the process's source folder, e.g. "main/src"
 * @param {Record<string, string[]>} allowed each folder (every folder with files, nested ones too), and the
 *   folders it may import
 * @param {string[]} folders project folders in other processes (the process boundary)
 * @param {(folder: string) => string[]} modules packages or builtins a folder must not load
 */
function layers(root, allowed, folders, modules) {
  const names = Object.keys(allowed);
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const into = (from, to) => {
    const path = posix.relative(from, to);
    return `^${escape(path.startsWith('.') ? path : `./${path}`)}/[^/]+$`;
  };
  return names.map((folder) => ({
    files: [`${root}/${folder}/**`],
    ignores: names.filter((other) => other.startsWith(`${folder}/`)).map((other) => `${root}/${other}/**`),
    rules: boundary(folders, modules(folder), [
      ...(allowed[folder]?.includes('.')
        ? []
        : [
            {
              regex: into(folder, ''),
              message: `${root}/${folder} must not import the files at ${root} itself.`,
            },
          ]),
      ...names
        .filter((other) => other !== folder && !allowed[folder]?.includes(other))
        .map((other) => ({
          regex: into(folder, other),
          message: `${root}/${folder} must not import ${root}/${other}: see the layers in docs/architecture.md.`,
        })),
    ]),
  }));
}

/** main's layers, lowest first: each may import only those listed (docs/architecture.md). */
const MAIN_LAYERS = {
  security: [],
  windows: [],
  api: [],
  settings: ['api'],
  session: ['api', 'settings'],
  export: ['api', 'session', 'settings'],
  ipc: ['api', 'export', 'security', 'session', 'settings'],
  bridge: ['api', 'export', 'ipc', 'security', 'session', 'settings'],
  electron: ['api', 'export', 'ipc', 'security', 'session', 'settings', 'windows'],
};

/** The renderer's layers, lowest first. */
const RENDERER_LAYERS = {
  base: [],
  data: ['base'],
  'offline/engine': [],
  offline: ['base', 'data', 'offline/engine'],
  state: ['base', 'data', 'offline'],
  components: ['base', 'data', 'offline', 'state'],
  exports: ['base', 'data', 'offline', 'offline/engine', 'state', 'components'],
  settings: ['base', 'data', 'components'],
  profile: ['base', 'data', 'offline', 'state', 'components', 'exports'],
  workspaces: ['base', 'data', 'offline', 'state', 'components', 'exports'],
};

/** window.tracker is main's surface: the data pipeline calls it, every other part of the renderer calls the pipeline. */
const ONLY_DATA_CALLS_MAIN = {
  object: 'window',
  property: 'tracker',
  message: 'Only renderer/src/data calls main (window.tracker); go through its pipeline.',
};

/** The server's layers, lowest first. */
const SERVER_LAYERS = {
  db: [],
  repositories: ['db'],
  workers: ['db', 'repositories'],
  http: ['db', 'repositories', 'workers'],
  auth: ['db', 'repositories', 'workers', 'http'],
  data: ['db', 'auth'],
  'data/demo': ['db', 'auth', 'data'],
  // The storage interface and SQLite's implementation of it; PostgreSQL's implementation above it.
  store: ['db', 'repositories', 'workers', 'http', 'auth'],
  postgres: ['db', 'repositories', 'workers', 'http', 'auth', 'store'],
  routes: ['db', 'repositories', 'workers', 'http', 'auth', 'store'],
  // The importer: what it hands a database (model), the writers and ledger written once as steps for both
  // databases (writers), each database's sink beside the other, and the run that reads the files on top.
  'import/model': [],
  'import/writers': ['data', 'import/model'],
  'import/sqlite': ['db', 'data', 'import/model', 'import/writers'],
  'import/postgres': ['db', 'data', 'postgres', 'import/model', 'import/writers'],
  import: ['data', 'postgres', 'import/model', 'import/sqlite', 'import/postgres'],
  // The command-line entries start the app (server/src/app.ts, server.ts): the top.
  cli: [
    'db',
    'repositories',
    'workers',
    'http',
    'auth',
    'data',
    'data/demo',
    'store',
    'postgres',
    'routes',
    'import',
    'import/model',
    'import/sqlite',
    'import/postgres',
    '.',
  ],
};

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', 'data', 'docs', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    files: ['shared/**'],
    rules: boundary(
      ['server', 'main', 'preload', 'renderer'],
      ['electron', 'node:*', 'react', 'react-dom', 'fs', 'path'],
    ),
  },
  {
    files: ['server/**'],
    rules: boundary(['main', 'preload', 'renderer'], ['electron', 'react', 'react-dom']),
  },
  {
    files: ['main/**'],
    rules: boundary(['server', 'preload', 'renderer'], ['react', 'react-dom']),
  },
  {
    files: ['preload/**'],
    rules: boundary(['server', 'main', 'renderer'], ['node:*', 'react', 'react-dom']),
  },
  ...layers('server/src', SERVER_LAYERS, ['main', 'preload', 'renderer'], () => [
    'electron',
    'react',
    'react-dom',
  ]),
  {
    // Only the adapters in main/src/electron/ and the entry touch Electron; the rest runs in plain Node tests.
    files: ['main/**'],
    ignores: ['main/src/electron/**', 'main/src/index.ts'],
    rules: boundary(['server', 'preload', 'renderer'], ['react', 'react-dom', 'electron']),
  },
  ...layers('main/src', MAIN_LAYERS, ['server', 'preload', 'renderer'], (folder) =>
    // Only the adapters in main/src/electron/ touch Electron; the rest runs in plain Node tests.
    folder === 'electron' ? ['react', 'react-dom'] : ['react', 'react-dom', 'electron'],
  ),
  {
    // The preload's builder takes ipcRenderer-like objects, so tests and a browser shim can reuse it.
    files: ['preload/**'],
    ignores: ['preload/src/index.ts'],
    rules: boundary(['server', 'main', 'renderer'], ['node:*', 'react', 'react-dom', 'electron']),
  },
  {
    files: ['renderer/**', 'test/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...boundary(['server', 'main', 'preload'], ['electron', 'node:*', 'fs', 'path']),
    },
  },
  {
    files: ['renderer/src/*'],
    rules: { 'no-restricted-properties': ['error', ONLY_DATA_CALLS_MAIN] },
  },
  ...layers('renderer/src', RENDERER_LAYERS, ['server', 'main', 'preload'], (folder) => [
    'electron',
    'node:*',
    'fs',
    'path',
    // The engine is pure TypeScript over rows: its storage is handed to it (offline/engine.worker.ts).
    ...(folder === 'offline/engine' ? ['dexie', 'react', 'react-dom', 'zustand'] : []),
  ]).map((layer) => ({
    ...layer,
    rules: {
      ...layer.rules,
      'no-restricted-properties': ['error', ONLY_DATA_CALLS_MAIN],
    },
  })),
  {
    files: ['renderer/src/data/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
