// eslint flat config: the recommended rules over the extension (browser + chrome.*),
// the runner and the tests (Node). tsc checks types; eslint catches the rest.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['node_modules/**', 'dist/**', 'pkg/**', 'target/**', 'out/**'] },
  js.configs.recommended,
  {
    files: ['extension/**/*.js'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.serviceworker, ...globals.webextensions },
    },
  },
  {
    files: ['runner/**/*.{js,mjs}', 'tests/**/*.{js,mjs}', 'eslint.config.js'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      // chrome.*: the functions passed to page.evaluate run in the extension's pages.
      globals: { ...globals.node, ...globals.browser, ...globals.webextensions },
    },
  },
  {
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
];
