import type { FastifyPluginAsync } from 'fastify';

/** Builder service routes (/builder/*). */
export const builderRoutes: FastifyPluginAsync = async () => {};
