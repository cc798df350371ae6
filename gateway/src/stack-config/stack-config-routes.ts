import type { FastifyInstance } from 'fastify';
import { errors } from '../errors';
import type { GatewayCore } from '../core';
import { STACK_CONFIG_NAMES, stackConfigAnswer, stackConfigKey, type StackConfigName } from './stack-config';

/** GET /api/config/cfg/{stack_config_be,slim,cases_advanced_filters}: built here, cached per tenant + user. */
export async function stackConfigRoutes(app: FastifyInstance, gw: GatewayCore) {
  app.get<{ Params: { name: string } }>('/api/config/cfg/:name', async (request, reply) => {
    const name = request.params.name as StackConfigName;
    if (!STACK_CONFIG_NAMES.includes(name)) throw errors.notFound();
    const tenant = request.tenant!;
    const user = request.call!.effective!;
    const key = stackConfigKey(tenant.config.id, user.id, tenant.version, name);
    const { value, result } = await gw.stackConfigs.get(key, async () =>
      stackConfigAnswer(name, tenant, user),
    );
    reply.header('x-cache', result);
    return value;
  });
}
