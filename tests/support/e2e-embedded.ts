import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnv, PROCESS_NAMES } from '@portal/core';
import { startEmbedded, type EmbeddedPortal } from '../../services/runner/src/stack';
import { launchBrowser, tenantUrl } from './browser';
import { newTrackedPage, raisedAuthLimits, tenantConfigCopy, webDistDir, type WebWorld } from './e2e-web';

/** A WebWorld on the embedded default, plus what only it has. */
export interface EmbeddedWorld extends WebWorld {
  portal: EmbeddedPortal;
  /** The temporary DATA_DIR (PGlite under pglite/, keys, outbox, objects). */
  dataDir: string;
  /** Seconds the embedded start (open, migrate, seed, services, gateway, worker) took. */
  startSeconds: number;
}

/**
 * The stack exactly as `npm start` builds it when DATABASE_URL and REDIS_URL
 * are unset (runner mode `all`, services/runner/src/stack.ts startEmbedded):
 * a fresh PGlite under a temporary DATA_DIR, migrated and seeded with the
 * default demo data, the in-process cache, the in-process job worker, the four
 * services and the gateway serving web/dist in this one process; NODE_ENV is
 * development, as `npm start` runs.
 *
 * The environment is built here, never read from process.env: the e2e global
 * setup (and a developer's shell) may set DATABASE_URL and REDIS_URL, which
 * would turn this into the Postgres+Redis stack. Differences from `npm start`,
 * each needed to run beside other tests: the gateway listens on a random port
 * of 127.0.0.1, the metrics server is off (METRICS_PORT=0), logs are warnings
 * only, and the tenants run on a copy of config/tenants with the higher auth
 * rate limits of startWebWorld (browser tests sign in many times a minute).
 */
export async function startEmbeddedWorld(
  overrides: Record<string, string> = {},
  edit: (tenant: string, yaml: string) => string = (_t, y) => y,
): Promise<EmbeddedWorld> {
  const configDir = tenantConfigCopy((tenant, yaml) => edit(tenant, raisedAuthLimits(yaml)));
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-embedded-'));
  const env = loadEnv(PROCESS_NAMES, {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_PORT: '0',
    TENANT_CONFIG_DIR: configDir,
    WEB_DIST_DIR: webDistDir(),
    SEED_SCALE: 'default',
    // Explicitly none: the embedded defaults (PGlite, in-process cache, mail and objects under DATA_DIR).
    DATABASE_URL: undefined,
    REDIS_URL: undefined,
    SMTP_URL: undefined,
    S3_ENDPOINT: undefined,
    ...overrides,
  });
  if (env.DATABASE_URL || env.REDIS_URL) throw new Error('the embedded world must not use Postgres or Redis');
  const started = Date.now();
  const portal = await startEmbedded(env);
  const startSeconds = (Date.now() - started) / 1000;
  if (portal.deps.db.kind !== 'pglite') throw new Error(`expected PGlite, got ${portal.deps.db.kind}`);
  let browser;
  try {
    browser = await launchBrowser();
  } catch (error) {
    await portal.close();
    throw error;
  }
  const { stack, deps } = portal;
  const world: EmbeddedWorld = {
    // The TestEnv shape of startWebWorld, so that its helpers (signIn, apiAs, latestResetCode...) work.
    t: {
      databaseUrl: '',
      redisUrl: '',
      redisPrefix: '',
      env,
      deps,
      db: deps.db,
      close: async () => undefined,
    },
    stack,
    browser,
    portal,
    dataDir,
    startSeconds,
    url: (tenant, path = '/') => tenantUrl(stack.gatewayUrl, tenant, path),
    newPage: (viewport) => newTrackedPage(browser, viewport),
    close: async () => {
      await browser.close();
      await portal.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(configDir, { recursive: true, force: true });
    },
  };
  return world;
}
