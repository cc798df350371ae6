import { Type, type Static } from '@sinclair/typebox';
import { Text } from './common';

/** The signed-in user answered by POST /users/whoami (spec 1 §3.1). */
export const UserProfile = Type.Object(
  {
    id: Type.Integer(),
    username: Type.String(),
    email: Type.String(),
    fname: Type.String(),
    lname: Type.String(),
    /** Primary role name. */
    role: Type.String(),
    roles: Type.Array(Type.String()),
    /** 1 active, 2 locked/inactive. */
    status: Type.Integer(),
    is_federated: Type.Boolean(),
    is_read_only: Type.Boolean(),
    merchant: Type.Object({
      id: Type.Integer(),
      business_name: Type.String(),
      show_alerts_banner: Type.Boolean(),
    }),
    features: Type.Array(Type.Object({ id: Type.Integer(), alias: Type.String() })),
    resources: Type.Array(
      Type.Object({
        id: Type.Integer(),
        alias: Type.String(),
        url: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
    allow_resources: Type.Array(Type.String()),
    deny_resources: Type.Array(Type.String()),
    mids_allowed: Type.Array(Type.String()),
    mids_excluded: Type.Array(Type.String()),
    mids_count: Type.Integer(),
    theme_variant: Type.Integer(),
    /** Forced password update pending: the gateway answers 403 {code: 401} to everything but the password calls. */
    must_update_password: Type.Boolean(),
    /** Set while impersonating: who really acts. */
    impersonated_by: Type.Optional(
      Type.Union([
        Type.Object({ id: Type.Integer(), fname: Type.String(), lname: Type.String() }),
        Type.Null(),
      ]),
    ),
    /** The user's session generation; access tokens carry it as `sv` (older ones may be refused). */
    session_version: Type.Optional(Type.Integer()),
  },
  { $id: 'UserProfile' },
);
export type UserProfile = Static<typeof UserProfile>;

/** GET/PUT /users/profile/time-zone: the user's IANA time zone (deadline reminders come at 08:00 there); null is UTC. */
export const ProfileTimeZone = Type.Object({
  time_zone: Type.Union([Text({ minLength: 1, maxLength: 64 }), Type.Null()]),
});
export type ProfileTimeZone = Static<typeof ProfileTimeZone>;
