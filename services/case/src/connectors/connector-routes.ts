import type { FastifyPluginAsync } from 'fastify';
import { connectionRoutes } from './connection-routes';
import { eventRoutes } from './event-routes';

/** The connector feature's routes: connections (/cm/merchants/:id/connections) and processor events. */
export const connectorRoutes: FastifyPluginAsync = async (app) => {
  await app.register(connectionRoutes);
  // Its own scope: the raw-body parser applies to the events route only.
  await app.register(eventRoutes);
};
