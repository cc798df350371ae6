import { Type, type Static } from '@sinclair/typebox';

/** Header carrying the gateway's signed internal context to the services (design §4 step 9). */
export const INTERNAL_CONTEXT_HEADER = 'x-portal-context';
/** Header carrying the request id end to end. */
export const REQUEST_ID_HEADER = 'x-request-id';
/** Header the browser sends while impersonating ('Login As'). */
export const IMPERSONATE_HEADER = 'x-impersonate-user-id';
/** Redis pub/sub channel for cache invalidation (design §4 step 8), prefixed by REDIS_KEY_PREFIX. */
export const INVALIDATE_CHANNEL = 'portal:invalidate';

/**
 * Who is calling and what they may see. Signed by the gateway (or by a service
 * calling another service as `system`), verified by every service.
 */
export const InternalContext = Type.Object({
  tenant: Type.String(),
  /** Effective user (the impersonated user while impersonating); null for public and system calls. */
  user_id: Type.Union([Type.Integer(), Type.Null()]),
  /** The signed-in user who acts; differs from user_id while impersonating. */
  actor_id: Type.Union([Type.Integer(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  roles: Type.Array(Type.String()),
  merchant_id: Type.Union([Type.Integer(), Type.Null()]),
  read_only: Type.Boolean(),
  mids_allowed: Type.Array(Type.String()),
  mids_excluded: Type.Array(Type.String()),
  request_id: Type.String(),
  /** 'user' for signed-in calls, 'public' for the auth calls, 'system' for service-to-service calls. */
  kind: Type.Union([Type.Literal('user'), Type.Literal('public'), Type.Literal('system')]),
  /** Expiry, seconds since epoch: a captured header is useless soon after. */
  exp: Type.Integer(),
});
export type InternalContext = Static<typeof InternalContext>;

/**
 * 'session': a signed-out session (id = the refresh family, the access token's `sid`); 'api_key': a
 * revoked or rotated API key (id = the key id).
 */
export type InvalidationKind = 'user' | 'merchant' | 'lookup' | 'config' | 'session' | 'api_key';
export interface InvalidationMessage {
  tenant: string;
  kind: InvalidationKind;
  id: string | number | null;
}
