import { connect } from 'node:net';

/**
 * Where the tests (and benches) find real Postgres and Redis, each on its own:
 * DATABASE_URL / REDIS_URL when set, else the standard local port when it
 * answers (127.0.0.1:5432, trust auth as user postgres; 127.0.0.1:6379), else
 * a testcontainers container when a Docker engine answers, else a failure that
 * names every way.
 */
export interface Servers {
  /** Admin connection string: the test run creates and drops its own databases through it. */
  postgresUrl: string;
  redisUrl: string;
  source: string;
  stop(): Promise<void>;
}

export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const LOCAL_REDIS_URL = 'redis://127.0.0.1:6379';

export const NO_SERVERS_MESSAGE =
  'Integration tests need real Postgres and Redis, and found neither DATABASE_URL / REDIS_URL, ' +
  'nor servers answering on 127.0.0.1:5432 and 127.0.0.1:6379, nor a Docker engine for testcontainers. ' +
  'Start Postgres and Redis locally, set DATABASE_URL and REDIS_URL ' +
  `(e.g. DATABASE_URL=${LOCAL_POSTGRES_URL} REDIS_URL=${LOCAL_REDIS_URL}), or start a Docker engine.`;

// Test processes read these two on purpose: they choose the servers, not a service's configuration.
const env = process.env;

/** True when something accepts a TCP connection on 127.0.0.1:port within the timeout. */
export function portAnswers(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function resolveServers(): Promise<Servers> {
  const local = async (given: string | undefined, port: number, url: string) =>
    given
      ? { url: given, from: 'env' }
      : (await portAnswers(port))
        ? { url, from: `127.0.0.1:${port}` }
        : null;
  const postgres = await local(env.DATABASE_URL, 5432, LOCAL_POSTGRES_URL);
  const redis = await local(env.REDIS_URL, 6379, LOCAL_REDIS_URL);
  if (postgres && redis) {
    return {
      postgresUrl: postgres.url,
      redisUrl: redis.url,
      source: `postgres from ${postgres.from}, redis from ${redis.from}`,
      stop: async () => {},
    };
  }
  return startContainers(postgres?.url, redis?.url).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${NO_SERVERS_MESSAGE}\n(testcontainers: ${reason})`);
  });
}

async function startContainers(postgresUrl?: string, redisUrl?: string): Promise<Servers> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const postgres = postgresUrl
    ? null
    : await new GenericContainer('postgres:16-alpine')
        .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
        .withExposedPorts(5432)
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
        .start();
  const redis = redisUrl
    ? null
    : await new GenericContainer('redis:7-alpine')
        .withExposedPorts(6379)
        .withWaitStrategy(Wait.forListeningPorts())
        .start();
  return {
    postgresUrl:
      postgresUrl ?? `postgres://postgres@${postgres!.getHost()}:${postgres!.getMappedPort(5432)}/postgres`,
    redisUrl: redisUrl ?? `redis://${redis!.getHost()}:${redis!.getMappedPort(6379)}`,
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
