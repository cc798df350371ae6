/**
 * Roles of the portal (spec 1 §6.1). Ids are stable: role id 1 is protected
 * (no site-permission changes) and ids 8 and 9 are the provider staff who can
 * be assigned cases (spec 2 §4, spec 3 §9).
 */
export const ROLES = {
  cb911_admin: 1,
  partner_admin: 2,
  partner_user: 3,
  merchant_admin: 4,
  merchant_user: 5,
  cb911_manager: 8,
  cb911_agent: 9,
} as const;

export type RoleName = keyof typeof ROLES;
export type RoleId = (typeof ROLES)[RoleName];

/** Matches every role in a role check. */
export const UNIVERSAL_ROLE = 'universal';

export const ROLE_NAMES = Object.keys(ROLES) as RoleName[];

export const ROLE_LABELS: Record<RoleName, string> = {
  cb911_admin: 'Admin',
  cb911_manager: 'Manager',
  cb911_agent: 'Agent',
  partner_admin: 'Partner Admin',
  partner_user: 'Partner User',
  merchant_admin: 'Merchant Admin',
  merchant_user: 'Merchant User',
};

/** Provider staff see the whole tenant; everyone else is limited to a merchant subtree. */
export const PROVIDER_ROLES: readonly RoleName[] = ['cb911_admin', 'cb911_manager', 'cb911_agent'];
export const PARTNER_ROLES: readonly RoleName[] = ['partner_admin', 'partner_user'];
export const MERCHANT_ROLES: readonly RoleName[] = ['merchant_admin', 'merchant_user'];
/** The admins of users: provider admins and managers, partner and merchant admins (audit, MID permissions). */
export const USER_ADMIN_ROLES: readonly RoleName[] = [
  'cb911_admin',
  'cb911_manager',
  'partner_admin',
  'merchant_admin',
];
/** Who creates and edits merchants and creates MIDs (spec 3 §6): provider admins and managers, partner admins. */
export const MERCHANT_EDITOR_ROLES: readonly RoleName[] = ['cb911_admin', 'cb911_manager', 'partner_admin'];
/** Who edits a MID and its RDR rules: the merchant editors and the merchant's own admin (spec 3 §6). */
export const MID_EDITOR_ROLES: readonly RoleName[] = [...MERCHANT_EDITOR_ROLES, 'merchant_admin'];
/** Who registers webhooks for their merchant (issue 19): merchant and partner admins. */
export const WEBHOOK_OWNER_ROLES: readonly RoleName[] = ['merchant_admin', 'partner_admin'];
/** Role ids offered when assignable users are restricted to admin users (spec 3 §9). */
export const ASSIGNABLE_ROLE_IDS: readonly RoleId[] = [ROLES.cb911_manager, ROLES.cb911_agent];

export function roleById(id: number): RoleName | undefined {
  return ROLE_NAMES.find((name) => ROLES[name] === id);
}

export function isProviderStaff(roles: readonly string[]): boolean {
  return roles.some((r) => (PROVIDER_ROLES as readonly string[]).includes(r));
}

/** A role check passes if any listed role is held, or the requirement is universal. */
export function hasAnyRole(held: readonly string[], required: readonly string[]): boolean {
  return required.includes(UNIVERSAL_ROLE) || required.some((r) => held.includes(r));
}
