import type { FastifyPluginAsync } from 'fastify';
import { ErrorResponse, FeatureCatalogue } from '@portal/contracts';
import { forbidden } from '@portal/core';
import { loadActor } from '../users/access';

/**
 * GET /users/features/catalogue: every role with the features and site
 * permissions it holds (the Features page). Only for a user whose role holds
 * features-list; the gateway's policy says the same, this is the second lock.
 */
export const featureCatalogueRoute: FastifyPluginAsync = async (app) => {
  const { db } = app.deps;
  app.get(
    '/users/features/catalogue',
    {
      schema: {
        tags: ['features'],
        response: { 200: FeatureCatalogue, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request): Promise<FeatureCatalogue> => {
      const actor = await loadActor(request, db);
      if (actor.user) {
        const { rowCount } = await db.query(
          `select 1 from users.role_features rf join users.features f on f.id = rf.feature_id
            where rf.role_id = $1 and f.alias = 'features-list'`,
          [actor.user.role_id],
        );
        if (!rowCount) throw forbidden('You do not have access to the features list.');
      }
      const [roles, features, resources] = await Promise.all([
        db.query<FeatureCatalogue['roles'][number]>(
          `select r.id, r.name, r.label,
                  array(select feature_id from users.role_features where role_id = r.id order by feature_id) as feature_ids,
                  array(select resource_id from users.role_resources where role_id = r.id order by resource_id) as resource_ids
             from users.roles r order by r.id`,
        ),
        db.query<FeatureCatalogue['features'][number]>(
          `select id, alias, name from users.features order by id`,
        ),
        db.query<FeatureCatalogue['resources'][number]>(
          `select id, alias, name, url from users.resources order by id`,
        ),
      ]);
      return { roles: roles.rows, features: features.rows, resources: resources.rows };
    },
  );
};
