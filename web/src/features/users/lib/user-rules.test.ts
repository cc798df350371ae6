import type { TenantBootstrap, UserItem, UserProfile } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { addUserVisible, canEditSitePermissions, canLoginAs, gridRules } from './user-rules';
import { statusOf } from './user-messages';

const tenant = (over: Partial<TenantBootstrap> = {}) =>
  ({
    client_kind: 'standard',
    flags: { USERS_READ_ONLY_OPTION: true },
    credential_creation_disabled_service_levels: [1],
    ...over,
  }) as TenantBootstrap;
const me = (over: Partial<UserProfile> = {}) =>
  ({
    id: 10,
    role: 'cb911_admin',
    is_read_only: false,
    is_federated: false,
    features: [{ id: 1, alias: 'users-create' }],
    ...over,
  }) as UserProfile;
const user = (over: Partial<UserItem> = {}) =>
  ({
    id: 20,
    role: { id: 5, name: 'Merchant User', alias: 'merchant_user' },
    status: { id: 1, name: 'ACTIVE' },
    ...over,
  }) as UserItem;

describe('users grid rules (spec 3 §2, spec 1 §6.3)', () => {
  it('colours active and set-up users green, everything else red Inactive', () => {
    expect(statusOf(1)).toEqual({ label: 'Active', active: true });
    expect(statusOf(5).active).toBe(true);
    expect(statusOf(6)).toEqual({ label: 'Inactive', active: false });
    expect(statusOf(3)).toEqual({ label: 'Inactive', active: false });
  });

  it('offers Login As to cb911_admin, and to partner_admin only on the payment-processor client', () => {
    expect(gridRules(tenant(), me()).showLoginAs).toBe(true);
    expect(gridRules(tenant(), me({ role: 'partner_admin' })).showLoginAs).toBe(false);
    expect(
      gridRules(tenant({ client_kind: 'payment_processor' }), me({ role: 'partner_admin' })).showLoginAs,
    ).toBe(true);
    expect(canLoginAs(me(), user())).toBe(true);
    expect(canLoginAs(me(), user({ id: 10 }))).toBe(false);
    expect(canLoginAs(me(), user({ status: { id: 6, name: 'LOCKED_OUT' } }))).toBe(false);
    expect(canLoginAs(me(), user({ role: { id: 1, name: 'Admin', alias: 'cb911_admin' } }))).toBe(false);
    expect(canLoginAs(me({ is_read_only: true }), user())).toBe(false);
  });

  it('drops site permissions and (for non-admins) the company column for the payment-processor client', () => {
    const processor = tenant({ client_kind: 'payment_processor' });
    expect(gridRules(processor, me()).showSitePermissions).toBe(false);
    expect(gridRules(processor, me()).showCompany).toBe(true);
    expect(gridRules(processor, me({ role: 'partner_admin' })).showCompany).toBe(false);
    expect(gridRules(tenant(), me({ role: 'partner_admin' })).showCompany).toBe(true);
  });

  it('never offers site permissions for oneself or role id 1', () => {
    expect(canEditSitePermissions(me(), user())).toBe(true);
    expect(canEditSitePermissions(me(), user({ id: 10 }))).toBe(false);
    expect(canEditSitePermissions(me(), user({ role: { id: 1, name: 'Admin', alias: 'cb911_admin' } }))).toBe(
      false,
    );
  });

  it('removes the action columns for federated viewers and shows Read Only by flag', () => {
    const r = gridRules(tenant(), me({ is_federated: true }));
    expect(r).toMatchObject({ federated: true, showLoginAs: false, showSitePermissions: false });
    expect(gridRules(tenant({ flags: {} }), me()).showReadOnly).toBe(false);
  });

  it('hides Add User for federated users and service levels that disable credentials', () => {
    expect(addUserVisible(tenant(), me(), 5)).toBe(true);
    expect(addUserVisible(tenant(), me(), 1)).toBe(false);
    expect(addUserVisible(tenant(), me({ is_federated: true }), 5)).toBe(false);
    expect(addUserVisible(tenant(), me({ features: [] }), 5)).toBe(false);
  });
});
