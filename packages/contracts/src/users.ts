import { Type, type Static } from '@sinclair/typebox';
import { Id, Int32, ListQuery, ListResponse, Offset, Text } from './common';

/**
 * User administration, profile and messages of the user service (spec 3 §2,
 * §3, §7). Paths are the spec's without /api.
 */
export const USER_MESSAGES = {
  roleRequired: 'User must be assigned to a role.',
  fnameRequired: 'First name is needed.',
  lnameRequired: 'Last name is needed.',
  emailRequired: 'Email is needed.',
  emailDomain: 'Please enter an allowed email domain.',
  emailInvalid: 'A valid email is required.',
  usernameRequired: 'Username cannot be empty.',
  usernameTaken: 'This username is already taken.',
  saved: 'You successfully updated/created the user.',
  locked: 'User has been successfully locked.',
  unlocked: 'User has been successfully unlocked.',
  notOwnAccount: 'You cannot do this on your own account.',
  sitePermissionSaved: 'Site permission was successfully updated.',
  sitePermissionProtected: 'Site permissions cannot be changed for yourself or for an Admin user.',
  midsSaved: 'Mid permissions were successfully updated.',
  emailSaved: 'Your email has been successfully updated.',
  notificationSaved: 'Notification was successfully updated.',
  federatedEmail: 'Federated users cannot change their email.',
} as const;

export const UserStatus = Type.Object({ id: Type.Integer(), name: Type.String() });
export const RoleRef = Type.Object({ id: Type.Integer(), name: Type.String(), alias: Type.String() });
/** `GET /users/roles`: the roles the caller may assign. */
export const RoleList = Type.Object({ data: Type.Array(RoleRef) });
export type RoleList = Static<typeof RoleList>;

/** A user as the users grid and forms read it (spec 3 §3 User). */
export const UserItem = Type.Object(
  {
    id: Type.Integer(),
    fname: Type.String(),
    lname: Type.String(),
    username: Type.String(),
    email: Type.String(),
    role: RoleRef,
    groups: Type.Array(Type.Integer()),
    merchant: Type.Object({ id: Type.Integer(), business_name: Type.Union([Type.String(), Type.Null()]) }),
    status: UserStatus,
    mids_allowed: Type.Array(Type.String()),
    mids_excluded: Type.Array(Type.String()),
    is_read_only: Type.Boolean(),
    is_federated: Type.Boolean(),
    theme_variant: Type.Integer(),
    tenant: Type.String(),
    date_created: Type.String(),
  },
  { $id: 'UserItem' },
);
export type UserItem = Static<typeof UserItem>;

export const UserList = ListResponse(UserItem);
export type UserList = Static<typeof UserList>;

export const UserListQuery = Type.Composite([
  ListQuery,
  Type.Object({
    merchant_id: Type.Optional(Id()),
    role: Type.Optional(Id()),
    status_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 6 })),
  }),
]);
export type UserListQuery = Static<typeof UserListQuery>;

/** POST /users/users. Text fields have no minLength: the handler answers the spec's messages. */
export const CreateUserBody = Type.Object({
  fname: Text({ maxLength: 100 }),
  lname: Text({ maxLength: 100 }),
  username: Text({ maxLength: 128 }),
  email: Text({ maxLength: 254 }),
  role: Int32(),
  merchant: Id(),
  groups: Type.Optional(Type.Array(Int32(), { maxItems: 100 })),
  status: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(6)])),
  is_read_only: Type.Optional(Type.Boolean()),
});
export type CreateUserBody = Static<typeof CreateUserBody>;

/** PATCH /users/users/{id}: profile fields, email only, or status (1 enabled, 6 locked). */
export const UpdateUserBody = Type.Object({
  fname: Type.Optional(Text({ maxLength: 100 })),
  lname: Type.Optional(Text({ maxLength: 100 })),
  email: Type.Optional(Text({ maxLength: 254 })),
  role: Type.Optional(Int32()),
  merchant: Type.Optional(Id()),
  status: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(6)])),
  is_read_only: Type.Optional(Type.Boolean()),
});
export type UpdateUserBody = Static<typeof UpdateUserBody>;

export const MessageResult = Type.Object({ message: Type.String() });
export type MessageResult = Static<typeof MessageResult>;

export const SitePermission = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  alias: Type.String(),
  is_active: Type.Boolean(),
  isChecked: Type.Boolean(),
});
/** `GET /users/user/{id}/site-permissions`. */
export const SitePermissionList = Type.Object({ data: Type.Array(SitePermission) });
export type SitePermissionList = Static<typeof SitePermissionList>;
export const ResourceBody = Type.Object({
  resource_id: Id(),
  is_allowed: Type.Boolean(),
});

export const MidPermissions = Type.Object({
  mids: Type.Array(Text({ maxLength: 64 }), { maxItems: 5000 }),
  exclude_mids: Type.Array(Text({ maxLength: 64 }), { maxItems: 5000 }),
});
export type MidPermissions = Static<typeof MidPermissions>;

/** Login history item (spec 1 §3.4), plus whether the attempt succeeded. */
export const LoginEvent = Type.Object({
  id: Type.Integer(),
  ip: Type.String(),
  timestamp: Type.String(),
  is_blocked: Type.Boolean(),
  blocked_id: Type.Union([Type.Integer(), Type.Null()]),
  success: Type.Boolean(),
});
export type LoginEvent = Static<typeof LoginEvent>;
export const LoginHistoryQuery = Type.Object({
  is_unique: Type.Optional(Type.Boolean()),
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 25 })),
});
export const LoginHistory = ListResponse(LoginEvent);
export type LoginHistory = Static<typeof LoginHistory>;
/** POST /users/blockip: lock an IP for a user's account (user_id defaults to the caller). */
export const BlockIpBody = Type.Object({
  ip: Text({ minLength: 1, maxLength: 64 }),
  is_allowed: Type.Literal(false),
  user_id: Type.Optional(Id()),
});

export const NotificationSetting = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  alias: Type.String(),
  is_enabled: Type.Boolean(),
});
export type NotificationSetting = Static<typeof NotificationSetting>;
export const NotificationBody = Type.Object({ is_enabled: Type.Boolean() });
export const EmailBody = Type.Object({ email: Text({ maxLength: 254 }) });

/** In-app message (spec 3 §2 Messages). */
const MessageAction = Type.Object({
  label: Type.String(),
  redirect: Type.Union([Type.String(), Type.Null()]),
});
export const PortalMessage = Type.Object({
  id: Type.Integer(),
  header: Type.String(),
  sub_header: Type.String(),
  message: Type.String(),
  show_on: Type.Array(Type.String()),
  actions: Type.Object({
    accept: Type.Optional(MessageAction),
    deny: Type.Optional(MessageAction),
    close: Type.Optional(MessageAction),
  }),
});
export const MessageActionBody = Type.Object({
  action: Type.Union([Type.Literal('accept'), Type.Literal('deny'), Type.Literal('close')]),
});

/** POST /users/events/tracking (remedy events). */
export const TrackingEventBody = Type.Object({
  key: Text({ minLength: 1, maxLength: 100 }),
  case_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  event_name: Text({ minLength: 1, maxLength: 100 }),
  action: Type.Optional(Text({ maxLength: 100 })),
  message: Type.Optional(Text({ maxLength: 2000 })),
});

export const BannerQuery = Type.Object({ page: Text({ minLength: 1, maxLength: 50 }) });
export const BannerState = Type.Object({
  page: Type.String(),
  show: Type.Boolean(),
  title: Type.String(),
  message: Type.String(),
});

/**
 * MID permissions through the case service (spec 3 §2 'MID permissions panel', §7 MIDs):
 * GET/PUT /cm/mids/permissions/{userId}, POST /cm/mids/{id}/permissions/{userId}. Entries of
 * `mids` are MID numbers or MID ids; only active MIDs (status id 2) of the user's merchant
 * subtree may be named. No allowed MID = every MID.
 */
export const MID_PERMISSION_MESSAGES = {
  saved: 'Mid permissions were successfully updated.',
  inactive: 'Only active MIDs can be assigned.',
  unknown: 'MID not found.',
} as const;
export const MidPermissionEntry = Type.Object({
  id: Type.Integer(),
  mid: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  status_id: Type.Integer(),
  is_excluded: Type.Boolean(),
});
export const MidPermissionView = Type.Object({
  user_id: Type.Integer(),
  /** true when no MID is allowed explicitly: the user reaches every MID in scope. */
  all_mids: Type.Boolean(),
  data: Type.Array(MidPermissionEntry),
});
export type MidPermissionView = Static<typeof MidPermissionView>;
const MidRef = Text({ minLength: 1, maxLength: 64 });
export const MidPermissionsBody = Type.Object({
  mids: Type.Array(MidRef, { maxItems: 5000 }),
  exclude_mids: Type.Optional(Type.Array(MidRef, { maxItems: 5000 })),
});
export type MidPermissionsBody = Static<typeof MidPermissionsBody>;
export const MidPermissionOneBody = Type.Object({ is_excluded: Type.Boolean() });
