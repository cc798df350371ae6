import type { TenantBootstrap, UserItem, UserProfile } from '@portal/contracts';
import { ADMIN_ROLE_ID } from './user-messages';

/**
 * The users grid's visibility rules (spec 3 §2, spec 1 §6.3). The server
 * enforces each of them again; these only decide what a person is offered.
 */
export interface GridRules {
  readOnly: boolean;
  /** Federated viewers lose status, lock, edit, site permissions, temp password and Login As. */
  federated: boolean;
  showCompany: boolean;
  showSitePermissions: boolean;
  showLoginAs: boolean;
  showReadOnly: boolean;
}

export function gridRules(tenant: TenantBootstrap, me: UserProfile): GridRules {
  const processor = tenant.client_kind === 'payment_processor';
  return {
    readOnly: me.is_read_only,
    federated: me.is_federated,
    showCompany: !processor || me.role === 'cb911_admin',
    showSitePermissions: !processor && !me.is_federated,
    showLoginAs:
      !me.is_federated && (me.role === 'cb911_admin' || (processor && me.role === 'partner_admin')),
    showReadOnly: tenant.flags.USERS_READ_ONLY_OPTION === true,
  };
}

export const isSelf = (me: UserProfile, u: UserItem) => me.id === u.id;

/** Site permissions: never for oneself or a user with role id 1. */
export const canEditSitePermissions = (me: UserProfile, u: UserItem) =>
  !me.is_read_only && !isSelf(me, u) && u.role.id !== ADMIN_ROLE_ID;

/** Login As: the target is active, not a cb911_admin and not oneself. */
export const canLoginAs = (me: UserProfile, u: UserItem) =>
  !me.is_read_only && !isSelf(me, u) && u.status.id === 1 && u.role.alias !== 'cb911_admin';

/** Add User (spec 1 §6.3): hidden for federated users and merchants whose service level disables credentials. */
export function addUserVisible(tenant: TenantBootstrap, me: UserProfile, serviceLevel: number | undefined) {
  if (me.is_federated) return false;
  if (!me.features.some((f) => f.alias === 'users-create')) return false;
  return (
    serviceLevel === undefined || !tenant.credential_creation_disabled_service_levels.includes(serviceLevel)
  );
}
