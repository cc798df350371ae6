/**
 * deploy/ (Kubernetes, kustomize) checked with no cluster: each kustomization
 * is rendered (tests/static/kustomize.ts), every object is validated against
 * the Kubernetes OpenAPI schemas shipped by `kubernetes-models` (unknown
 * fields refused, as `kubectl apply --validate=strict` does), and the
 * manifests are held to the code: env names and production requirements
 * (packages/core/src/env.ts), health routes, ports, the Dockerfile's commands,
 * the runner's modes, the tenant configuration loader.
 */
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import {
  GATEWAY_LIVE_PATH,
  GATEWAY_READY_PATH,
  SERVICE_LIVE_PATH,
  SERVICE_READY_PATH,
} from '@portal/contracts';
import {
  CLOSE_SECONDS,
  EnvSchema,
  loadEnv,
  PROCESS_NAMES,
  SERVICE_NAMES,
  varMeta,
  varsUsedBy,
  type ProcessName,
} from '@portal/core';
import { gatewayShutdownSeconds } from '../../gateway/src/health/drain';
import { loadTenants } from '../../gateway/src/tenants/load';
import { kustomizeBuild, podSpecOf, type K8sObject } from './kustomize';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');

// ---------------------------------------------------------------- schemas

type Validatable = { validate(): void };
const MODELS: Record<string, new (data: never) => Validatable> = {
  'apps/v1/Deployment': Deployment as never,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler as never,
  'batch/v1/Job': Job as never,
  'networking.k8s.io/v1/Ingress': Ingress as never,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget as never,
  'v1/ConfigMap': ConfigMap as never,
  'v1/Namespace': Namespace as never,
  'v1/Secret': Secret as never,
  'v1/Service': Service as never,
};
interface SchemaError {
  instancePath: string;
  message?: string;
}

function schemaErrors(o: unknown): SchemaError[] {
  const { apiVersion, kind } = o as K8sObject;
  const Model = MODELS[`${apiVersion}/${kind}`];
  if (!Model) return [{ instancePath: '', message: `no schema for ${apiVersion} ${kind}` }];
  try {
    new Model(o as never).validate();
    return [];
  } catch (error) {
    const errors = (error as { errors?: SchemaError[] }).errors;
    return errors ?? [{ instancePath: '', message: String(error) }];
  }
}

/**
 * The schemas leave additionalProperties open, so a misspelt field
 * (`readinesProbe`) would pass. A field is known when putting a value of the
 * wrong type there makes the schema complain at that path; otherwise the
 * API server would drop it (or refuse it under strict validation).
 */
function unknownFields(o: K8sObject): string[] {
  const unknown: string[] = [];
  const escape = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, `${path}/${i}`));
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      // The type meta is checked by picking the model (MODELS) from it.
      if (path === '' && (key === 'apiVersion' || key === 'kind')) continue;
      const value = record[key];
      const at = `${path}/${escape(key)}`;
      record[key] = value !== null && typeof value === 'object' ? true : {};
      const complaint = schemaErrors(o).some(
        (e) => e.instancePath === at || e.instancePath.startsWith(`${at}/`),
      );
      record[key] = value;
      if (complaint) walk(value, at);
      else unknown.push(at);
    }
  };
  walk(o, '');
  return unknown;
}

// ---------------------------------------------------------------- the code's facts

const KNOWN_VARS = new Set(Object.keys(EnvSchema.properties));
/** Variables whose absence makes a process keep state under DATA_DIR (embedded db, outbox, object files, keys). */
const LOCAL_STATE_FALLBACKS = [...KNOWN_VARS].filter((v) => /DATA_DIR/.test(varMeta(v)?.description ?? ''));

/** Runner modes: the service names plus every `mode === '...'` branch of services/runner/src/main.ts. */
const RUNNER_MODES = new Set([
  ...SERVICE_NAMES,
  ...[...read('services/runner/src/main.ts').matchAll(/mode === '([a-z-]+)'/g)].map((m) => m[1]!),
]);
/** The worker runs every service's jobs; until env.ts names it, it reads what case and docs read. */
const WORKER_PROCESSES: ProcessName[] = (PROCESS_NAMES as readonly string[]).includes('worker')
  ? ['worker' as ProcessName]
  : ['case', 'docs'];

/** The CMD of each Dockerfile target. */
const DOCKER_CMD: Record<string, string[]> = Object.fromEntries(
  read('Dockerfile')
    .split(/^FROM /m)
    .slice(1)
    .map((stage) => {
      const target = /^\S+ AS (\S+)/.exec(stage)?.[1] ?? '';
      const cmd = [...stage.matchAll(/^CMD (\[.*\])$/gm)].pop()?.[1];
      return [target, cmd ? (JSON.parse(cmd) as string[]) : []];
    }),
);
const DOCKER_USER_UID = 1000; // USER node of the node images

const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, { image?: string }>;
};
const IMAGE_OF_TARGET = {
  gateway: compose.services.gateway!.image!.split(':')[0]!,
  services: compose.services.case!.image!.split(':')[0]!,
};

/** The Secrets the operator creates (shape in deploy/base/secret.example.yaml, which kustomize does not apply). */
const SECRET_EXAMPLE = parseAllDocuments(read('deploy/base/secret.example.yaml')).map(
  (d) => d.toJS() as K8sObject & { stringData: Record<string, string> },
);
const OPERATOR_SECRETS = new Map(SECRET_EXAMPLE.map((s) => [s.metadata.name, s.stringData]));
const SECRET_VARS = new Set(Object.keys(OPERATOR_SECRETS.get('portal-secrets') ?? {}));

// ---------------------------------------------------------------- rendered views

interface Probe {
  httpGet?: { path?: string; port: string | number };
  tcpSocket?: { port: string | number };
  exec?: unknown;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
  };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown> & { capabilities?: { drop?: string[] } };
  volumeMounts?: { name: string; mountPath: string }[];
}
interface Volume {
  name: string;
  configMap?: { name: string; items?: { key: string; path: string }[] };
  secret?: { secretName: string; items?: { key: string; path: string }[] };
  emptyDir?: unknown;
}
interface PodSpec {
  containers: Container[];
  volumes?: Volume[];
  securityContext?: Record<string, unknown>;
}

function podLabels(o: K8sObject): Record<string, string> {
  return ((o.spec as { template: { metadata: { labels?: Record<string, string> } } }).template.metadata
    .labels ?? {}) as Record<string, string>;
}
const matches = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  !!selector &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels[k] === v);

class Rendered {
  constructor(
    readonly name: string,
    readonly objects: K8sObject[],
  ) {}
  of(kind: string) {
    return this.objects.filter((o) => o.kind === kind);
  }
  get(kind: string, name: string) {
    return this.objects.find((o) => o.kind === kind && o.metadata.name === name);
  }
  get deployments() {
    return this.of('Deployment');
  }
  get workloads() {
    return [...this.of('Deployment'), ...this.of('Job')];
  }
  configMap(name: string) {
    return this.of('ConfigMap').find((c) => c.metadata.name === name) as
      (K8sObject & { data?: Record<string, string>; binaryData?: Record<string, string> }) | undefined;
  }
  /** The process a container runs: `gateway`, or the runner mode of its args. */
  processOf(c: Container): string {
    if (c.image.includes('/chargeback-portal/gateway') || c.image.startsWith('chargeback-portal/gateway'))
      return 'gateway';
    return c.args?.[0] ?? '(none)';
  }
  processesOf(c: Container): ProcessName[] {
    const p = this.processOf(c);
    return p === 'worker' ? WORKER_PROCESSES : [p as ProcessName];
  }
  /** The container's environment: envFrom ConfigMaps, then env; secret values from the example Secret. */
  envOf(c: Container): Record<string, string> {
    const env: Record<string, string> = {};
    for (const from of c.envFrom ?? []) {
      if (from.configMapRef) Object.assign(env, this.configMap(from.configMapRef.name)?.data ?? {});
      if (from.secretRef) Object.assign(env, OPERATOR_SECRETS.get(from.secretRef.name) ?? {});
    }
    for (const e of c.env ?? []) {
      const ref = e.valueFrom?.secretKeyRef ?? e.valueFrom?.configMapKeyRef;
      if (e.valueFrom?.secretKeyRef) env[e.name] = OPERATOR_SECRETS.get(ref!.name)?.[ref!.key] ?? '';
      else if (e.valueFrom?.configMapKeyRef) env[e.name] = this.configMap(ref!.name)?.data?.[ref!.key] ?? '';
      else env[e.name] = e.value ?? '';
    }
    return env;
  }
  containers(o: K8sObject): Container[] {
    return (podSpecOf(o) as unknown as PodSpec).containers;
  }
}

function portNumber(c: Container, port: string | number): number | undefined {
  return typeof port === 'number' ? port : c.ports?.find((p) => p.name === port)?.containerPort;
}
const SERVICE_PORT_VAR: Record<string, string> = {
  case: 'CASE_SERVICE_PORT',
  user: 'USER_SERVICE_PORT',
  docs: 'DOCS_SERVICE_PORT',
  builder: 'BUILDER_SERVICE_PORT',
};
/** The variable naming the port a runner process listens on. */
function portVarOf(process: string): string | undefined {
  if (SERVICE_PORT_VAR[process]) return SERVICE_PORT_VAR[process];
  if (!(PROCESS_NAMES as readonly string[]).includes(process)) return undefined;
  return varsUsedBy([process as ProcessName]).find(
    (v) => /_PORT$/.test(v) && varMeta(v)?.usedBy.length === 1,
  );
}

const renders = [
  new Rendered('base', kustomizeBuild(join(ROOT, 'deploy/base'))),
  new Rendered('production', kustomizeBuild(join(ROOT, 'deploy/overlays/production'))),
];

// ---------------------------------------------------------------- tests

describe('the strict schema check itself', () => {
  it('finds a misspelt field and a field in the wrong place', () => {
    const d = structuredClone(renders[0]!.get('Deployment', 'case')!);
    expect(unknownFields(d)).toEqual([]);
    const c = (podSpecOf(d) as unknown as PodSpec).containers[0]! as unknown as Record<string, unknown>;
    c.readinesProbe = c.readinessProbe;
    (d.spec as Record<string, unknown>).containers = [];
    expect(unknownFields(d)).toEqual(['/spec/template/spec/containers/0/readinesProbe', '/spec/containers']);
  });
});

describe.each(renders)('deploy/ $name', (r) => {
  it('renders every object the portal needs', () => {
    const names = (kind: string) =>
      r
        .of(kind)
        .map((o) => o.metadata.name)
        .sort();
    const apps = ['builder', 'case', 'docs', 'gateway', 'user', 'worker'];
    expect(names('Deployment')).toEqual(apps);
    expect(names('Job')).toEqual(['migrate']);
    for (const app of apps) expect(names('Service'), app).toContain(app);
    expect(names('HorizontalPodAutoscaler')).toEqual(expect.arrayContaining(['case', 'gateway']));
    expect(r.of('Ingress').length).toBe(1);
    expect(r.of('Secret'), 'secrets are created by the operator, never rendered').toEqual([]);
  });

  it('validates every object against the Kubernetes schemas, with no unknown field', () => {
    for (const o of r.objects) {
      const id = `${o.kind}/${o.metadata.name}`;
      expect(schemaErrors(o), id).toEqual([]);
      expect(unknownFields(o), id).toEqual([]);
    }
  });

  it("selects each Deployment's own pods, and Services, HPAs and PDBs target existing Deployments", () => {
    for (const d of r.deployments) {
      const selector = (d.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels;
      expect(matches(selector, podLabels(d)), d.metadata.name).toBe(true);
      for (const other of r.workloads.filter((o) => o !== d))
        expect(
          matches(selector, podLabels(other)),
          `${d.metadata.name} also selects ${other.metadata.name}`,
        ).toBe(false);
    }
    for (const s of r.of('Service')) {
      const spec = s.spec as {
        selector: Record<string, string>;
        ports: { port: number; targetPort: string | number }[];
      };
      const targets = r.deployments.filter((d) => matches(spec.selector, podLabels(d)));
      expect(targets.length, `Service ${s.metadata.name} selects one Deployment`).toBe(1);
      for (const p of spec.ports) {
        const found = r.containers(targets[0]!).some((c) => portNumber(c, p.targetPort) !== undefined);
        expect(found, `Service ${s.metadata.name} targetPort ${p.targetPort}`).toBe(true);
      }
    }
    for (const h of r.of('HorizontalPodAutoscaler')) {
      const ref = (h.spec as { scaleTargetRef: { kind: string; name: string } }).scaleTargetRef;
      const d = r.get(ref.kind, ref.name);
      expect(d, `HPA ${h.metadata.name} target`).toBeDefined();
      expect(ref.kind).toBe('Deployment');
      expect(
        (d!.spec as { replicas?: number }).replicas,
        `${ref.name}: the HPA owns replicas`,
      ).toBeUndefined();
      for (const c of r.containers(d!))
        expect(c.resources?.requests?.cpu, `${ref.name}: CPU request`).toBeDefined();
    }
    for (const d of r.deployments) {
      const pdbs = r
        .of('PodDisruptionBudget')
        .filter((p) =>
          matches(
            (p.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels,
            podLabels(d),
          ),
        );
      expect(pdbs.length, `PodDisruptionBudget of ${d.metadata.name}`).toBe(1);
      const hpa = r
        .of('HorizontalPodAutoscaler')
        .find(
          (h) => (h.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name === d.metadata.name,
        );
      const replicas =
        (hpa?.spec as { minReplicas?: number })?.minReplicas ??
        (d.spec as { replicas?: number }).replicas ??
        1;
      expect(replicas, `${d.metadata.name} runs more than one pod`).toBeGreaterThanOrEqual(2);
    }
    for (const p of r.of('PodDisruptionBudget')) {
      const sel = (p.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels;
      expect(
        r.deployments.some((d) => matches(sel, podLabels(d))),
        `PDB ${p.metadata.name}`,
      ).toBe(true);
    }
  });

  it('runs the images and commands of the Dockerfile, with runner modes that exist', () => {
    for (const o of r.workloads) {
      for (const c of r.containers(o)) {
        const id = `${o.metadata.name}/${c.name}`;
        const gateway = r.processOf(c) === 'gateway';
        const target = gateway ? 'gateway' : 'services';
        const repo = c.image.replace(/[:@].*$/, '');
        if (r.name === 'base') expect(repo, id).toBe(IMAGE_OF_TARGET[target]);
        else {
          expect(repo.endsWith(`/${IMAGE_OF_TARGET[target]}`), `${id}: ${c.image}`).toBe(true);
          expect(c.image, `${id}: a pinned tag`).toMatch(/:(?!latest$)[\w.-]+$|@sha256:/);
        }
        expect(c.command, id).toEqual(DOCKER_CMD[target]);
        if (gateway) expect(c.args, id).toBeUndefined();
        else {
          expect(c.args?.length, `${id}: one mode argument`).toBe(1);
          expect([...RUNNER_MODES], `${id}: mode '${c.args?.[0]}' of services/runner/src/main.ts`).toContain(
            c.args![0],
          );
          expect(c.args![0], `${id}: named after its mode`).toBe(o.metadata.name);
        }
      }
    }
  });

  it('probes readiness and liveness on the routes the code serves (no dependency can fail liveness)', () => {
    // The same constants register the routes: tests/static/probe-routes.test.ts checks each process
    // serves them, the integration tests (gateway/readiness, foundation/probes) what they answer.
    for (const d of r.deployments) {
      for (const c of r.containers(d)) {
        const id = `${d.metadata.name}/${c.name}`;
        const gateway = r.processOf(c) === 'gateway';
        expect(c.readinessProbe?.httpGet?.path, `${id} readiness`).toBe(
          gateway ? GATEWAY_READY_PATH : SERVICE_READY_PATH,
        );
        expect(c.livenessProbe?.httpGet?.path, `${id} liveness`).toBe(
          gateway ? GATEWAY_LIVE_PATH : SERVICE_LIVE_PATH,
        );
        for (const probe of [c.readinessProbe, c.livenessProbe, c.startupProbe]) {
          const port = probe?.httpGet?.port ?? probe?.tcpSocket?.port;
          if (port !== undefined) expect(portNumber(c, port), `${id} probe port ${port}`).toBeDefined();
        }
      }
    }
  });

  it('gives each pod time to drain and close on SIGTERM (terminationGracePeriodSeconds)', () => {
    for (const d of r.deployments) {
      const grace =
        (podSpecOf(d) as { terminationGracePeriodSeconds?: number }).terminationGracePeriodSeconds ?? 30;
      for (const c of r.containers(d)) {
        const id = `${d.metadata.name}/${c.name}`;
        const process = r.processOf(c);
        const env = loadEnv(r.processesOf(c), r.envOf(c));
        if (process === 'gateway') {
          // The gateway drains in production: set explicitly where its grace period is decided.
          expect(c.env?.find((e) => e.name === 'DRAIN_SECONDS')?.value, `${id} DRAIN_SECONDS`).toBeDefined();
          expect(env.DRAIN_SECONDS, id).toBeGreaterThan(0);
          expect(grace, id).toBeGreaterThanOrEqual(gatewayShutdownSeconds(env));
        } else if (process === 'worker') {
          expect(grace, id).toBeGreaterThanOrEqual(env.WORKER_SHUTDOWN_GRACE_SECONDS + CLOSE_SECONDS);
        } else {
          expect(grace, id).toBeGreaterThanOrEqual(env.DRAIN_SECONDS + CLOSE_SECONDS);
        }
      }
    }
  });

  it('sets only variables of the env schema, and each process starts with them in production', () => {
    for (const cm of r.of('ConfigMap').filter((c) => c.metadata.name.startsWith('portal-env'))) {
      const unknown = Object.keys((cm as { data?: object }).data ?? {}).filter((k) => !KNOWN_VARS.has(k));
      expect(unknown, `${cm.metadata.name} keys`).toEqual([]);
    }
    for (const o of r.workloads) {
      for (const c of r.containers(o)) {
        const id = `${o.metadata.name}/${c.name}`;
        const unknown = (c.env ?? []).map((e) => e.name).filter((n) => !KNOWN_VARS.has(n));
        expect(unknown, `${id} sets unknown variables`).toEqual([]);
        const env = r.envOf(c);
        const processes = r.processesOf(c);
        expect(env.NODE_ENV, id).toBe('production');
        expect(() => loadEnv(processes, env), id).not.toThrow();
        for (const name of varsUsedBy(processes)) {
          if (varMeta(name)?.requiredInProduction) expect(env[name], `${id}: ${name}`).toBeTruthy();
          // A read-only root filesystem and no local state: nothing may fall back to DATA_DIR.
          if (LOCAL_STATE_FALLBACKS.includes(name))
            expect(env[name], `${id}: ${name} (else DATA_DIR)`).toBeTruthy();
        }
      }
    }
  });

  it('takes secrets by reference only, from the operator-created Secrets, and only where they are read', () => {
    for (const cm of r.of('ConfigMap')) {
      const keys = Object.keys((cm as { data?: object }).data ?? {});
      expect(
        keys.filter((k) => SECRET_VARS.has(k)),
        `${cm.metadata.name} holds no secret`,
      ).toEqual([]);
    }
    for (const o of r.workloads) {
      const spec = podSpecOf(o) as unknown as PodSpec;
      for (const c of spec.containers) {
        const id = `${o.metadata.name}/${c.name}`;
        const used = new Set(varsUsedBy(r.processesOf(c)));
        for (const e of c.env ?? []) {
          if (SECRET_VARS.has(e.name))
            expect(e.valueFrom?.secretKeyRef, `${id}: ${e.name} by reference`).toBeDefined();
          const s = e.valueFrom?.secretKeyRef;
          if (s) {
            expect(Object.keys(OPERATOR_SECRETS.get(s.name) ?? {}), `${id}: ${s.name}/${s.key}`).toContain(
              s.key,
            );
            expect(used.has(e.name), `${id}: ${e.name} is not read by ${r.processOf(c)}`).toBe(true);
          }
          const m = e.valueFrom?.configMapKeyRef;
          if (m)
            expect(Object.keys(r.configMap(m.name)?.data ?? {}), `${id}: ${m.name}/${m.key}`).toContain(
              m.key,
            );
        }
        for (const from of c.envFrom ?? []) {
          if (from.configMapRef)
            expect(r.configMap(from.configMapRef.name), `${id}: ${from.configMapRef.name}`).toBeDefined();
          expect(from.secretRef, `${id}: whole Secrets are not injected`).toBeUndefined();
        }
      }
      for (const v of spec.volumes ?? []) {
        if (v.configMap) {
          const cm = r.configMap(v.configMap.name);
          expect(cm, `${o.metadata.name}: volume ${v.name}`).toBeDefined();
          const keys = [...Object.keys(cm?.data ?? {}), ...Object.keys(cm?.binaryData ?? {})];
          for (const item of v.configMap.items ?? [])
            expect(keys, `${o.metadata.name}: ${v.name}`).toContain(item.key);
        }
        if (v.secret) {
          const keys = Object.keys(OPERATOR_SECRETS.get(v.secret.secretName) ?? {});
          expect(
            keys.length,
            `${o.metadata.name}: Secret ${v.secret.secretName} is documented`,
          ).toBeGreaterThan(0);
          for (const item of v.secret.items ?? []) expect(keys).toContain(item.key);
        }
      }
    }
  });

  it('mounts the file variables: the JWT key from its Secret, the tenant directory from its ConfigMap', () => {
    for (const o of r.workloads) {
      const spec = podSpecOf(o) as unknown as PodSpec;
      for (const c of spec.containers) {
        const env = r.envOf(c);
        const processes = r.processesOf(c);
        const mounted = (path: string) => {
          const m = (c.volumeMounts ?? []).find(
            (vm) => path === vm.mountPath || path.startsWith(`${vm.mountPath}/`),
          );
          return m && { mount: m, volume: spec.volumes!.find((v) => v.name === m.name)! };
        };
        if (varsUsedBy(processes).includes('JWT_PRIVATE_KEY_FILE')) {
          const file = env.JWT_PRIVATE_KEY_FILE!;
          const at = mounted(file);
          expect(at?.volume.secret, `${o.metadata.name}: ${file} from a Secret`).toBeDefined();
          const items = at!.volume.secret!.items!.map((i) => join(at!.mount.mountPath, i.path));
          expect(items, o.metadata.name).toContain(file);
        }
        if (varsUsedBy(processes).includes('TENANT_CONFIG_DIR')) {
          const dir = env.TENANT_CONFIG_DIR!;
          const at = mounted(dir);
          expect(at?.mount.mountPath, `${o.metadata.name}: tenant configuration mounted at ${dir}`).toBe(dir);
          const cm = r.configMap(at!.volume.configMap!.name)!;
          const items = at!.volume.configMap!.items ?? [];
          const keys = [...Object.keys(cm.data ?? {}), ...Object.keys(cm.binaryData ?? {})];
          expect(items.map((i) => i.key).sort(), `${o.metadata.name}: every key laid out`).toEqual(
            keys.sort(),
          );
          // Lay the volume out as the kubelet would and load it with the gateway's own loader.
          const tmp = mkdtempSync(join(tmpdir(), 'tenants-'));
          try {
            for (const { key, path } of items) {
              mkdirSync(dirname(join(tmp, path)), { recursive: true });
              const text = cm.data?.[key];
              writeFileSync(join(tmp, path), text ?? Buffer.from(cm.binaryData![key]!, 'base64'));
            }
            expect(() => loadTenants(tmp), o.metadata.name).not.toThrow();
          } finally {
            rmSync(tmp, { recursive: true, force: true });
          }
        }
      }
    }
  });

  it('agrees on ports: containers listen on the env ports, service URLs reach them', () => {
    for (const d of r.deployments) {
      for (const c of r.containers(d)) {
        const env = r.envOf(c);
        const process = r.processOf(c);
        if (process === 'gateway') {
          expect(portNumber(c, 'http'), 'gateway PORT').toBe(Number(env.PORT));
          expect(portNumber(c, 'metrics'), 'gateway METRICS_PORT').toBe(Number(env.METRICS_PORT));
        } else {
          const portVar = portVarOf(process);
          expect(portVar, `${process}: its port variable in packages/core/src/env.ts`).toBeDefined();
          expect(portNumber(c, 'http'), `${process}: ${portVar}`).toBe(Number(env[portVar!]));
        }
      }
    }
    const env = r.configMap(
      r.of('ConfigMap').find((c) => c.metadata.name.startsWith('portal-env'))!.metadata.name,
    )!.data!;
    for (const name of SERVICE_NAMES) {
      const url = new URL(env[`${name.toUpperCase()}_SERVICE_URL`]!);
      const service = r.get('Service', url.hostname);
      expect(service, `${name}: Service ${url.hostname}`).toBeDefined();
      const port = (service!.spec as { ports: { port: number; targetPort: string | number }[] }).ports.find(
        (p) => p.port === Number(url.port),
      );
      expect(port, `${name}: port ${url.port} on Service ${url.hostname}`).toBeDefined();
      const d = r.get('Deployment', name)!;
      expect(portNumber(r.containers(d)[0]!, port!.targetPort)).toBe(Number(env[SERVICE_PORT_VAR[name]!]));
    }
  });

  it('runs as non-root with a read-only root filesystem, with requests and limits', () => {
    for (const o of r.workloads) {
      const spec = podSpecOf(o) as unknown as PodSpec;
      expect(spec.securityContext?.runAsNonRoot, o.metadata.name).toBe(true);
      // USER node is a name: the kubelet can only verify runAsNonRoot against a numeric uid.
      expect(spec.securityContext?.runAsUser, o.metadata.name).toBe(DOCKER_USER_UID);
      for (const c of spec.containers) {
        const id = `${o.metadata.name}/${c.name}`;
        expect(c.securityContext?.readOnlyRootFilesystem, id).toBe(true);
        expect(c.securityContext?.allowPrivilegeEscalation, id).toBe(false);
        expect(c.securityContext?.capabilities?.drop, id).toEqual(['ALL']);
        for (const kind of ['requests', 'limits'] as const)
          for (const res of ['cpu', 'memory'])
            expect(c.resources?.[kind]?.[res], `${id} ${kind}.${res}`).toBeDefined();
      }
    }
  });

  it('routes the tenant hosts to the gateway, which trusts only the ingress range', () => {
    const ingress = r.of('Ingress')[0]!;
    const rules = (
      ingress.spec as {
        rules: {
          host: string;
          http: {
            paths: { backend: { service: { name: string; port: { name?: string; number?: number } } } }[];
          };
        }[];
      }
    ).rules;
    const tenantDir = mkdtempSync(join(tmpdir(), 'tenants-'));
    const cm = r.configMap(
      r.of('ConfigMap').find((c) => c.metadata.name.startsWith('tenant-config'))!.metadata.name,
    )!;
    const gatewaySpec = podSpecOf(r.get('Deployment', 'gateway')!) as unknown as PodSpec;
    const items = gatewaySpec.volumes!.find((v) => v.configMap?.name === cm.metadata.name)!.configMap!.items!;
    for (const { key, path } of items) {
      mkdirSync(dirname(join(tenantDir, path)), { recursive: true });
      writeFileSync(join(tenantDir, path), cm.data?.[key] ?? Buffer.from(cm.binaryData![key]!, 'base64'));
    }
    const tenants = loadTenants(tenantDir);
    rmSync(tenantDir, { recursive: true, force: true });
    const domains = new Set(tenants.flatMap((t) => t.config.domains));
    const hasDefault = tenants.some((t) => t.config.default);
    for (const rule of rules) {
      if (r.name === 'base')
        expect([...domains], `host ${rule.host} is a tenant domain`).toContain(rule.host);
      else expect(domains.has(rule.host) || hasDefault, `host ${rule.host} resolves to a tenant`).toBe(true);
      for (const p of rule.http.paths) {
        expect(p.backend.service.name).toBe('gateway');
        const service = r.get('Service', 'gateway')!;
        const ports = (service.spec as { ports: { name?: string; port: number }[] }).ports;
        expect(
          ports.some(
            (sp) => sp.name === p.backend.service.port.name || sp.port === p.backend.service.port.number,
          ),
        ).toBe(true);
      }
    }
    const gateway = gatewaySpec.containers[0]!;
    const trusted = r
      .envOf(gateway)
      .TRUST_PROXY!.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    expect(trusted.length, 'TRUST_PROXY names the ingress range').toBeGreaterThan(0);
    for (const entry of trusted) {
      const [ip, bits] = entry.split('/');
      expect(isIP(ip!), entry).not.toBe(0);
      if (bits !== undefined) expect(Number(bits), entry).toBeGreaterThanOrEqual(8);
    }
  });
});

describe('deploy/overlays/production', () => {
  it('puts every namespaced object in the namespace', () => {
    for (const o of renders[1]!.objects)
      if (o.kind !== 'Namespace')
        expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).toBe('chargeback-portal');
  });
});

describe('config/kustomization.yaml', () => {
  it('generates tenant-config from every file of config/tenants', () => {
    const list = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) =>
        statSync(join(dir, f)).isDirectory() ? list(join(dir, f)) : [join(dir, f)],
      );
    const source = join(ROOT, 'config/tenants');
    const files = list(source)
      .map((f) => relative(source, f))
      .sort();
    const generator = (
      parse(read('config/kustomization.yaml')) as {
        configMapGenerator: { name: string; files?: string[] }[];
      }
    ).configMapGenerator.find((g) => g.name === 'tenant-config')!;
    const generated = generator
      .files!.map((e) => e.slice(e.indexOf('=') + 1).replace(/^tenants\//, ''))
      .sort();
    expect(generated, 'every file of config/tenants is in the tenant-config generator').toEqual(files);
  });
});
