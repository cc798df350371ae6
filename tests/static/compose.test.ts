/**
 * No Docker engine runs here, so docker-compose.yml, .env.example and the
 * Dockerfile are checked against the code's own configuration: a renamed
 * variable, a moved port or a missing health route fails this test instead of
 * failing on an operator's machine.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { GATEWAY_LIVE_PATH, GATEWAY_READY_PATH, SERVICE_READY_PATH } from '@portal/contracts';
import {
  CLOSE_SECONDS,
  EnvSchema,
  loadEnv,
  varDefault,
  varMeta,
  varsUsedBy,
  type ProcessName,
} from '@portal/core';
import { gatewayShutdownSeconds } from '../../gateway/src/health/drain';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');

interface ComposeService {
  image?: string;
  build?: { context: string; target?: string };
  environment?: Record<string, string | number | boolean | null>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  command?: string[];
  shm_size?: string;
  stop_grace_period?: string;
  ports?: string[];
  volumes?: string[];
  secrets?: string[];
}
const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
  secrets: Record<string, unknown>;
};
const exampleEnv = Object.fromEntries(
  read('.env.example')
    .split('\n')
    .filter((l) => /^[A-Z0-9_]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
);

/** Compose interpolation with the values of .env.example: ${X}, ${X:-default}, ${X:?error}. */
function interpolate(value: string): string {
  return value.replace(
    /\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g,
    (_m, name: string, op?: string, arg?: string) => {
      const v = exampleEnv[name];
      if (v !== undefined && v !== '') return v;
      if (op === '-') return arg ?? '';
      if (op === '?')
        throw new Error(`${name} is required by docker-compose.yml but missing from .env.example`);
      return '';
    },
  );
}

const APP_SERVICES: Record<string, ProcessName> = {
  migrate: 'migrate',
  case: 'case',
  user: 'user',
  docs: 'docs',
  builder: 'builder',
  gateway: 'gateway',
  worker: 'worker',
};
const SERVICE_PORT_VARS = {
  case: 'CASE_SERVICE_PORT',
  user: 'USER_SERVICE_PORT',
  docs: 'DOCS_SERVICE_PORT',
  builder: 'BUILDER_SERVICE_PORT',
} as const;
const KNOWN_VARS = new Set(Object.keys(EnvSchema.properties));

/** The URL a service's health check fetches. */
function healthUrl(name: string): URL {
  const test = compose.services[name]!.healthcheck!.test.join(' ');
  const match = /fetch\('([^']+)'\)/.exec(test);
  expect(match, `${name} health check fetches a URL`).not.toBeNull();
  return new URL(match![1]!);
}

function environmentOf(name: string): Record<string, string> {
  const env = compose.services[name]?.environment ?? {};
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, interpolate(String(v ?? ''))]));
}

describe('docker-compose.yml', () => {
  it('runs the whole production-shaped stack', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [
        'builder',
        'case',
        'docs',
        'gateway',
        'mail',
        'migrate',
        'objects',
        'postgres',
        'redis',
        'user',
        'worker',
      ].sort(),
    );
    expect(Object.keys(compose.volumes).sort()).toEqual(['objectdata', 'pgdata', 'redisdata']);
  });

  it('gives Postgres shared buffers a grown database needs, and /dev/shm for parallel queries', () => {
    const postgres = compose.services.postgres!;
    const setting = postgres.command!.map(interpolate).find((a) => a.startsWith('shared_buffers='));
    expect(setting).toMatch(/^shared_buffers=\d+[GM]B$/);
    const [, size, unit] = /^shared_buffers=(\d+)([GM])B$/.exec(setting!)!;
    expect(Number(size) * (unit === 'G' ? 1024 : 1)).toBeGreaterThanOrEqual(1024);
    expect(postgres.shm_size).toBe('256mb');
  });

  it('gives every long-running service a health check', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (name === 'migrate') continue;
      expect(service.healthcheck?.test, name).toBeDefined();
    }
  });

  it('starts each app process only after what it needs is healthy or done', () => {
    // The demo seed copies its files into the object store.
    expect(compose.services.migrate!.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      objects: { condition: 'service_healthy' },
    });
    for (const name of ['case', 'user', 'docs', 'builder', 'worker']) {
      expect(compose.services[name]!.depends_on?.migrate, name).toEqual({
        condition: 'service_completed_successfully',
      });
      expect(compose.services[name]!.depends_on?.redis, name).toEqual({ condition: 'service_healthy' });
    }
    expect(compose.services.docs!.depends_on?.objects).toEqual({ condition: 'service_healthy' });
    for (const name of ['case', 'user', 'docs', 'builder', 'redis']) {
      expect(compose.services.gateway!.depends_on?.[name], name).toEqual({ condition: 'service_healthy' });
    }
  });

  it('sets only variables the configuration schema knows, and each process starts with them', () => {
    for (const [service, processName] of Object.entries(APP_SERVICES)) {
      const env = environmentOf(service);
      const unknown = Object.keys(env).filter((k) => !KNOWN_VARS.has(k) && k !== 'SERVICE');
      expect(unknown, `${service} sets unknown variables`).toEqual([]);
      // loadEnv throws naming any variable that is missing (production requirements) or malformed.
      expect(() => loadEnv([processName], env), service).not.toThrow();
      if (processName !== 'gateway') expect(env.SERVICE, service).toBe(processName);
    }
  });

  it('sets every production requirement explicitly rather than relying on defaults', () => {
    for (const [service, processName] of Object.entries(APP_SERVICES)) {
      const env = environmentOf(service);
      const required = varsUsedBy([processName]).filter((v) => varMeta(v)?.requiredInProduction);
      for (const name of required) expect(env[name], `${service}: ${name}`).toBeTruthy();
      for (const name of varsUsedBy([processName])) {
        expect(
          env[name] !== undefined || varDefault(name) !== undefined || !varMeta(name)?.requiredInProduction,
          `${service}: ${name}`,
        ).toBe(true);
      }
    }
  });

  it('agrees on ports: each service listens where the gateway and its health check look', () => {
    const gatewayEnv = loadEnv(['gateway'], environmentOf('gateway'));
    const upstreamUrl = {
      case: gatewayEnv.CASE_SERVICE_URL,
      user: gatewayEnv.USER_SERVICE_URL,
      docs: gatewayEnv.DOCS_SERVICE_URL,
      builder: gatewayEnv.BUILDER_SERVICE_URL,
    };
    for (const [name, portVar] of Object.entries(SERVICE_PORT_VARS)) {
      const port = loadEnv([name as ProcessName], environmentOf(name))[portVar];
      expect(new URL(upstreamUrl[name as keyof typeof upstreamUrl]).port, name).toBe(String(port));
      expect(new URL(upstreamUrl[name as keyof typeof upstreamUrl]).hostname, name).toBe(name);
      expect(healthUrl(name).port, name).toBe(String(port));
    }
    // The job worker has no upstream URL: its health check looks where it listens.
    const workerPort = loadEnv(['worker'], environmentOf('worker')).WORKER_PORT;
    expect(healthUrl('worker').port).toBe(String(workerPort));
    expect(gatewayEnv.PORT).toBe(8080);
    expect(compose.services.gateway!.ports!.map(interpolate)).toEqual(['8080:8080']);
    expect(healthUrl('gateway').port).toBe(String(gatewayEnv.PORT));
  });

  it('health checks use the readiness routes the code serves', () => {
    // The same constants register the routes (core service.ts and health.ts, the worker's
    // worker.ts, gateway health-routes.ts): tests/static/probe-routes.test.ts checks each process
    // serves them; tests/integration/gateway/readiness.test.ts and foundation/probes.test.ts call them.
    for (const name of ['case', 'user', 'docs', 'builder', 'worker']) {
      const url = healthUrl(name);
      expect(url.hostname, name).toBe('127.0.0.1');
      expect(url.pathname, name).toBe(SERVICE_READY_PATH);
    }
    expect(healthUrl('gateway').pathname).toBe(GATEWAY_READY_PATH);
  });

  it('gives each process time to drain and close when stopped (docker stop waits 10 s otherwise)', () => {
    const seconds = (name: string) => {
      const value = compose.services[name]!.stop_grace_period ?? '10s';
      expect(value, name).toMatch(/^\d+s$/);
      return Number.parseInt(value, 10);
    };
    const gatewayEnv = loadEnv(['gateway'], environmentOf('gateway'));
    expect(gatewayEnv.DRAIN_SECONDS).toBeGreaterThan(0);
    expect(seconds('gateway')).toBeGreaterThanOrEqual(gatewayShutdownSeconds(gatewayEnv));
    for (const name of ['case', 'user', 'docs', 'builder']) {
      const env = loadEnv([name as ProcessName], environmentOf(name));
      expect(seconds(name), name).toBeGreaterThanOrEqual(env.DRAIN_SECONDS + CLOSE_SECONDS);
    }
    const worker = loadEnv(['worker'], environmentOf('worker'));
    expect(seconds('worker')).toBeGreaterThanOrEqual(worker.WORKER_SHUTDOWN_GRACE_SECONDS + CLOSE_SECONDS);
  });

  it('builds app services from the Dockerfile targets that exist', () => {
    const dockerfile = read('Dockerfile');
    const targets = [...dockerfile.matchAll(/^FROM \S+ AS (\S+)$/gm)].map((m) => m[1]);
    for (const name of Object.keys(APP_SERVICES)) {
      const target = compose.services[name]!.build?.target;
      expect(targets, name).toContain(target);
    }
  });

  it('documents every variable it interpolates in .env.example', () => {
    const used = [...read('docker-compose.yml').matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]!);
    const missing = [...new Set(used)].filter((v) => !(v in exampleEnv));
    expect(missing).toEqual([]);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('is multi-stage with separate gateway and services images', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toMatch(/^FROM \S+ AS gateway$/m);
    expect(dockerfile).toMatch(/^FROM \S+ AS services$/m);
  });

  it('runs the runtime images as a non-root user with a health check on the gateway', () => {
    for (const target of ['gateway', 'services']) {
      const stage = stages.find((s) => s.split('\n')[0]!.endsWith(`AS ${target}`))!;
      expect(stage, target).toMatch(/^USER node$/m);
      expect(stage, target).not.toMatch(/pnpm install|npm install/);
    }
    const gateway = stages.find((s) => s.split('\n')[0]!.endsWith('AS gateway'))!;
    expect(gateway).toMatch(/HEALTHCHECK/);
    // Liveness: a container orchestrator replacing unhealthy containers must not do so for an outage.
    expect(gateway).toContain(`+'${GATEWAY_LIVE_PATH}')`);
  });

  it('copies every workspace manifest before installing (so pnpm install --frozen-lockfile sees the whole workspace)', () => {
    const workspace = parse(read('pnpm-workspace.yaml')) as { packages: string[] };
    expect(workspace.packages.length).toBeGreaterThan(0);
    // Every package the workspace globs match (a new package cannot be forgotten).
    const manifests = workspace.packages.flatMap((glob) =>
      glob.endsWith('/*')
        ? readdirSync(join(ROOT, glob.slice(0, -2)))
            .map((dir) => `${glob.slice(0, -2)}/${dir}`)
            .filter((dir) => existsSync(join(ROOT, dir, 'package.json')))
        : [glob],
    );
    expect(manifests).toContain('packages/jobs');
    for (const manifest of manifests) {
      expect(dockerfile).toContain(`COPY ${manifest}/package.json ${manifest}/`);
    }
  });
});
