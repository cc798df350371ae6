import { Type, type Static } from '@sinclair/typebox';
import { DateRange, Id, Offset, SortOrder, Text } from '@portal/contracts';

const Method = Type.Union([
  Type.Literal('GET'),
  Type.Literal('HEAD'),
  Type.Literal('POST'),
  Type.Literal('PUT'),
  Type.Literal('PATCH'),
  Type.Literal('DELETE'),
  Type.Literal('OPTIONS'),
]);

/** One call the gateway saw (never a body, token or password: only what identifies the call). */
export const AuditBatchEntry = Type.Object({
  /** Made by the gateway per call: a batch posted twice (lost answer) stores each row once. */
  entry_id: Type.String({ format: 'uuid' }),
  actor_id: Id(),
  user_id: Id(),
  method: Method,
  /** The gateway policy's route pattern, e.g. `PATCH /api/users/users/:id`. */
  route: Text({ maxLength: 300 }),
  target_ids: Type.Record(Type.String({ pattern: '^[a-z_]{1,40}$' }), Text({ maxLength: 200 }), {
    maxProperties: 10,
  }),
  status: Type.Integer({ minimum: 100, maximum: 599 }),
  request_id: Text({ maxLength: 64 }),
  ip: Type.Union([Text({ maxLength: 64 }), Type.Null()]),
  at: Type.String({ format: 'date-time' }),
  /** Who acted (issue 35.1): a signed-in user (default), or an API key of actor_id, named by api_key_id. */
  actor_kind: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('api_key')])),
  api_key_id: Type.Optional(Type.Union([Type.String({ pattern: '^[a-z0-9]{8}$' }), Type.Null()])),
});
export type AuditBatchEntry = Static<typeof AuditBatchEntry>;

export const AuditBatchBody = Type.Object({
  entries: Type.Array(AuditBatchEntry, { minItems: 1, maxItems: 500 }),
});

export const AuditQuery = Type.Object({
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 25 })),
  sort_order: Type.Optional(SortOrder),
  /** Rows where this user acted or was the effective user. */
  user_id: Type.Optional(Id()),
  method: Type.Optional(Method),
  /** An action name, e.g. `request`, `user.update`. */
  action: Type.Optional(Text({ maxLength: 100 })),
  /** Part of the route, or one of the target ids exactly. */
  target: Type.Optional(Text({ maxLength: 200 })),
  /** `from|to` (yyyy-MM-dd, UTC days, both included). */
  date_range: Type.Optional(DateRange),
});
export type AuditQuery = Static<typeof AuditQuery>;
