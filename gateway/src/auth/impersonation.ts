import type { UserProfile } from '@portal/contracts';
import type { CacheResult } from '../cache/cached-source';
import type { GatewayCore } from '../core';
import { errors } from '../errors';
import { resourceSet } from '../policy/policy';

/**
 * 'Login As' (design §4 step 4; spec 3 §2; issue 20 item 3).
 *
 * Who: cb911_admin, or partner_admin on a payment-processor tenant; never a
 * read-only actor. Whom: an active user of the same tenant, not the actor,
 * never a cb911_admin, and only someone the actor may manage: a role the
 * actor may assign, inside the actor's merchant subtree (provider staff
 * therefore only for cb911_admin). The gateway checks what it can from the
 * two profiles and asks the user service, which knows the hierarchy, for the
 * rest (`GET /users/users/{id}/impersonation` with the actor's context,
 * answer cached briefly per tenant + actor + target).
 *
 * What: the target's profile capped by the actor's (see `capProfile`).
 */
const LOGIN_AS_ANYWHERE = 'cb911_admin';
const LOGIN_AS_ON_PROCESSOR = 'partner_admin';

export interface Impersonated {
  profile: UserProfile;
  result: CacheResult;
}

function mayLoginAs(actor: UserProfile, clientKind: string): boolean {
  if (actor.is_read_only) return false;
  return (
    actor.roles.includes(LOGIN_AS_ANYWHERE) ||
    (actor.roles.includes(LOGIN_AS_ON_PROCESSOR) && clientKind === 'payment_processor')
  );
}

export async function impersonate(
  gw: GatewayCore,
  tenant: string,
  clientKind: string,
  actor: UserProfile,
  raw: string,
  requestId: string,
): Promise<Impersonated> {
  if (!mayLoginAs(actor, clientKind)) throw errors.impersonationRefused();
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0 || id === actor.id) throw errors.impersonationRefused();
  // The profile is fetched within the caller's tenant: a user of another tenant is unknown here.
  const { value: target, result } = await gw.profiles.get(tenant, id, requestId);
  if (!target || target.status !== 1 || target.roles.includes(LOGIN_AS_ANYWHERE))
    throw errors.impersonationRefused();
  const { value: allowed } = await gw.profiles.mayImpersonate(tenant, actor, target, requestId);
  if (!allowed) throw errors.impersonationRefused();
  const profile = capProfile(target, actor);
  if (!profile) throw errors.impersonationRefused();
  return { profile, result };
}

/**
 * The effective profile while `actor` acts as `target`: never more than the
 * actor holds. Features and resources are the intersection of both; either
 * one read-only makes it read-only; a MID allow-list of the actor bounds the
 * target's MIDs (null when nothing would be left: an empty allow-list means
 * "every MID", so that case is refused rather than widened); excluded MIDs of
 * both apply. The merchant scope is the target's, inside the actor's subtree
 * by the impersonation rule.
 */
function capProfile(target: UserProfile, actor: UserProfile): UserProfile | null {
  const actorFeatures = new Set(actor.features.map((f) => f.alias));
  const actorResources = resourceSet(actor);
  let midsAllowed = target.mids_allowed;
  let midsCount = target.mids_count;
  if (actor.mids_allowed.length) {
    const bound = new Set(actor.mids_allowed);
    midsAllowed = target.mids_allowed.length
      ? target.mids_allowed.filter((m) => bound.has(m))
      : [...actor.mids_allowed];
    const excluded = new Set([...target.mids_excluded, ...actor.mids_excluded]);
    midsAllowed = midsAllowed.filter((m) => !excluded.has(m));
    if (!midsAllowed.length) return null;
    midsCount = Math.min(midsCount, midsAllowed.length);
  }
  const midsExcluded = [...new Set([...target.mids_excluded, ...actor.mids_excluded])];
  return {
    ...target,
    features: target.features.filter((f) => actorFeatures.has(f.alias)),
    resources: target.resources.filter((r) => actorResources.has(r.alias)),
    allow_resources: target.allow_resources.filter((a) => actorResources.has(a)),
    deny_resources: [...target.deny_resources],
    is_read_only: target.is_read_only || actor.is_read_only,
    mids_allowed: midsAllowed,
    mids_excluded: midsExcluded,
    mids_count: midsCount,
  };
}
