import type { FastifyPluginAsync } from 'fastify';

/** User service routes (/users/*). */
export const userRoutes: FastifyPluginAsync = async () => {};
