import { Type, type Static } from '@sinclair/typebox';
import { Id, ListResponse, Offset, Text } from './common';
import type { RoleName } from './roles';

/**
 * Merchant API keys (issue 35.1): a merchant's developers call the gateway with
 * `Authorization: Bearer cbp_live_<key id>_<secret>`. The key acts for its
 * merchant (and the merchant's subtree) with its scopes, never with more than
 * its creator holds at the time of each call. Only the SHA-256 of the secret is
 * stored; the whole key is answered once, at creation (or rotation).
 */
export const API_KEY_PREFIX = 'cbp_live_';
/** The key id: 8 lower-case letters and digits after the prefix, shown in lists as `cbp_live_<id>`. */
export const API_KEY_ID_PATTERN = '^[a-z0-9]{8}$';
/** A whole key: prefix, key id, `_`, 43 base64url characters (32 random bytes). */
export const API_KEY_PATTERN = /^cbp_live_([a-z0-9]{8})_([A-Za-z0-9_-]{43})$/;

export const API_KEY_SCOPES = ['cases:read', 'evidence:write', 'reports:read', 'webhooks:manage'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export const ApiKeyScope = Type.Union(API_KEY_SCOPES.map((s) => Type.Literal(s)));

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'cases:read': 'Read cases and alerts',
  'evidence:write': 'Upload and submit evidence',
  'reports:read': 'Read reports',
  'webhooks:manage': 'Manage webhooks',
};

/** Who manages keys: merchant and partner admins for their subtree, provider admins and managers for any merchant. */
export const API_KEY_MANAGER_ROLES: readonly RoleName[] = [
  'cb911_admin',
  'cb911_manager',
  'partner_admin',
  'merchant_admin',
];

/** Grace periods an admin may give the old key at rotation (seconds): none, 1 hour, 24 hours, 7 days. */
export const API_KEY_GRACE_SECONDS = [0, 3600, 86_400, 604_800] as const;

/** Calls per minute of one key (design §4 step 7: the gateway's Redis-backed limiter, the key id as subject). */
export const API_KEY_RATE_PER_MINUTE = 120;

export const API_KEY_MESSAGES = {
  notAllowed: 'Only merchant and partner admins can manage API keys.',
  readOnly: 'Read-only users cannot manage API keys.',
  merchantOutOfScope: 'You cannot manage API keys of this merchant.',
  notFound: 'API key not found.',
  revoked: 'This API key is revoked.',
  expiryPast: 'The expiry must be in the future.',
  expiryTooFar: 'The expiry can be at most 2 years away.',
  duplicateScopes: 'Each scope can be given once.',
  webhooksOwnMerchant: 'The webhooks:manage scope is only for keys of your own merchant.',
  invalidKey: 'The API key is not valid.',
  keyForbidden: 'This API key may not call this route.',
  keyNoImpersonation: 'API keys cannot act as another user.',
  creatorMustUpdatePassword: "The API key's creator must update their password first.",
} as const;

export const API_KEY_STATUSES = ['active', 'grace', 'expired', 'revoked'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

export const ApiKey = Type.Object({
  /** The key id (also the visible part of the key after the prefix). */
  id: Type.String({ pattern: API_KEY_ID_PATTERN }),
  name: Type.String(),
  /** `cbp_live_<id>`: shown with the last four to tell keys apart. */
  prefix: Type.String(),
  last_four: Type.String(),
  merchant_id: Type.Integer(),
  scopes: Type.Array(ApiKeyScope),
  created_at: Type.String(),
  created_by: Type.Union([Type.Object({ id: Type.Integer(), username: Type.String() }), Type.Null()]),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  revoked_at: Type.Union([Type.String(), Type.Null()]),
  last_used_at: Type.Union([Type.String(), Type.Null()]),
  last_used_ip: Type.Union([Type.String(), Type.Null()]),
  /** The key this one replaced (rotation). */
  rotated_from: Type.Union([Type.String(), Type.Null()]),
  /** A rotated key stays valid until then. */
  grace_until: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union(API_KEY_STATUSES.map((s) => Type.Literal(s))),
});
export type ApiKey = Static<typeof ApiKey>;

export const ApiKeyList = ListResponse(ApiKey);
export type ApiKeyList = Static<typeof ApiKeyList>;

export const ApiKeyListQuery = Type.Object({
  /** One merchant's keys (default: every merchant of the caller's scope). */
  merchant_id: Type.Optional(Id()),
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});
export type ApiKeyListQuery = Static<typeof ApiKeyListQuery>;

export const ApiKeyCreateBody = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 100 }),
    scopes: Type.Array(ApiKeyScope, { minItems: 1, maxItems: API_KEY_SCOPES.length }),
    /** Default: the caller's own merchant. */
    merchant_id: Type.Optional(Id()),
    expires_at: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type ApiKeyCreateBody = Static<typeof ApiKeyCreateBody>;

/** Creation and rotation answer the whole key once; it is never shown again. */
export const ApiKeyCreated = Type.Intersect([ApiKey, Type.Object({ secret: Type.String() })]);
export type ApiKeyCreated = Static<typeof ApiKeyCreated>;

export const ApiKeyRotateBody = Type.Object(
  { grace_seconds: Type.Union(API_KEY_GRACE_SECONDS.map((s) => Type.Literal(s))) },
  { additionalProperties: false },
);
export type ApiKeyRotateBody = Static<typeof ApiKeyRotateBody>;

export const ApiKeyIdParams = Type.Object({ id: Type.String({ pattern: API_KEY_ID_PATTERN }) });

/**
 * POST /users/internal/api-keys/resolve (the gateway only): the key id and the
 * SHA-256 of the whole key (the secret never leaves the gateway); `used_from`
 * records the last use (the gateway sends it at most once a minute per key).
 */
export const ApiKeyResolveBody = Type.Object({
  id: Type.String({ pattern: API_KEY_ID_PATTERN }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  used_from: Type.Optional(Type.Union([Text({ maxLength: 64 }), Type.Null()])),
});
export type ApiKeyResolveBody = Static<typeof ApiKeyResolveBody>;

/** A usable key: its creator active and still allowed to manage its merchant's keys. */
export const ApiKeyResolved = Type.Object({
  id: Type.String(),
  merchant_id: Type.Integer(),
  scopes: Type.Array(ApiKeyScope),
  created_by: Type.Integer(),
  /** Expiry or end of the rotation grace, whichever comes first (the gateway checks it per call). */
  valid_until: Type.Union([Type.String(), Type.Null()]),
});
export type ApiKeyResolved = Static<typeof ApiKeyResolved>;

/** The invalidation kind (design §4 step 8) telling every gateway that a key was revoked or rotated. */
export const API_KEY_INVALIDATION = 'api_key';
