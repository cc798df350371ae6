import { Type, type Static } from '@sinclair/typebox';
import { ListResponse } from './common';

/**
 * The audit log of the user service as `GET /users/audit` answers it (issue 19):
 * one row per call the gateway saw, newest first.
 */
const Person = Type.Union([
  Type.Object({ id: Type.Integer(), username: Type.Union([Type.String(), Type.Null()]) }),
  Type.Null(),
]);

export const AuditItem = Type.Object({
  id: Type.Integer(),
  time: Type.String(),
  actor: Person,
  user: Person,
  impersonated: Type.Boolean(),
  /** The merchant API key the call was made with (issue 35.1); null for a signed-in user. */
  api_key_id: Type.Union([Type.String(), Type.Null()]),
  action: Type.String(),
  method: Type.Union([Type.String(), Type.Null()]),
  route: Type.Union([Type.String(), Type.Null()]),
  target_ids: Type.Record(Type.String(), Type.String()),
  status: Type.Union([Type.Integer(), Type.Null()]),
  request_id: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
});
export type AuditItem = Static<typeof AuditItem>;

export const AuditList = ListResponse(AuditItem);
export type AuditList = Static<typeof AuditList>;
