/**
 * Where the tests find real Postgres and Redis: DATABASE_URL / REDIS_URL when
 * set (CI machines run both on 127.0.0.1), else testcontainers when a Docker
 * engine answers, else a failure that names both ways.
 */
export interface Servers {
  /** Admin connection string: the test run creates and drops its own databases through it. */
  postgresUrl: string;
  redisUrl: string;
  source: 'env' | 'testcontainers';
  stop(): Promise<void>;
}

export const NO_SERVERS_MESSAGE =
  'Integration tests need real Postgres and Redis. Either set DATABASE_URL and REDIS_URL ' +
  '(e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379), ' +
  'or start a Docker engine so that testcontainers can run the postgres and redis images.';

// Test processes read these two on purpose: they choose the servers, not a service's configuration.
const env = process.env;

export async function resolveServers(): Promise<Servers> {
  if (env.DATABASE_URL && env.REDIS_URL) {
    return { postgresUrl: env.DATABASE_URL, redisUrl: env.REDIS_URL, source: 'env', stop: async () => {} };
  }
  const containers = await startContainers().catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${NO_SERVERS_MESSAGE}\n(testcontainers: ${reason})`);
  });
  return containers;
}

async function startContainers(): Promise<Servers> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const postgres = env.DATABASE_URL
    ? null
    : await new GenericContainer('postgres:16-alpine')
        .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
        .withExposedPorts(5432)
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
        .start();
  const redis = env.REDIS_URL
    ? null
    : await new GenericContainer('redis:7-alpine')
        .withExposedPorts(6379)
        .withWaitStrategy(Wait.forListeningPorts())
        .start();
  return {
    postgresUrl:
      env.DATABASE_URL ??
      `postgres://postgres@${postgres!.getHost()}:${postgres!.getMappedPort(5432)}/postgres`,
    redisUrl: env.REDIS_URL ?? `redis://${redis!.getHost()}:${redis!.getMappedPort(6379)}`,
    source: 'testcontainers',
    stop: async () => {
      await Promise.all([postgres?.stop(), redis?.stop()]);
    },
  };
}

/** The same server, another database. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
