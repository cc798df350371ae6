import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/** Benchmarks print their figures; they are not part of `npm test` (design §8). */
const sqlText: Plugin = {
  name: 'sql-text',
  transform(code, id) {
    if (id.endsWith('.sql')) return { code: `export default ${JSON.stringify(code)};`, map: null };
    return null;
  },
};

export default defineConfig({
  plugins: [sqlText],
  test: {
    name: 'bench',
    include: ['tests/bench/**/*-bench.ts'],
    environment: 'node',
    globalSetup: ['tests/bench/find-servers.ts'],
    testTimeout: 3_600_000,
    hookTimeout: 3_600_000,
    fileParallelism: false,
    disableConsoleIntercept: true,
  },
});
