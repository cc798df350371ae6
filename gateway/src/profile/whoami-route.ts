import type { FastifyInstance } from 'fastify';
import type { UserProfile } from '@portal/contracts';
import type { GatewayCore } from '../core';

/**
 * POST /api/users/whoami answered from the profile cache (x-cache HIT|MISS):
 * the effective user's profile, naming the actor in impersonated_by while
 * impersonating. The pipeline has already loaded both (from the cache or not).
 */
export async function whoamiRoute(app: FastifyInstance, _gw: GatewayCore) {
  app.post('/api/users/whoami', async (request, reply) => {
    const call = request.call!;
    const profile: UserProfile = { ...call.effective! };
    profile.impersonated_by = call.impersonating
      ? { id: call.actor!.id, fname: call.actor!.fname, lname: call.actor!.lname }
      : null;
    reply.header('x-cache', call.profileCache ?? 'MISS');
    return profile;
  });
}
