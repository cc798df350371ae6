import type { RoleName } from './roles';

/**
 * Site-permission grants (spec 3 §2 'Site permissions'; issue 20 item 4).
 *
 * A user may be granted (an 'allow' override) a resource only when
 * - the actor granting it holds it in their own effective set, and
 * - it is in the allow-list of the target's role below.
 * Staff-only resources are never granted to partner or merchant users. The
 * user service enforces both on every allow override (POST/PUT) and ignores
 * stored allows outside the list when it builds a profile; the web's site
 * permissions dialog uses the same list to disable what cannot be granted.
 * Denies (removing a resource) are not grants and need only the right to
 * manage the user.
 */

/** The refusal of a grant the actor may not make (403). */
export const SITE_PERMISSION_NOT_GRANTABLE =
  'You cannot grant a site permission you do not hold or that this role may not have.';

/** Resources only provider staff may hold. */
export const STAFF_ONLY_RESOURCES: readonly string[] = ['QC_REVIEW_ADD_ERT'];

const BASE = ['DASHBOARD', 'REPORTS', 'PRE_CHARGEBACKS_AGGRID', 'MS_VIEW_DETAILS', 'MERCHANT_HIERARCHY'];
const USER_ADMIN = ['USERS', 'USERS_EXPORT_BUTTON', 'EDIT_RDR', 'EDIT_MID'];
const MERCHANT_ADMIN = ['CREATE_MERCHANT', 'CREATE_MID', 'EDIT_MERCHANT', 'cm-view-partner-admin-id'];

/** Partner and merchant roles: anything but the staff-only resources (still only what the granting actor holds). */
// 'case-builder': the case-builder role of spec 2 §6 (issue 13), granted per user.
const CLIENT_GRANTABLE = [...BASE, ...USER_ADMIN, ...MERCHANT_ADMIN, 'case-builder'];
/** Manager and agent: every resource of the catalogue. */
const STAFF_GRANTABLE = [...CLIENT_GRANTABLE, ...STAFF_ONLY_RESOURCES];

/** Per target role: the resources a user of that role may be granted. Role id 1 (cb911_admin) is never changed. */
export const GRANTABLE_RESOURCES: Record<RoleName, readonly string[]> = {
  cb911_admin: [],
  cb911_manager: STAFF_GRANTABLE,
  cb911_agent: STAFF_GRANTABLE,
  partner_admin: CLIENT_GRANTABLE,
  partner_user: CLIENT_GRANTABLE,
  merchant_admin: CLIENT_GRANTABLE,
  merchant_user: CLIENT_GRANTABLE,
};

/** True when a user of `targetRole` may hold `alias` through an allow override. */
export function isGrantableTo(targetRole: string, alias: string): boolean {
  return (GRANTABLE_RESOURCES[targetRole as RoleName] ?? []).includes(alias);
}

/**
 * True when `actorResources` (the actor's effective resource aliases) lets the
 * actor grant `alias` to a user of `targetRole`.
 */
export function mayGrantResource(
  actorResources: Iterable<string>,
  targetRole: string,
  alias: string,
): boolean {
  return isGrantableTo(targetRole, alias) && new Set(actorResources).has(alias);
}
