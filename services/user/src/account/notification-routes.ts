import { Type } from '@sinclair/typebox';
import {
  MessageResult,
  NotificationBody,
  NotificationSetting,
  USER_MESSAGES,
  Id as RowId,
} from '@portal/contracts';
import { badRequest } from '@portal/core';
import type { UserServiceState } from '../lib/context';
import { loadActor, requireManage } from '../users/access';
import { Id, type UsersApp } from '../users/route-support';
import { notificationSettings, notificationTypeExists, saveNotification } from './notification-repo';
import { errors, ownOrVisible } from './route-support';

/** A user's mail notification settings (spec 3 Profile). */
export function notificationRoutes(app: UsersApp, state: UserServiceState) {
  const { db } = app.deps;

  app.get(
    '/users/user/:id/email-notification',
    {
      schema: {
        tags: ['profile'],
        params: Id,
        response: { 200: Type.Object({ data: Type.Array(NotificationSetting) }), ...errors },
      },
    },
    async (request) => {
      const actor = await loadActor(request, db);
      const target = await ownOrVisible(app, state, actor, request.params.id);
      return { data: await notificationSettings(db, target.id) };
    },
  );

  app.put(
    '/users/user/:id/email-notification/:settingId',
    {
      schema: {
        tags: ['profile'],
        params: Type.Object({ id: RowId(), settingId: RowId() }),
        body: NotificationBody,
        response: { 200: MessageResult, ...errors },
      },
    },
    async (request) => {
      const actor = await loadActor(request, db);
      const target = await ownOrVisible(app, state, actor, request.params.id);
      if (actor.user?.id !== target.id) await requireManage(state, actor, target);
      // Notification preferences are one's own choice: allowed to read-only users too.
      if (!(await notificationTypeExists(db, request.params.settingId)))
        throw badRequest('Unknown notification setting.');
      await saveNotification(db, target.id, request.params.settingId, request.body.is_enabled);
      return { message: USER_MESSAGES.notificationSaved };
    },
  );
}
