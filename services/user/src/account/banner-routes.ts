import { BannerQuery, BannerState } from '@portal/contracts';
import type { UserServiceState } from '../lib/context';
import { serviceLevelOf } from '../profile/merchants';
import { isProvider, loadActor, merchantOf } from '../users/access';
import type { UsersApp } from '../users/route-support';
import { closeBanner, isBannerClosed } from './banner-repo';
import { errors, me, noContent } from './route-support';

/** Pro-service banner: offered to users of merchants below Pro service, until they close it (spec 3 §7). */
export function bannerRoutes(app: UsersApp, state: UserServiceState) {
  const { db } = app.deps;

  app.get(
    '/users/pro-service/banner',
    { schema: { tags: ['banner'], querystring: BannerQuery, response: { 200: BannerState, ...errors } } },
    async (request) => {
      const actor = await loadActor(request, db);
      const user = me(actor);
      const page = request.query.page;
      const closed = await isBannerClosed(db, user.id, page);
      const level = serviceLevelOf(await merchantOf(state, actor, user.merchant_id));
      return {
        page,
        show: !closed && !isProvider(actor) && level !== 5 && level !== 3,
        title: 'Upgrade to Pro Service',
        message:
          'Let our dispute experts fight your chargebacks for you. Contact your account manager to upgrade to Pro Service.',
      };
    },
  );

  app.post(
    '/users/pro-service/banner/close',
    { schema: { tags: ['banner'], body: BannerQuery, response: noContent } },
    async (request, reply) => {
      const actor = await loadActor(request, db);
      await closeBanner(db, me(actor).id, request.body.page);
      return reply.status(204).send(null);
    },
  );
}
