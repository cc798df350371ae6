/** The gateway as its own process (docker compose); services are reached by their URLs. */
import {
  closeOnSignals,
  createCache,
  createLogger,
  EnvError,
  listen,
  loadEnv,
  resolveContextSecret,
} from '@portal/core';
import { buildGateway } from './app';
import { gatewayCloseSeconds } from './health/drain';
import { buildMetricsServer } from './metrics/metrics';

async function main() {
  const env = loadEnv(['gateway']);
  const log = createLogger(env, 'gateway');
  const cache = createCache(env, log);
  const app = await buildGateway({
    env,
    cache,
    log,
    contextSecret: resolveContextSecret(env),
    upstreams: {
      case: env.CASE_SERVICE_URL,
      user: env.USER_SERVICE_URL,
      docs: env.DOCS_SERVICE_URL,
      builder: env.BUILDER_SERVICE_URL,
    },
  });
  // Prometheus on its own internal port (METRICS_PORT=0 turns it off): never on the public one.
  const metrics = env.METRICS_PORT ? await buildMetricsServer(app.gw.metrics) : undefined;
  // SIGTERM: readiness 503 at once, still serving for DRAIN_SECONDS while load balancers move on,
  // then closed (in-flight calls finish, live streams get their `end` event).
  closeOnSignals(log, [() => app.close(), async () => metrics?.close(), () => cache.close()], {
    drains: [app.drain],
    drainSeconds: env.DRAIN_SECONDS,
    closeSeconds: gatewayCloseSeconds(env),
  });
  await listen(app, env.PORT, env.HOST);
  if (metrics) await listen(metrics, env.METRICS_PORT, env.HOST);
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError ? error.message : error);
  process.exit(1);
});
