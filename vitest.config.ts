import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/** Migrations are plain .sql files imported as text (the server bundle does the same with esbuild). */
const sqlText: Plugin = {
  name: 'sql-text',
  transform(code, id) {
    if (id.endsWith('.sql')) return { code: `export default ${JSON.stringify(code)};`, map: null };
    return null;
  },
};

const base = { plugins: [sqlText] };

export default defineConfig({
  ...base,
  test: {
    projects: [
      {
        ...base,
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'gateway/src/**/*.test.ts',
            'services/*/src/**/*.test.ts',
            'tests/static/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        ...base,
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
      {
        ...base,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        ...base,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
