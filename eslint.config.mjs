// One lint setup for every package.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./web/src/features', import.meta.url));
/** The services the runner composes (services/runner is the composer, free to import them). */
const SERVICES = ['case', 'user', 'docs', 'builder'];
const SIDEWAYS =
  'Features never import each other: move what they share to web/src/components or web/src/lib, or compose them in web/src/app.';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // Configuration is parsed once at boot (packages/core/src/env.ts); scripts and tests set up processes.
    files: ['gateway/src/**', 'services/*/src/**', 'packages/*/src/**'],
    ignores: ['packages/core/src/env.ts', 'services/runner/src/main.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through loadEnv() in @portal/core.',
        },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // TanStack Query's strict set (STYLE.md): complete query keys, one stable client, and every query
  // file exports its queryOptions, which hooks, prefetches and invalidations use (prefer-query-options).
  ...pluginQuery.configs['flat/recommended-strict'].map((config) => ({
    ...config,
    files: ['web/src/**/*.{ts,tsx}'],
  })),
  {
    // Import direction (STYLE.md, bulletproof-react): shared -> features -> app, never sideways;
    // services never import the gateway or each other, the gateway never a service (only the runner
    // composes them); no import cycles.
    files: [
      'web/src/**/*.{ts,tsx}',
      'services/*/src/**/*.ts',
      'packages/*/src/**/*.ts',
      'gateway/src/**/*.ts',
    ],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
      // no-cycle reads the imported files: TypeScript ones too.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((f) => ({
              target: `./web/src/features/${f}`,
              from: './web/src/features',
              except: [`./${f}`],
              message: SIDEWAYS,
            })),
            {
              target: ['./web/src/components', './web/src/lib'],
              from: ['./web/src/features', './web/src/app'],
              message: 'Shared code never imports features or the app.',
            },
            {
              target: './web/src/features',
              from: './web/src/app',
              message: 'Features never import the app: the app composes features.',
            },
            {
              target: [
                './services/case',
                './services/user',
                './services/docs',
                './services/builder',
                './packages',
              ],
              from: './gateway',
              message: 'Services never import the gateway: only the runner composes them.',
            },
            ...SERVICES.map((name) => ({
              target: `./services/${name}`,
              from: './services',
              except: [`./${name}`],
              message: 'Services never import each other: they talk over internal routes or jobs.',
            })),
            {
              target: './gateway',
              from: './services',
              message:
                'The gateway never imports a service: it proxies to them (only the runner composes them).',
            },
          ],
        },
      ],
    },
  },
);
