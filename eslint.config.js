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
    // Type-aware rules need a TypeScript program: every file a tsconfig includes (tsconfig.json, or
    // src/core/tsconfig.json for core) is linted with its types. The .js/.mjs scripts around the build are not in
    // one and keep the syntax-only rules.
    files: ['src/**/*.ts', 'src/**/*.svelte', 'test/**/*.ts', 'vite.config.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // An async worker codebase: a promise nobody awaits loses its rejection. Await it, `.catch` it with a handler
      // that does something, or `void` it with a comment saying why fire-and-forget is right there.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: {
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
