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

/**
 * Files that replace a module with vi.mock: they need a module registry of their own (isolate), so they
 * run in a project of their own.
 */
const MOCKING_FILES = ['tests/integration/gateway/policy-coverage.test.ts'];

/**
 * Integration and browser test files spend most of their time waiting on Postgres, Redis, their own
 * stack and Chromium, so several run at once (vitest's default on 2 cores is one), and a worker keeps
 * its imported modules from file to file (isolate: false): importing the four services and the gateway
 * anew for every file was about half of the CPU of those steps. Each file still gets its own database,
 * Redis prefix, stack and browser (tests/support/test-env.ts).
 */
const sharedWorkers = (maxWorkers: number) => ({ maxWorkers, isolate: false });

/**
 * expect.poll gives up after 1 s by default: on a machine running several stacks at once a grid or a
 * job takes longer than that to show what it will show. A poll that succeeds returns at once.
 */
const patientPolls = { expect: { poll: { timeout: 10_000 } } };

/** What both integration projects share: the run's servers and template, and their time limits. */
const integration = {
  ...patientPolls,
  environment: 'node',
  globalSetup: ['tests/support/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 120_000,
} as const;

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
          // No unit test replaces a module: one module registry per worker, not per file.
          isolate: false,
          environment: 'node',
        },
      },
      {
        ...base,
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // Component tests walk several renders in jsdom: on a shared 2-core machine at a load of 10, two of
          // them took more than the default 5 s (CI, 2026-11-28).
          testTimeout: 20_000,
        },
      },
      {
        ...base,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          exclude: MOCKING_FILES,
          ...sharedWorkers(4),
          ...integration,
        },
      },
      {
        ...base,
        test: {
          name: 'integration-isolated',
          include: MOCKING_FILES,
          // After the integration files (vitest runs projects of different worker counts in turn).
          sequence: { groupOrder: 1 },
          ...integration,
        },
      },
      {
        ...base,
        test: {
          name: 'e2e',
          // Two at a time: with three, Chromium, three stacks and Postgres kept 2 cores at a load of 12-18
          // and tests that pass alone ran out of time.
          include: ['tests/e2e/**/*.test.ts'],
          ...sharedWorkers(2),
          ...patientPolls,
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
