import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * The one configuration schema of every process. Nothing else reads
 * process.env. Each variable names the processes that read it, which is also
 * what the docker-compose check in tests/static verifies against.
 */
export type ProcessName = 'gateway' | 'case' | 'user' | 'docs' | 'builder' | 'migrate' | 'worker';
export const PROCESS_NAMES: readonly ProcessName[] = [
  'gateway',
  'case',
  'user',
  'docs',
  'builder',
  'migrate',
  'worker',
];
export const SERVICE_NAMES = ['case', 'user', 'docs', 'builder'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

const ALL: readonly ProcessName[] = PROCESS_NAMES;
const SERVICES: readonly ProcessName[] = ['case', 'user', 'docs', 'builder'];
const WITH_DB: readonly ProcessName[] = [...SERVICES, 'migrate', 'worker'];

interface VarMeta {
  usedBy: readonly ProcessName[];
  description: string;
  /** Must be set when NODE_ENV=production (development generates or defaults it). */
  requiredInProduction?: boolean;
  /** The value when unset and NODE_ENV=production, where it differs from the development default. */
  productionDefault?: string;
}
const VAR_META = new Map<string, VarMeta>();
function v<T extends TSchema>(schema: T, meta: VarMeta): T {
  return { ...schema, description: meta.description, 'x-used-by': meta.usedBy } as T;
}
function optional<T extends TSchema>(name: string, schema: T, meta: VarMeta) {
  VAR_META.set(name, meta);
  return Type.Optional(v(schema, meta));
}
function withDefault<T extends TSchema>(name: string, schema: T, meta: VarMeta) {
  VAR_META.set(name, meta);
  return v(schema, meta);
}

const port = (def: number) => Type.Integer({ minimum: 0, maximum: 65535, default: def });
const url = (protocols: string) => Type.String({ pattern: `^(${protocols})://`, minLength: 6 });
const bool = (def: boolean) => Type.Boolean({ default: def });

export const EnvSchema = Type.Object({
  NODE_ENV: withDefault(
    'NODE_ENV',
    Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
      default: 'development',
    }),
    { usedBy: ALL, description: 'development, production or test' },
  ),
  LOG_LEVEL: withDefault(
    'LOG_LEVEL',
    Type.Union(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
      { default: 'info' },
    ),
    { usedBy: ALL, description: 'pino log level' },
  ),
  LOG_FORMAT: withDefault(
    'LOG_FORMAT',
    Type.Union(
      ['auto', 'json', 'pretty'].map((f) => Type.Literal(f)),
      { default: 'auto' },
    ),
    {
      usedBy: ALL,
      description:
        'auto: readable lines on a terminal outside production, JSON otherwise (files, CI, containers)',
    },
  ),
  DATA_DIR: withDefault('DATA_DIR', Type.String({ default: '.data', minLength: 1 }), {
    usedBy: ALL,
    description: 'Local state: embedded Postgres, generated dev keys, mail outbox, local object store',
  }),
  HOST: withDefault('HOST', Type.String({ default: '0.0.0.0', minLength: 1 }), {
    usedBy: [...SERVICES, 'gateway', 'worker'],
    description: 'Interface to listen on',
  }),
  PORT: withDefault('PORT', port(8080), { usedBy: ['gateway'], description: 'Public port of the gateway' }),
  METRICS_PORT: withDefault('METRICS_PORT', port(9091), {
    usedBy: ['gateway'],
    description: 'Internal port serving Prometheus /metrics (0 disables it)',
  }),
  CASE_SERVICE_PORT: withDefault('CASE_SERVICE_PORT', port(4001), {
    usedBy: ['case'],
    description: 'Case service port',
  }),
  USER_SERVICE_PORT: withDefault('USER_SERVICE_PORT', port(4002), {
    usedBy: ['user'],
    description: 'User service port',
  }),
  DOCS_SERVICE_PORT: withDefault('DOCS_SERVICE_PORT', port(4003), {
    usedBy: ['docs'],
    description: 'Docs service port',
  }),
  BUILDER_SERVICE_PORT: withDefault('BUILDER_SERVICE_PORT', port(4004), {
    usedBy: ['builder'],
    description: 'Builder service port',
  }),
  WORKER_PORT: withDefault('WORKER_PORT', port(4005), {
    usedBy: ['worker'],
    description: "Port of the job worker's health routes (GET /health, /health/live, /health/ready)",
  }),
  WORKER_SHUTDOWN_GRACE_SECONDS: withDefault(
    'WORKER_SHUTDOWN_GRACE_SECONDS',
    Type.Integer({ minimum: 1, maximum: 3600, default: 20 }),
    {
      usedBy: ['worker'],
      description: 'On SIGTERM, how long running jobs may finish before they are handed back to the queue',
    },
  ),
  DRAIN_SECONDS: withDefault('DRAIN_SECONDS', Type.Integer({ minimum: 0, maximum: 300, default: 0 }), {
    usedBy: ['gateway', ...SERVICES],
    description:
      'On SIGTERM, how long readiness answers 503 while the process still serves, before it closes (5 by default when NODE_ENV=production)',
    productionDefault: '5',
  }),
  JOB_POLL_INTERVAL_SECONDS: withDefault(
    'JOB_POLL_INTERVAL_SECONDS',
    Type.Number({ minimum: 0.5, maximum: 60, default: 2 }),
    { usedBy: ['worker'], description: 'How often the job worker polls an idle queue' },
  ),
  JOB_MAINTENANCE_INTERVAL_SECONDS: withDefault(
    'JOB_MAINTENANCE_INTERVAL_SECONDS',
    Type.Integer({ minimum: 1, maximum: 3600, default: 30 }),
    {
      usedBy: ['worker'],
      description:
        "How often the job worker retries attempts that ran out of time and reconciles job statuses (a crashed worker's jobs are taken up within seconds by heartbeat)",
    },
  ),
  CASE_SERVICE_URL: withDefault(
    'CASE_SERVICE_URL',
    { ...url('http|https'), default: 'http://127.0.0.1:4001' },
    {
      usedBy: ['gateway', 'user', 'builder', 'docs'],
      description: 'Base URL of the case service',
    },
  ),
  USER_SERVICE_URL: withDefault(
    'USER_SERVICE_URL',
    { ...url('http|https'), default: 'http://127.0.0.1:4002' },
    {
      usedBy: ['gateway', 'case'],
      description: 'Base URL of the user service (also serves the JWKS)',
    },
  ),
  DOCS_SERVICE_URL: withDefault(
    'DOCS_SERVICE_URL',
    { ...url('http|https'), default: 'http://127.0.0.1:4003' },
    {
      usedBy: ['gateway', 'case'],
      description: 'Base URL of the docs service',
    },
  ),
  BUILDER_SERVICE_URL: withDefault(
    'BUILDER_SERVICE_URL',
    { ...url('http|https'), default: 'http://127.0.0.1:4004' },
    { usedBy: ['gateway'], description: 'Base URL of the builder service' },
  ),
  UPSTREAM_TIMEOUT_MS: withDefault(
    'UPSTREAM_TIMEOUT_MS',
    Type.Integer({ minimum: 100, maximum: 120000, default: 10000 }),
    {
      usedBy: ['gateway'],
      description: 'How long the gateway waits for an upstream answer before 504',
    },
  ),
  TRUST_PROXY: withDefault('TRUST_PROXY', Type.String({ default: '' }), {
    usedBy: ['gateway'],
    description: 'Comma-separated proxy addresses/CIDRs trusted for X-Forwarded-*; empty trusts none',
  }),
  TENANT_CONFIG_DIR: withDefault(
    'TENANT_CONFIG_DIR',
    Type.String({ default: 'config/tenants', minLength: 1 }),
    {
      usedBy: ['gateway', 'user', 'case', 'worker'],
      description: 'Directory of per-tenant configuration files',
    },
  ),
  WEB_DIST_DIR: withDefault('WEB_DIST_DIR', Type.String({ default: 'web/dist', minLength: 1 }), {
    usedBy: ['gateway'],
    description: 'Built web app served by the gateway',
  }),
  DATABASE_URL: optional('DATABASE_URL', url('postgres|postgresql'), {
    usedBy: WITH_DB,
    description: 'Postgres connection string; unset uses embedded PGlite under DATA_DIR',
    requiredInProduction: true,
  }),
  DATABASE_POOL_SIZE: withDefault(
    'DATABASE_POOL_SIZE',
    Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
    {
      usedBy: WITH_DB,
      description: 'Postgres connections per process',
    },
  ),
  REDIS_URL: optional('REDIS_URL', url('redis|rediss'), {
    // The worker publishes live updates (job progress, committed events) for the gateway to stream.
    usedBy: [...SERVICES, 'gateway', 'worker'],
    description: 'Redis connection string; unset uses an in-process cache (single process only)',
    requiredInProduction: true,
  }),
  REDIS_KEY_PREFIX: withDefault(
    'REDIS_KEY_PREFIX',
    Type.String({ default: '', pattern: '^[A-Za-z0-9:_.-]*$' }),
    {
      usedBy: [...SERVICES, 'gateway', 'worker'],
      description: 'Prefix of every Redis key and channel (isolates test runs and environments)',
    },
  ),
  INTERNAL_CONTEXT_SECRET: optional('INTERNAL_CONTEXT_SECRET', Type.String({ minLength: 32 }), {
    usedBy: [...SERVICES, 'gateway'],
    description: 'HMAC key of the signed internal context; generated into DATA_DIR in development',
    requiredInProduction: true,
  }),
  JWT_PRIVATE_KEY_FILE: optional('JWT_PRIVATE_KEY_FILE', Type.String({ minLength: 1 }), {
    usedBy: ['user'],
    description:
      'PEM private key (Ed25519 or RSA) signing access tokens; generated into DATA_DIR in development',
    requiredInProduction: true,
  }),
  JWT_ISSUER: withDefault('JWT_ISSUER', Type.String({ default: 'chargeback-portal', minLength: 1 }), {
    usedBy: ['user', 'gateway'],
    description: 'iss claim of access tokens',
  }),
  ACCESS_TOKEN_TTL_SECONDS: withDefault(
    'ACCESS_TOKEN_TTL_SECONDS',
    Type.Integer({ minimum: 30, maximum: 86400, default: 900 }),
    { usedBy: ['user'], description: 'Lifetime of access tokens' },
  ),
  REFRESH_TOKEN_TTL_SECONDS: withDefault(
    'REFRESH_TOKEN_TTL_SECONDS',
    Type.Integer({ minimum: 60, maximum: 31536000, default: 43200 }),
    { usedBy: ['user'], description: 'Lifetime of refresh tokens' },
  ),
  // Production serves HTTPS (TLS ends at the ingress or proxy): a deploy that forgets the variable must
  // not send the refresh token over plain HTTP (issue 27.E). `npm start` serves plain http://*.localhost.
  COOKIE_SECURE: withDefault('COOKIE_SECURE', bool(false), {
    usedBy: ['user'],
    description: 'Mark the refresh cookie Secure (__Host- prefix); true by default when NODE_ENV=production',
    productionDefault: 'true',
  }),
  SMTP_URL: optional('SMTP_URL', url('smtp|smtps'), {
    usedBy: ['user', 'case', 'worker'],
    description: 'SMTP server for mail; unset writes mail to DATA_DIR/outbox',
  }),
  MAIL_FROM: withDefault(
    'MAIL_FROM',
    Type.String({ default: 'Chargeback Portal <no-reply@portal.localhost>' }),
    {
      usedBy: ['user', 'case', 'worker'],
      description: 'From address of mail',
    },
  ),
  S3_ENDPOINT: optional('S3_ENDPOINT', url('http|https'), {
    usedBy: ['docs', 'case', 'worker', 'migrate'],
    description: 'S3-compatible object store; unset stores objects under DATA_DIR/objects',
  }),
  S3_PUBLIC_ENDPOINT: optional('S3_PUBLIC_ENDPOINT', url('http|https'), {
    usedBy: ['docs', 'case', 'worker', 'migrate'],
    description:
      'Object store URL as the browser reaches it, when it differs from S3_ENDPOINT (upload forms and download links are signed for it)',
  }),
  S3_FORCE_PATH_STYLE: withDefault('S3_FORCE_PATH_STYLE', bool(true), {
    usedBy: ['docs', 'case', 'worker', 'migrate'],
    description:
      'Path-style bucket URLs (endpoint/bucket/key), as MinIO needs; false for virtual-hosted AWS buckets',
  }),
  S3_BUCKET: withDefault('S3_BUCKET', Type.String({ default: 'portal-docs', minLength: 3 }), {
    usedBy: ['docs', 'case', 'worker', 'migrate'],
    description: 'Bucket of documents',
  }),
  S3_REGION: withDefault('S3_REGION', Type.String({ default: 'us-east-1' }), {
    usedBy: ['docs', 'case', 'worker', 'migrate'],
    description: 'Region of the object store',
  }),
  S3_ACCESS_KEY_ID: optional('S3_ACCESS_KEY_ID', Type.String({ minLength: 1 }), {
    usedBy: ['docs', 'case', 'worker', 'migrate'],
    description: 'Object store access key',
  }),
  S3_SECRET_ACCESS_KEY: optional('S3_SECRET_ACCESS_KEY', Type.String({ minLength: 1 }), {
    usedBy: ['docs', 'case', 'worker', 'migrate'],
    description: 'Object store secret key',
  }),
  DOCS_LINK_SECRET: optional('DOCS_LINK_SECRET', Type.String({ minLength: 32 }), {
    usedBy: ['docs', 'case', 'worker'],
    description:
      'HMAC key of the short-lived document download links; generated into DATA_DIR in development',
    requiredInProduction: true,
  }),
  CONNECTOR_KEY: optional(
    'CONNECTOR_KEY',
    Type.String({ pattern: '^([0-9a-fA-F]{64}|[A-Za-z0-9_-]{43}=?)$' }),
    {
      usedBy: ['case', 'docs', 'worker'],
      description:
        'AES-256-GCM key (32 bytes: 64 hex or 43 base64url characters) sealing processor connector secrets at rest; generated into DATA_DIR in development',
      requiredInProduction: true,
    },
  ),
  STRIPE_API_BASE: optional('STRIPE_API_BASE', url('http|https'), {
    usedBy: ['case', 'docs', 'worker'],
    description:
      'Base URL of the Stripe API for tests and demos pointing at a stand-in (never settable from a request); unset uses api.stripe.com',
  }),
  EXPORT_MAIL_THRESHOLD_ROWS: withDefault(
    'EXPORT_MAIL_THRESHOLD_ROWS',
    Type.Integer({ minimum: 1, maximum: 100_000_000, default: 10_000 }),
    {
      usedBy: ['case', 'user'],
      description:
        'An export of all rows with more rows than this is written by a job and its download link e-mailed (answer 202) instead of streamed',
    },
  ),
  EXPORT_LINK_ORIGIN: withDefault(
    'EXPORT_LINK_ORIGIN',
    Type.String({ default: 'http://{domain}:8080', pattern: '^https?://[^/?#]*\\{domain\\}[^/?#]*$' }),
    {
      usedBy: ['worker'],
      description:
        "Origin of the links in mailed exports; {domain} becomes the tenant's first domain (e.g. https://{domain})",
    },
  ),
  WEBHOOK_ALLOWED_NETWORKS: withDefault(
    'WEBHOOK_ALLOWED_NETWORKS',
    Type.String({ default: '', maxLength: 2000, pattern: '^[0-9a-fA-F:./, ]*$' }),
    {
      usedBy: ['user', 'worker'],
      description:
        'Comma-separated CIDRs of private or loopback networks webhook endpoints may use outside development (link-local is always refused)',
    },
  ),
  CHAT_WEBHOOK_HOSTS: withDefault(
    'CHAT_WEBHOOK_HOSTS',
    Type.String({ default: '', maxLength: 2000, pattern: '^[0-9A-Za-z.:, -]*$' }),
    {
      usedBy: ['user', 'worker'],
      description:
        'Comma-separated host names that replace the Slack and Teams hosts chat destinations may use (a test or development stand-in; plain http there only to a WEBHOOK_ALLOWED_NETWORKS address)',
    },
  ),
  SEED_SCALE: withDefault(
    'SEED_SCALE',
    Type.String({ default: 'default', pattern: '^(none|default|large|[0-9]+)$' }),
    {
      usedBy: ['migrate'],
      description:
        "Demo data: 'none', 'default' (a few thousand cases per tenant), 'large' (1,000,000 cases) or a case count",
    },
  ),
});
export type Env = Static<typeof EnvSchema>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'EnvError';
  }
}

export function varsUsedBy(processes: readonly ProcessName[]): string[] {
  return [...VAR_META.entries()]
    .filter(([, m]) => m.usedBy.some((p) => processes.includes(p)))
    .map(([k]) => k);
}
export function varMeta(name: string): VarMeta | undefined {
  return VAR_META.get(name);
}
export function varDefault(name: string): unknown {
  return (EnvSchema.properties as Record<string, TSchema>)[name]?.default;
}

/**
 * Parse the environment for the given processes. A bad value stops start-up
 * with a message naming the variable; unknown variables are ignored.
 */
export function loadEnv(
  processes: readonly ProcessName[],
  source: Record<string, string | undefined> = process.env,
): Env {
  const names = new Set(varsUsedBy(processes).concat('NODE_ENV', 'LOG_LEVEL', 'DATA_DIR'));
  const raw: Record<string, unknown> = {};
  for (const name of names) {
    const value = source[name];
    if (value !== undefined && value !== '') raw[name] = value;
  }
  if (raw.NODE_ENV === 'production') {
    for (const name of names) {
      const fallback = VAR_META.get(name)?.productionDefault;
      if (raw[name] === undefined && fallback !== undefined) raw[name] = fallback;
    }
  }
  const converted = Value.Convert(EnvSchema, Value.Default(EnvSchema, raw)) as Record<string, unknown>;
  const problems: string[] = [];
  for (const error of Value.Errors(EnvSchema, converted)) {
    const name = error.path.replace(/^\//, '').split('/')[0] ?? '';
    if (!names.has(name)) continue;
    const shown = raw[name] === undefined ? 'unset' : `'${String(raw[name])}'`;
    const meta = VAR_META.get(name);
    problems.push(`${name}: ${error.message} (got ${shown}${meta ? `; ${meta.description}` : ''})`);
  }
  if (converted.NODE_ENV === 'production') {
    for (const name of names) {
      if (VAR_META.get(name)?.requiredInProduction && converted[name] === undefined) {
        problems.push(`${name}: must be set when NODE_ENV=production (${VAR_META.get(name)?.description})`);
      }
    }
  }
  if (problems.length) throw new EnvError([...new Set(problems)]);
  return converted as Env;
}
