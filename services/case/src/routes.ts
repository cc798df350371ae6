import type { FastifyPluginAsync } from 'fastify';

/** Case service routes (/cm/*, /ert/*). */
export const caseRoutes: FastifyPluginAsync = async () => {};
