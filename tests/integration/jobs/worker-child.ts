/**
 * A worker process of the crash tests: runner mode `worker` (runWorker, with
 * its health route and SIGTERM handling) running the test job kinds. Run as
 * `node --import tsx worker-child.ts` with the worker's environment (plus
 * TEST_JOB_LIVENESS, JSON heartbeat timings); prints `READY <health port>`
 * once it takes jobs.
 */
import { register } from 'node:module';

register('./sql-loader.mjs', import.meta.url);
const { loadEnv } = await import('@portal/core');
const { runWorker } = await import('../../../services/runner/src/worker');
const { TEST_JOBS } = await import('./test-jobs');

const liveness = JSON.parse(process.env.TEST_JOB_LIVENESS ?? '{}') as {
  heartbeatSeconds?: number;
  deadAfterSeconds?: number;
};
const { port } = await runWorker(loadEnv(['worker']), TEST_JOBS, liveness);
process.stdout.write(`READY ${port}\n`);
