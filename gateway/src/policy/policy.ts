import { UNIVERSAL_ROLE, type UserProfile } from '@portal/contracts';
import type { TenantFile } from '@portal/core';
import { POLICY, type Method, type PolicyRule } from './policy-table';

export interface CompiledRule extends PolicyRule {
  /** Metric label: the rule's method list and path pattern. */
  id: string;
  regex: RegExp;
}

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const isWrite = (method: string) => WRITE.has(method);

function compile(rule: PolicyRule): CompiledRule {
  const pattern = rule.path
    .split('/')
    .map((seg) =>
      seg === '*' ? '.+' : seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return { ...rule, id: `${rule.methods.join(',')} ${rule.path}`, regex: new RegExp(`^${pattern}$`) };
}

/**
 * A call not named in the table, whatever its method: refused (default deny). Every route a service
 * or the gateway registers has its row (tests/integration/gateway/policy-coverage.test.ts), so this
 * answers only calls of no route and the services' internal calls.
 */
export const DENY: CompiledRule = {
  ...compile({ methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], path: '/api/*' }),
  id: 'deny /api/*',
};

/**
 * The compiled table, bucketed by the first path segment after /api so a
 * lookup tries a handful of patterns, not all of them.
 */
export class Policy {
  private readonly buckets = new Map<string, CompiledRule[]>();

  constructor(rules: readonly PolicyRule[] = POLICY) {
    for (const rule of rules) {
      const c = compile(rule);
      const head = rule.path.split('/')[2] ?? '';
      if (head.startsWith(':') || head === '*')
        throw new Error(`policy rule ${c.id}: the first segment after /api must be literal`);
      const list = this.buckets.get(head) ?? [];
      list.push(c);
      this.buckets.set(head, list);
    }
  }

  /** Answers of match() per method + path (the table is fixed): bounded, emptied when full. */
  private readonly memo = new Map<string, CompiledRule>();
  private static readonly MEMO_MAX = 10_000;

  /** The rule for a call; `path` is the normalised path without query (trailing slash removed). */
  match(method: string, path: string): CompiledRule {
    const key = `${method} ${path}`;
    let rule = this.memo.get(key);
    if (rule === undefined) {
      rule = this.find(method, path);
      if (this.memo.size >= Policy.MEMO_MAX) this.memo.clear();
      this.memo.set(key, rule);
    }
    return rule;
  }

  private find(method: string, path: string): CompiledRule {
    // The services' internal calls (an `internal` segment) are never forwarded, whatever a wildcard row says.
    if (/\/internal(\/|$)/.test(path)) return DENY;
    const head = path.split('/', 3)[2] ?? '';
    for (const rule of this.buckets.get(head) ?? []) {
      if (rule.methods.includes(method as Method) && rule.regex.test(path)) return rule;
    }
    if (method === 'HEAD') return this.find('GET', path);
    return DENY;
  }
}

type Decision = { ok: true } | { ok: false; reason: 'read-only' | 'forbidden' | 'federated' };

/** The page roles a user holds: resources plus individual allows, minus individual denies. */
export function resourceSet(profile: UserProfile): Set<string> {
  const set = new Set(profile.resources.map((r) => r.alias));
  for (const a of profile.allow_resources) set.add(a);
  for (const d of profile.deny_resources) set.delete(d);
  return set;
}

/** Design §4 steps 5 and 6 for the effective user. */
export function decide(
  rule: CompiledRule,
  method: string,
  profile: UserProfile,
  tenant: TenantFile,
): Decision {
  if (rule === DENY)
    return { ok: false, reason: profile.is_read_only && isWrite(method) ? 'read-only' : 'forbidden' };
  if (profile.is_read_only && isWrite(method) && !rule.readOnly) return { ok: false, reason: 'read-only' };
  if (rule.notFederated && profile.is_federated) return { ok: false, reason: 'federated' };
  if (
    rule.roles &&
    !rule.roles.includes(UNIVERSAL_ROLE as never) &&
    !profile.roles.some((r) => rule.roles!.includes(r as never))
  ) {
    return { ok: false, reason: 'forbidden' };
  }
  if (rule.features && !profile.features.some((f) => rule.features!.includes(f.alias)))
    return { ok: false, reason: 'forbidden' };
  if (rule.resources) {
    const held = resourceSet(profile);
    if (!rule.resources.some((r) => held.has(r))) return { ok: false, reason: 'forbidden' };
  }
  if (rule.flags && !rule.flags.every((f) => tenant.flags[f] === true))
    return { ok: false, reason: 'forbidden' };
  if (rule.stackSetting && stackSetting(tenant, profile, rule.stackSetting) !== true)
    return { ok: false, reason: 'forbidden' };
  return { ok: true };
}

/** One stack setting as the user's stack config answers it: user override, else merchant's, else the default. */
function stackSetting(
  tenant: TenantFile,
  profile: UserProfile,
  name: NonNullable<PolicyRule['stackSetting']>,
) {
  const sc = tenant.stack_config;
  return (
    sc.users?.[String(profile.id)]?.[name] ??
    sc.merchants?.[String(profile.merchant.id)]?.[name] ??
    sc.defaults[name]
  );
}
