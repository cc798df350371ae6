import { createHash, hash as oneShotHash } from 'node:crypto';
import type { InternalContext, UserProfile } from '@portal/contracts';
import { CONTEXT_TTL_SECONDS } from '@portal/core';

/**
 * The signed internal context of proxied calls (design §4 step 9), byte for
 * byte what `signContext` of @portal/core produces and `verifyContext` checks
 * (base64url(JSON) + '.' + HMAC-SHA256, exp = now + CONTEXT_TTL_SECONDS), at a
 * lower cost per request (issue 11.6 profile: the signature was the largest
 * item of the gateway's own code):
 *
 * - the HMAC is computed with two one-shot SHA-256 calls over the precomputed
 *   key pads (RFC 2104) instead of a new Hmac object per request;
 * - the JSON of the user part (tenant, user, actor, roles, merchant,
 *   read-only, MID lists) is serialised once per (profile object, tenant,
 *   actor) and reused while the cached profile lives; only request_id, kind
 *   and exp are appended per request.
 *
 * The signed header itself is not reused across requests: it carries the
 * request id, which the services write to their audit rows, and a fresh exp.
 */
export class ContextSigner {
  private readonly innerPad: Buffer;
  private readonly outerPad: Buffer;
  /** The inner pad as text when every byte is ASCII (then UTF-8 and Latin-1 agree). */
  private readonly innerPadText: string | undefined;
  private readonly outerInput = Buffer.alloc(96);
  /** Effective profile -> `${tenant}\0${actor}` -> JSON of the user part without its closing brace. */
  private readonly userParts = new WeakMap<UserProfile, Map<string, string>>();

  constructor(secret: string) {
    let key = Buffer.from(secret, 'utf8');
    if (key.length > 64) key = createHash('sha256').update(key).digest();
    this.innerPad = Buffer.alloc(64, 0x36);
    this.outerPad = Buffer.alloc(64, 0x5c);
    for (let i = 0; i < key.length; i++) {
      this.innerPad[i]! ^= key[i]!;
      this.outerPad[i]! ^= key[i]!;
    }
    this.innerPadText = this.innerPad.every((b) => b < 0x80) ? this.innerPad.toString('latin1') : undefined;
    this.outerPad.copy(this.outerInput, 0);
  }

  /** HMAC-SHA256(secret, payload) as base64url, as createHmac would answer. payload: base64url text. */
  mac(payload: string): string {
    // An ASCII inner pad hashes as one string with the (ASCII) payload: no buffers per call.
    const inner = (
      this.innerPadText !== undefined
        ? sha256(this.innerPadText + payload)
        : sha256(Buffer.concat([this.innerPad, Buffer.from(payload, 'latin1')]))
    ) as Buffer;
    // Outer input: the pad and the inner digest in one reused buffer (hashing is synchronous).
    this.outerInput.set(inner, 64);
    return sha256(this.outerInput, 'base64url') as string;
  }

  /** Any context (as signContext). */
  sign(context: Omit<InternalContext, 'exp'>, now = Date.now()): string {
    const body: InternalContext = { ...context, exp: Math.floor(now / 1000) + CONTEXT_TTL_SECONDS };
    return this.finish(JSON.stringify(body));
  }

  /** The context of a signed-in user's call: the same bytes as sign(contextFor(request)). */
  signUser(
    tenant: string,
    effective: UserProfile,
    actorId: number,
    requestId: string,
    now = Date.now(),
  ): string {
    let perProfile = this.userParts.get(effective);
    if (!perProfile) {
      perProfile = new Map();
      this.userParts.set(effective, perProfile);
    }
    const key = `${tenant}\u0000${actorId}`;
    let head = perProfile.get(key);
    if (head === undefined) {
      const json = JSON.stringify({
        tenant,
        user_id: effective.id,
        actor_id: actorId,
        username: effective.username,
        roles: effective.roles,
        merchant_id: effective.merchant.id,
        read_only: effective.is_read_only,
        mids_allowed: effective.mids_allowed,
        mids_excluded: effective.mids_excluded,
      });
      head = json.slice(0, -1);
      perProfile.set(key, head);
    }
    const exp = Math.floor(now / 1000) + CONTEXT_TTL_SECONDS;
    return this.finish(`${head},"request_id":${JSON.stringify(requestId)},"kind":"user","exp":${exp}}`);
  }

  private finish(json: string): string {
    const payload = Buffer.from(json, 'utf8').toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }
}

/** One-shot SHA-256 (crypto.hash where the runtime has it, else a Hash object). */
const sha256: (data: Buffer | string, encoding?: 'base64url') => Buffer | string =
  typeof oneShotHash === 'function'
    ? (data, encoding) => oneShotHash('sha256', data, encoding ?? 'buffer')
    : (data, encoding) => {
        const h = createHash('sha256').update(data);
        return encoding ? h.digest(encoding) : h.digest();
      };
