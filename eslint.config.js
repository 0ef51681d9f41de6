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
function boundary(folders, modules) {
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
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
  {
    // Only the adapters in main/src/electron/ and the entry touch Electron; the rest runs in plain Node tests.
    files: ['main/**'],
    ignores: ['main/src/electron/**', 'main/src/index.ts'],
    rules: boundary(['server', 'preload', 'renderer'], ['react', 'react-dom', 'electron']),
  },
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
