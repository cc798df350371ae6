import type { FastifyRequest } from 'fastify';
import type { UserProfile } from '@portal/contracts';
import type { Logger } from '@portal/core';
import { callUpstream, type Pools } from '../upstreams/pools';

/**
 * Audit rows of impersonated calls, written by the user service (it owns the
 * audit table). Sent after the answer, off the request path; a failure is
 * logged with both ids so the trail survives in the log at least.
 */
export class ImpersonationAudit {
  constructor(
    private readonly pools: Pools,
    private readonly secret: string,
    private readonly log: Logger,
    private readonly path = '/users/audit',
  ) {}

  record(request: FastifyRequest, actor: UserProfile, effective: UserProfile, status: number) {
    const tenant = request.tenant!.config.id;
    const q = request.url.indexOf('?');
    // The user service takes tenant, both ids, request id and client ip from the signed context and headers.
    const entry = {
      action: 'impersonated_call',
      method: request.method,
      path: (q === -1 ? request.url : request.url.slice(0, q)).slice(0, 2000),
      status,
    };
    callUpstream(this.pools.user, this.secret, {
      method: 'POST',
      path: this.path,
      timeoutMs: 5000,
      body: entry,
      clientIp: request.ip,
      context: {
        tenant,
        user_id: effective.id,
        actor_id: actor.id,
        username: effective.username,
        roles: effective.roles,
        merchant_id: effective.merchant.id,
        read_only: effective.is_read_only,
        mids_allowed: effective.mids_allowed,
        mids_excluded: effective.mids_excluded,
        request_id: request.id,
        kind: 'user',
      },
    })
      .then((answer) => {
        if (answer.status >= 300)
          this.log.error({ tenant, ...entry, answer: answer.status }, 'impersonation audit refused');
      })
      .catch((error: unknown) =>
        this.log.error({ err: error, tenant, ...entry }, 'impersonation audit failed'),
      );
  }
}
