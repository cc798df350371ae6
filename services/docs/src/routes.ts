import type { FastifyPluginAsync } from 'fastify';

/** Docs service routes (/docs/*). */
export const docsRoutes: FastifyPluginAsync = async () => {};
