import { resolveServers } from '../support/servers';

/**
 * Benches find Postgres and Redis as the tests do (tests/support/servers.ts):
 * the variables when set, else the local ports, else testcontainers. The
 * benches read DATABASE_URL / REDIS_URL, so the answer is put there for the
 * bench workers this process starts.
 */
export default async function setup() {
  const servers = await resolveServers();
  process.env.DATABASE_URL = servers.postgresUrl;
  process.env.REDIS_URL = servers.redisUrl;
  console.log(`bench servers: ${servers.source}`);
  return () => servers.stop();
}
