import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  API_KEY_PATTERN,
  IMPERSONATE_HEADER,
  PROVIDER_ROLES,
  type ApiKeyResolved,
  type UserProfile,
} from '@portal/contracts';
import type { CacheResult } from '../cache/cached-source';
import type { GatewayCore } from '../core';
import { errors } from '../errors';
import { decide, type CompiledRule } from '../policy/policy';
import type { Tenant } from '../tenants/load';
import type { KeyCheck } from './api-key-resolver';

/** What the key step needs of the pipeline's request. */
export interface KeyCall {
  gw: GatewayCore;
  request: FastifyRequest;
  reply: FastifyReply;
  rule: CompiledRule;
  tenant: Tenant;
  method: string;
}

const derived = new WeakMap<UserProfile, Map<string, UserProfile>>();

/**
 * The identity a key acts with: its creator's current profile (roles, features,
 * page roles, MID lists, read-only) narrowed to the key's merchant. Provider
 * roles are dropped, so the services scope the data to the key's merchant
 * subtree instead of the whole tenant (what remains is never more than the
 * creator holds). One object per profile and key, so the context signer's
 * per-profile memo keeps working.
 */
export function keyProfile(creator: UserProfile, key: ApiKeyResolved): UserProfile {
  let perCreator = derived.get(creator);
  if (!perCreator) {
    perCreator = new Map();
    derived.set(creator, perCreator);
  }
  const memoKey = `${key.id}:${key.merchant_id}`;
  let profile = perCreator.get(memoKey);
  if (!profile) {
    const roles = creator.roles.filter((r) => !(PROVIDER_ROLES as readonly string[]).includes(r));
    profile = {
      ...creator,
      role: roles[0] ?? '',
      roles,
      merchant: {
        id: key.merchant_id,
        business_name: key.merchant_id === creator.merchant.id ? creator.merchant.business_name : '',
        show_alerts_banner: false,
      },
      impersonated_by: null,
    };
    perCreator.set(memoKey, profile);
  }
  return profile;
}

/**
 * Design §4 steps 2-7 for `Authorization: Bearer cbp_live_...` (issue 35.1):
 * the key must be known, unrevoked, unexpired and its creator active and still
 * a key manager of its merchant (user service, per second at most); no
 * impersonation; the call's policy row must name one of the key's scopes
 * (default deny); then the ordinary policy checks on the narrowed creator
 * profile (read-only creators stay read-only); a limit per key.
 */
export function apiKeyStep(call: KeyCall, token: string): void | Promise<void> {
  const { gw, request, tenant } = call;
  const parsed = API_KEY_PATTERN.exec(token);
  if (!parsed) throw errors.invalidApiKey();
  const checked = gw.apiKeys.resolve(tenant.config.id, parsed[1]!, token, request.ip, request.id);
  if (checked instanceof Promise) return checked.then((c) => afterKey(call, c));
  return afterKey(call, checked);
}

function afterKey(call: KeyCall, check: KeyCheck): void | Promise<void> {
  const { gw, request, tenant } = call;
  if (!check.ok) {
    request.log.info({ reason: check.reason }, 'API key refused');
    throw errors.invalidApiKey();
  }
  return gw.profiles.with(tenant.config.id, check.key.created_by, request.id, (loaded) =>
    authorizeKey(call, check.key, loaded.value, loaded.result),
  );
}

function authorizeKey(
  call: KeyCall,
  key: ApiKeyResolved,
  creator: UserProfile | null,
  result: CacheResult,
): void {
  const { gw, request, reply, rule, tenant, method } = call;
  // A creator deleted, disabled or locked since the key was resolved: the key stops with them.
  if (!creator || creator.status !== 1) {
    request.log.info({ key: key.id }, 'API key refused: creator inactive');
    throw errors.invalidApiKey();
  }
  const target = request.headers[IMPERSONATE_HEADER];
  if (typeof target === 'string' && target.trim() !== '') throw errors.apiKeyNoImpersonation();
  if (rule.apiKey === undefined || !key.scopes.includes(rule.apiKey)) {
    request.log.info({ rule: rule.id, key: key.id }, 'call refused to API key');
    throw errors.apiKeyForbidden();
  }
  // The webhook routes act on the creator's own merchant: only a key of that merchant may reach them.
  if (rule.apiKey === 'webhooks:manage' && key.merchant_id !== creator.merchant.id)
    throw errors.apiKeyForbidden();
  if (creator.must_update_password) throw errors.apiKeyCreatorPassword();
  const effective = keyProfile(creator, key);
  request.call = {
    rule,
    actor: effective,
    effective,
    impersonating: false,
    profileCache: result,
    apiKey: { id: key.id, scopes: key.scopes },
  };
  const decision = decide(rule, method, effective, tenant.config);
  if (!decision.ok) {
    request.log.info(
      { rule: rule.id, reason: decision.reason, key: key.id },
      'API key call refused by policy',
    );
    if (decision.reason === 'read-only') throw errors.readOnly();
    throw errors.forbidden();
  }
  gw.limits.check('key', request, reply);
}
