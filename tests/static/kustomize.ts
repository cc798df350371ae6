/**
 * The subset of kustomize that deploy/ uses, rendered offline (no kustomize or
 * kubectl binary can be installed here): resources (files and directories),
 * namespace, commonLabels, images, configMapGenerator (files, literals,
 * behavior create/merge/replace, the content-hash name suffix) and patches
 * (JSON 6902 with a target). A kustomization field outside this subset is an
 * error rather than silently ignored, and files outside a kustomization's
 * directory are refused as kustomize's default load restrictor does.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { parseAllDocuments } from 'yaml';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

interface Generator {
  name: string;
  behavior?: 'create' | 'merge' | 'replace';
  files?: string[];
  literals?: string[];
  options?: { disableNameSuffixHash?: boolean; labels?: Record<string, string> };
}
interface Patch {
  target: { group?: string; version?: string; kind?: string; name?: string };
  patch: string;
}
interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  namespace?: string;
  commonLabels?: Record<string, string>;
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
  configMapGenerator?: Generator[];
  generatorOptions?: { disableNameSuffixHash?: boolean };
  patches?: Patch[];
}
const SUPPORTED = new Set([
  'apiVersion',
  'kind',
  'resources',
  'namespace',
  'commonLabels',
  'images',
  'configMapGenerator',
  'generatorOptions',
  'patches',
]);
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PriorityClass',
  'StorageClass',
  'IngressClass',
  'PersistentVolume',
]);

/** Generated ConfigMaps: their name before the hash suffix, and whether they get one. */
const generated = new WeakMap<K8sObject, { hash: boolean }>();

/** kustomize's default: files must lie in or below the kustomization's directory. */
function confined(root: string, file: string): string {
  const real = realpathSync(resolve(root, file));
  const realRoot = realpathSync(root);
  if (real !== realRoot && !real.startsWith(realRoot + sep))
    throw new Error(`security; file '${file}' is not in or below '${root}'`);
  return real;
}

function readKustomization(dir: string): Kustomization {
  const file = ['kustomization.yaml', 'kustomization.yml', 'Kustomization']
    .map((f) => join(dir, f))
    .find((f) => existsSync(f));
  if (!file) throw new Error(`${dir}: no kustomization.yaml`);
  const k = parseAllDocuments(readFileSync(file, 'utf8'))[0]!.toJS() as Kustomization;
  const unsupported = Object.keys(k).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length)
    throw new Error(`${file}: fields this renderer does not implement: ${unsupported.join(', ')}`);
  return k;
}

function readObjects(file: string): K8sObject[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => {
      if (d.errors.length) throw new Error(`${file}: ${d.errors[0]!.message}`);
      return d.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

function generateConfigMap(dir: string, g: Generator, k: Kustomization): K8sObject {
  const data: Record<string, string> = {};
  const binaryData: Record<string, string> = {};
  const put = (key: string, value: string | Buffer) => {
    if (!/^[-._a-zA-Z0-9]+$/.test(key)) throw new Error(`configMapGenerator ${g.name}: invalid key '${key}'`);
    if (key in data || key in binaryData)
      throw new Error(`configMapGenerator ${g.name}: duplicate key '${key}'`);
    if (typeof value === 'string') data[key] = value;
    else {
      // kustomize keeps valid UTF-8 as data and anything else as base64 binaryData.
      try {
        data[key] = new TextDecoder('utf-8', { fatal: true }).decode(value);
      } catch {
        binaryData[key] = value.toString('base64');
      }
    }
  };
  for (const entry of g.files ?? []) {
    const eq = entry.indexOf('=');
    const [key, path] = eq === -1 ? [basename(entry), entry] : [entry.slice(0, eq), entry.slice(eq + 1)];
    put(key, readFileSync(confined(dir, path)));
  }
  for (const literal of g.literals ?? []) {
    const eq = literal.indexOf('=');
    if (eq <= 0) throw new Error(`configMapGenerator ${g.name}: literal '${literal}' is not KEY=VALUE`);
    let value = literal.slice(eq + 1);
    if (/^(["']).*\1$/s.test(value)) value = value.slice(1, -1);
    put(literal.slice(0, eq), value);
  }
  const cm: K8sObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: g.name } };
  if (g.options?.labels) cm.metadata.labels = { ...g.options.labels };
  if (Object.keys(data).length) cm.data = data;
  if (Object.keys(binaryData).length) cm.binaryData = binaryData;
  generated.set(cm, {
    hash: !(g.options?.disableNameSuffixHash ?? k.generatorOptions?.disableNameSuffixHash ?? false),
  });
  return cm;
}

/** RFC 6901 pointer into an object, creating nothing. */
function pointer(path: string): string[] {
  if (!path.startsWith('/')) throw new Error(`patch path '${path}' must start with /`);
  return path
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** RFC 6902 add / replace / remove, the operations deploy/ uses. */
function applyJsonPatch(target: K8sObject, ops: { op: string; path: string; value?: unknown }[]) {
  for (const { op, path, value } of ops) {
    const parts = pointer(path);
    const last = parts.pop()!;
    let node: unknown = target;
    for (const p of parts) {
      node = (node as Record<string, unknown>)?.[p];
      if (node === undefined || node === null) throw new Error(`patch ${op} ${path}: no such path`);
    }
    const parent = node as Record<string, unknown> | unknown[];
    if (Array.isArray(parent)) {
      const i = last === '-' ? parent.length : Number(last);
      if (!Number.isInteger(i) || i < 0 || i > parent.length)
        throw new Error(`patch ${op} ${path}: bad index`);
      if (op === 'add') parent.splice(i, 0, value);
      else if (op === 'replace' || op === 'remove') {
        if (i >= parent.length) throw new Error(`patch ${op} ${path}: no such element`);
        if (op === 'replace') parent[i] = value;
        else parent.splice(i, 1);
      } else throw new Error(`patch op '${op}' is not implemented`);
    } else {
      if ((op === 'replace' || op === 'remove') && !(last in parent))
        throw new Error(`patch ${op} ${path}: no such field`);
      if (op === 'add' || op === 'replace') parent[last] = value;
      else if (op === 'remove') delete parent[last];
      else throw new Error(`patch op '${op}' is not implemented`);
    }
  }
}

function matchesTarget(o: K8sObject, t: Patch['target']): boolean {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  return (
    (t.group === undefined || t.group === group) &&
    (t.version === undefined || t.version === version) &&
    (t.kind === undefined || t.kind === o.kind) &&
    (t.name === undefined || t.name === o.metadata.name)
  );
}

/** Pod templates of the workloads kustomize transforms. */
export function podSpecOf(o: K8sObject): Record<string, unknown> | undefined {
  if (['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicaSet'].includes(o.kind))
    return ((o.spec as Record<string, unknown>)?.template as Record<string, unknown>)?.spec as
      Record<string, unknown> | undefined;
  if (o.kind === 'CronJob') {
    const job = ((o.spec as Record<string, unknown>)?.jobTemplate as Record<string, unknown>)?.spec as
      Record<string, unknown> | undefined;
    return (job?.template as Record<string, unknown>)?.spec as Record<string, unknown> | undefined;
  }
  return undefined;
}

type Container = { image?: string; env?: unknown[]; envFrom?: unknown[] };
function containersOf(o: K8sObject): Container[] {
  const spec = podSpecOf(o);
  if (!spec) return [];
  return [...((spec.initContainers as Container[]) ?? []), ...((spec.containers as Container[]) ?? [])];
}

/** Sets each label at a path, creating the maps on the way when `create`. */
function addLabels(root: unknown, path: string[], labels: Record<string, string>, create: boolean) {
  let node = root as Record<string, unknown>;
  for (const p of path) {
    if (node[p] === undefined || node[p] === null) {
      if (!create) return;
      node[p] = {};
    }
    node = node[p] as Record<string, unknown>;
  }
  Object.assign(node, labels);
}

function applyCommonLabels(o: K8sObject, labels: Record<string, string>) {
  addLabels(o, ['metadata', 'labels'], labels, true);
  const workload = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'].includes(o.kind);
  if (workload) {
    addLabels(o, ['spec', 'selector', 'matchLabels'], labels, true);
    addLabels(o, ['spec', 'template', 'metadata', 'labels'], labels, true);
  }
  if (o.kind === 'Job') {
    addLabels(o, ['spec', 'selector', 'matchLabels'], labels, false);
    addLabels(o, ['spec', 'template', 'metadata', 'labels'], labels, true);
  }
  if (o.kind === 'Service') addLabels(o, ['spec', 'selector'], labels, true);
  if (o.kind === 'PodDisruptionBudget') addLabels(o, ['spec', 'selector', 'matchLabels'], labels, false);
}

function splitImage(image: string): { name: string; tag?: string; digest?: string } {
  const [withTag, digest] = image.split('@') as [string, string | undefined];
  const colon = withTag.lastIndexOf(':');
  const hasTag = colon > withTag.lastIndexOf('/');
  return {
    name: hasTag ? withTag.slice(0, colon) : withTag,
    tag: hasTag ? withTag.slice(colon + 1) : undefined,
    digest,
  };
}

function applyImages(o: K8sObject, images: NonNullable<Kustomization['images']>) {
  for (const c of containersOf(o)) {
    if (!c.image) continue;
    const img = splitImage(c.image);
    const rule = images.find((i) => i.name === img.name);
    if (!rule) continue;
    const name = rule.newName ?? img.name;
    if (rule.digest) c.image = `${name}@${rule.digest}`;
    else {
      const tag = rule.newTag ?? img.tag;
      c.image = `${name}${tag ? `:${tag}` : ''}${!rule.newTag && img.digest ? `@${img.digest}` : ''}`;
    }
  }
}

/** One kustomization directory: its resources, generators and transformers. */
function build(dir: string): K8sObject[] {
  const k = readKustomization(dir);
  const objects: K8sObject[] = [];
  for (const entry of k.resources ?? []) {
    const path = resolve(dir, entry);
    if (!existsSync(path)) throw new Error(`${dir}: resource '${entry}' does not exist`);
    // Directories (bases) may lie anywhere; files must lie under this one.
    if (statSync(path).isDirectory()) objects.push(...build(path));
    else objects.push(...readObjects(confined(dir, entry)));
  }
  for (const g of k.configMapGenerator ?? []) {
    const cm = generateConfigMap(dir, g, k);
    const behavior = g.behavior ?? 'create';
    const existing = objects.findIndex(
      (o) => o.kind === 'ConfigMap' && o.metadata.name === g.name && generated.has(o),
    );
    if (behavior === 'create') {
      if (existing !== -1) throw new Error(`${dir}: ConfigMap ${g.name} is generated twice`);
      objects.push(cm);
    } else {
      if (existing === -1) throw new Error(`${dir}: ConfigMap ${g.name} to ${behavior} does not exist`);
      const base = objects[existing]!;
      if (behavior === 'merge') {
        cm.data = { ...(base.data as object), ...(cm.data as object) };
        cm.binaryData = { ...(base.binaryData as object), ...(cm.binaryData as object) };
        if (!Object.keys(cm.binaryData as object).length) delete cm.binaryData;
        cm.metadata.labels = { ...base.metadata.labels, ...cm.metadata.labels };
      }
      generated.set(cm, generated.get(base)!);
      objects[existing] = cm;
    }
  }
  for (const p of k.patches ?? []) {
    if (!p.target || !p.patch)
      throw new Error(`${dir}: only JSON 6902 patches with a target are implemented`);
    const targets = objects.filter((o) => matchesTarget(o, p.target));
    if (!targets.length) throw new Error(`${dir}: patch target ${JSON.stringify(p.target)} matches nothing`);
    const ops = parseAllDocuments(p.patch)[0]!.toJS() as { op: string; path: string; value?: unknown }[];
    for (const t of targets) applyJsonPatch(t, ops);
  }
  for (const o of objects) {
    if (k.namespace && !CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
    if (k.commonLabels) applyCommonLabels(o, k.commonLabels);
    if (k.images) applyImages(o, k.images);
  }
  return objects;
}

/** Go's encoding/json string escaping (kustomize hashes Go's JSON of the ConfigMap). */
function goJson(value: unknown): string {
  if (value === null || typeof value !== 'object')
    return JSON.stringify(value)
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029');
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, v]) => `${goJson(k)}:${goJson(v)}`).join(',')}}`;
}

/** kustomize's ConfigMap hash: sha256 of {kind, name, data[, binaryData]}, 10 characters, no vowels-like digits. */
export function configMapHash(cm: K8sObject): string {
  const encoded: Record<string, unknown> = { kind: 'ConfigMap', name: cm.metadata.name, data: cm.data ?? {} };
  if (cm.binaryData && Object.keys(cm.binaryData).length) encoded.binaryData = cm.binaryData;
  const hex = createHash('sha256').update(goJson(encoded)).digest('hex').slice(0, 10);
  return hex.replace(/[013ae]/g, (c) => ({ '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' })[c]!);
}

/** Renames generated ConfigMaps with their hash and rewrites every pod reference to them. */
function suffixGenerated(objects: K8sObject[]) {
  const renamed = new Map<string, string>();
  for (const o of objects) {
    if (o.kind !== 'ConfigMap' || !generated.get(o)?.hash) continue;
    const name = `${o.metadata.name}-${configMapHash(o)}`;
    renamed.set(`${o.metadata.namespace ?? ''}/${o.metadata.name}`, name);
    o.metadata.name = name;
  }
  const rename = (ns: string | undefined, ref: { name?: string } | undefined) => {
    const to = ref?.name && renamed.get(`${ns ?? ''}/${ref.name}`);
    if (to) ref!.name = to;
  };
  for (const o of objects) {
    const spec = podSpecOf(o);
    if (!spec) continue;
    const ns = o.metadata.namespace;
    for (const v of (spec.volumes as Record<string, Record<string, unknown>>[]) ?? []) {
      rename(ns, v.configMap as { name?: string });
      for (const s of (v.projected?.sources as Record<string, { name?: string }>[]) ?? [])
        rename(ns, s.configMap);
    }
    for (const c of containersOf(o)) {
      for (const e of (c.envFrom as { configMapRef?: { name?: string } }[]) ?? []) rename(ns, e.configMapRef);
      for (const e of (c.env as { valueFrom?: { configMapKeyRef?: { name?: string } } }[]) ?? [])
        rename(ns, e.valueFrom?.configMapKeyRef);
    }
  }
}

/** `kustomize build DIR` for the subset above. */
export function kustomizeBuild(dir: string): K8sObject[] {
  const objects = build(dir);
  suffixGenerated(objects);
  const seen = new Set<string>();
  for (const o of objects) {
    const id = `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    if (seen.has(id)) throw new Error(`${relative(process.cwd(), dir)}: ${id} is defined twice`);
    seen.add(id);
  }
  return objects;
}
