import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';
import layers from './test/lint/layers.js';

export default ts.config(
  {
    ignores: [
      'dist/',
      'dist-lib/',
      'node_modules/',
      'test/.artifacts/',
      'test/bench/.cache/',
      'test-results/',
      'playwright-report/',
    ],
  },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-var': 'off',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        extraFileExtensions: ['.svelte'],
        parser: ts.parser,
        svelteConfig,
      },
    },
  },
  {
    // core is platform-free: the DOM and worker globals are not there (its tsconfig enforces the same).
    files: ['src/core/**/*.ts'],
    languageOptions: { globals: { ...globals.es2022 } },
    rules: {
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'navigator',
        'self',
        'localStorage',
        'indexedDB',
      ],
    },
  },
  {
    // The layering (test/lint/layers.js): core ← storage ← engine ← worker; lib ← core + the worker's protocol;
    // ui ← lib. SQL text only under src/storage/sqlite. test/unit/layers.test.ts plants a violation of each.
    files: ['src/**/*.ts', 'src/**/*.svelte'],
    plugins: { layers },
    rules: { 'layers/imports': 'error', 'layers/sql': 'error' },
  },
);
