import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { UserServiceState } from '../lib/context';
import { bannerRoutes } from './banner-routes';
import { emailRoutes } from './email-routes';
import { loginHistoryRoutes } from './login-history-routes';
import { messageRoutes } from './message-routes';
import { notificationRoutes } from './notification-routes';

/**
 * Profile, login history, notifications, messages, events and banner (spec 3
 * §2, §7): one module per area, their shared helpers in route-support.ts,
 * their SQL in the *-repo.ts modules.
 */
export async function accountRoutes(base: FastifyInstance, state: UserServiceState) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  loginHistoryRoutes(app, state);
  notificationRoutes(app, state);
  emailRoutes(app, state);
  messageRoutes(app);
  bannerRoutes(app, state);
}
