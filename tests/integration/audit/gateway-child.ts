/**
 * A gateway process of the audit crash test (audit-durable.test.ts): the gateway app over the services
 * named by the *_SERVICE_URL variables, as gateway/src/server.ts runs it. Run as
 * `node --import tsx gateway-child.ts`; prints `READY <port>` once it listens. The test kills it.
 */
import { register } from 'node:module';

register('../jobs/sql-loader.mjs', import.meta.url);
const { createCache, createLogger, listen, loadEnv, resolveContextSecret } = await import('@portal/core');
const { buildGateway } = await import('@portal/gateway');

const env = loadEnv(['gateway']);
const log = createLogger(env, 'gateway');
const app = await buildGateway(
  {
    env,
    cache: createCache(env, log),
    log,
    contextSecret: resolveContextSecret(env),
    upstreams: {
      case: env.CASE_SERVICE_URL,
      user: env.USER_SERVICE_URL,
      docs: env.DOCS_SERVICE_URL,
      builder: env.BUILDER_SERVICE_URL,
    },
  },
  { watchTenants: false },
);
const url = await listen(app, 0, '127.0.0.1');
process.stdout.write(`READY ${new URL(url).port}\n`);
