import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  ErrorResponse,
  Id,
  MessageResult,
  MID_PERMISSION_MESSAGES,
  MidPermissionOneBody,
  MidPermissionsBody,
  MidPermissionView,
  type MidPermissionsBody as Body,
} from '@portal/contracts';
import { badRequest, ServiceClient } from '@portal/core';
import { assertWritable } from '../scope/scope';
import {
  checkAssignable,
  findMids,
  readUserMids,
  targetUser,
  writeUserMids,
  type UserMids,
} from './mid-permissions';

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 502: ErrorResponse };
const UserParams = Type.Object({ userId: Id() });

/** GET/PUT /cm/mids/permissions/{userId}, POST /cm/mids/{id}/permissions/{userId} (spec 3 §7 MIDs). */
export const midPermissionRoutes: FastifyPluginAsync = async (app) => {
  const { db, env, contextSecret } = app.deps;
  const users = new ServiceClient(env.USER_SERVICE_URL, contextSecret, 5000);

  const view = async (tenant: string, userId: number, lists: UserMids) => {
    const rows = await findMids(db, tenant, [...lists.mids, ...lists.exclude_mids]);
    return {
      user_id: userId,
      all_mids: lists.mids.length === 0,
      data: rows.map((m) => ({
        id: m.id,
        mid: m.mid,
        alias: m.alias,
        status_id: m.status_id,
        is_excluded: lists.exclude_mids.includes(m.mid),
      })),
    };
  };

  app.get<{ Params: { userId: number } }>(
    '/cm/mids/permissions/:userId',
    {
      schema: {
        tags: ['mids'],
        params: UserParams,
        response: { 200: MidPermissionView, ...errors },
      },
    },
    async (request) => {
      // The user service answers 404 for a user outside the caller's scope.
      await targetUser(users, request.ctx, request.params.userId);
      const lists = await readUserMids(users, request.ctx, request.params.userId);
      return view(request.ctx.tenant, request.params.userId, lists);
    },
  );

  app.put<{ Params: { userId: number }; Body: Body }>(
    '/cm/mids/permissions/:userId',
    {
      schema: {
        tags: ['mids'],
        params: UserParams,
        body: MidPermissionsBody,
        response: { 200: MessageResult, ...errors },
      },
    },
    async (request) => {
      assertWritable(request.ctx);
      const target = await targetUser(users, request.ctx, request.params.userId);
      const mids = await checkAssignable(db, request.ctx.tenant, target.merchant.id, request.body.mids);
      // Exclusions only narrow access: any known MID of the subtree may be excluded, active or not.
      const excludeRefs = request.body.exclude_mids ?? [];
      const excluded = excludeRefs.length
        ? (await findMids(db, request.ctx.tenant, excludeRefs)).map((m) => m.mid)
        : [];
      if (excluded.length < new Set(excludeRefs.map((r) => r.trim())).size)
        throw badRequest(MID_PERMISSION_MESSAGES.unknown);
      await writeUserMids(users, request.ctx, target.id, { mids, exclude_mids: [...new Set(excluded)] });
      return { message: MID_PERMISSION_MESSAGES.saved };
    },
  );

  app.post<{ Params: { id: number; userId: number }; Body: { is_excluded: boolean } }>(
    '/cm/mids/:id/permissions/:userId',
    {
      schema: {
        tags: ['mids'],
        params: Type.Object({ id: Id(), userId: Id() }),
        body: MidPermissionOneBody,
        response: { 200: MessageResult, ...errors },
      },
    },
    async (request) => {
      assertWritable(request.ctx);
      const target = await targetUser(users, request.ctx, request.params.userId);
      const lists = await readUserMids(users, request.ctx, target.id);
      const ref = String(request.params.id);
      let mid: string;
      if (request.body.is_excluded) {
        const row = (await findMids(db, request.ctx.tenant, [ref])).find((m) => m.id === request.params.id);
        if (!row) throw badRequest(MID_PERMISSION_MESSAGES.unknown);
        mid = row.mid;
      } else {
        [mid] = (await checkAssignable(db, request.ctx.tenant, target.merchant.id, [ref])) as [string];
      }
      const next: UserMids = request.body.is_excluded
        ? {
            mids: lists.mids.filter((m) => m !== mid),
            exclude_mids: [...new Set([...lists.exclude_mids, mid])],
          }
        : {
            mids: [...new Set([...lists.mids, mid])],
            exclude_mids: lists.exclude_mids.filter((m) => m !== mid),
          };
      await writeUserMids(users, request.ctx, target.id, next);
      return { message: MID_PERMISSION_MESSAGES.saved };
    },
  );
};
