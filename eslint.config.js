// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
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
 * packages its process allows). A folder's rule repeats its process boundary, because a later config's
 * options for a rule replace an earlier one's. Sibling folders are matched as relative imports
 * (`../session/…`, `../../data/…`), so shared/'s folders of the same name are not.
 * @param {string} root the process's source folder, e.g. "main/src"
 * @param {Record<string, string[]>} allowed each folder, and the folders it may import
 * @param {string[]} folders project folders in other processes (the process boundary)
 * @param {(folder: string) => string[]} modules packages or builtins a folder must not load
 */
function layers(root, allowed, folders, modules) {
  const names = Object.keys(allowed);
  return names.map((folder) => ({
    files: [`${root}/${folder}/**`],
    rules: boundary(
      folders,
      modules(folder),
      names
        .filter(
          (other) => other !== folder && !other.startsWith(`${folder}/`) && !allowed[folder]?.includes(other),
        )
        .map((other) => ({
          regex: `^(\\.\\./)+${other.replaceAll('/', '\\/')}/`,
          message: `${root}/${folder} is below ${root}/${other} in the layers (docs/architecture.md) and must not import it.`,
        })),
    ),
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

/** The server's layers, lowest first. */
const SERVER_LAYERS = {
  db: [],
  repositories: ['db'],
  workers: ['db', 'repositories'],
  http: ['db', 'repositories', 'workers'],
  auth: ['db', 'repositories', 'workers', 'http'],
  data: ['db', 'auth'],
  routes: ['db', 'repositories', 'workers', 'http', 'auth'],
  cli: ['db', 'repositories', 'workers', 'http', 'auth', 'data', 'routes'],
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
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
