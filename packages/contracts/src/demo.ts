import type { RoleName } from './roles';

/**
 * The demo world shared by every service's seed (design §6): the case service
 * seeds these merchants, the user service these users, with the same ids, so
 * a user's merchant exists in the case data without any cross-service write.
 * Ids are derived from the tenant number so the two tenants never collide.
 */
export const DEMO_PASSWORD = 'Chargeback#2026';

export interface DemoTenant {
  id: string;
  /** 1 for acme, 2 for northbank: the high digits of every demo id. */
  number: number;
  name: string;
}

export const DEMO_TENANTS: readonly DemoTenant[] = [
  { id: 'acme', number: 1, name: 'Acme Payments' },
  { id: 'northbank', number: 2, name: 'Northbank Merchant Services' },
];

export type DemoMerchantKey = 'root' | 'partnerA' | 'partnerB' | 'merchantA1' | 'merchantA2' | 'merchantB1';

/** Offsets inside a tenant's id block; the seed adds more merchants from SEED_MERCHANT_OFFSET up. */
const MERCHANT_OFFSETS: Record<DemoMerchantKey, number> = {
  root: 1,
  partnerA: 2,
  partnerB: 3,
  merchantA1: 11,
  merchantA2: 12,
  merchantB1: 21,
};
export const SEED_MERCHANT_OFFSET = 100;

export function tenantIdBase(tenant: DemoTenant): number {
  return tenant.number * 1_000_000;
}

export function demoMerchantId(tenant: DemoTenant, key: DemoMerchantKey): number {
  return tenantIdBase(tenant) + MERCHANT_OFFSETS[key];
}

export interface DemoMerchant {
  key: DemoMerchantKey;
  parent: DemoMerchantKey | null;
  /** Business names get the tenant's flavour at seed time: `${prefix} ${name}`. */
  name: string;
  service_level_id: 1 | 3 | 5;
  show_alerts_banner: boolean;
  /** Email domains a new user of this merchant may have (spec 3 user form). */
  allowed_domains: string[];
  /** Merchant feature ids (MERCHANT_FEATURE): merchantA2 has none, so its users see no verdicts. */
  features: readonly (1 | 2 | 3)[];
}

export const DEMO_MERCHANTS: readonly DemoMerchant[] = [
  {
    key: 'root',
    parent: null,
    name: 'Chargeback Services',
    service_level_id: 3,
    show_alerts_banner: false,
    allowed_domains: ['example.com'],
    features: [2, 3],
  },
  {
    key: 'partnerA',
    parent: 'root',
    name: 'Summit Partners',
    service_level_id: 3,
    show_alerts_banner: false,
    allowed_domains: ['summit.example'],
    features: [2, 3],
  },
  {
    key: 'partnerB',
    parent: 'root',
    name: 'Harbor ISO',
    service_level_id: 5,
    show_alerts_banner: false,
    allowed_domains: ['harbor.example'],
    features: [2],
  },
  {
    key: 'merchantA1',
    parent: 'partnerA',
    name: 'Blue Sky Outfitters',
    service_level_id: 5,
    show_alerts_banner: true,
    allowed_domains: ['bluesky.example'],
    features: [1, 2],
  },
  {
    key: 'merchantA2',
    parent: 'partnerA',
    name: 'Copper Kettle Coffee',
    service_level_id: 1,
    show_alerts_banner: false,
    allowed_domains: ['copperkettle.example'],
    features: [],
  },
  {
    key: 'merchantB1',
    parent: 'partnerB',
    name: 'Northwind Electronics',
    service_level_id: 3,
    show_alerts_banner: false,
    allowed_domains: ['northwind.example'],
    features: [2, 3],
  },
];

export type DemoUserKind = 'normal' | 'read_only' | 'federated' | 'new_password' | 'force_reset';

export interface DemoUser {
  username: string;
  /** Offset inside the tenant's id block. */
  offset: number;
  role: RoleName;
  merchant: DemoMerchantKey;
  fname: string;
  lname: string;
  kind: DemoUserKind;
  /** theme_variant above 1 selects the partner-branded look; per tenant. */
  theme_variant?: Partial<Record<string, number>>;
}

export const DEMO_USERS: readonly DemoUser[] = [
  {
    username: 'admin',
    offset: 1,
    role: 'cb911_admin',
    merchant: 'root',
    fname: 'Avery',
    lname: 'Admin',
    kind: 'normal',
  },
  {
    username: 'manager',
    offset: 2,
    role: 'cb911_manager',
    merchant: 'root',
    fname: 'Morgan',
    lname: 'Manager',
    kind: 'normal',
  },
  {
    username: 'agent',
    offset: 3,
    role: 'cb911_agent',
    merchant: 'root',
    fname: 'Alex',
    lname: 'Agent',
    kind: 'normal',
  },
  {
    username: 'partner.admin',
    offset: 4,
    role: 'partner_admin',
    merchant: 'partnerA',
    fname: 'Parker',
    lname: 'Admin',
    kind: 'normal',
  },
  {
    username: 'partner.user',
    offset: 5,
    role: 'partner_user',
    merchant: 'partnerA',
    fname: 'Paige',
    lname: 'User',
    kind: 'normal',
    theme_variant: { northbank: 2 },
  },
  {
    username: 'merchant.admin',
    offset: 6,
    role: 'merchant_admin',
    merchant: 'merchantA1',
    fname: 'Mia',
    lname: 'Admin',
    kind: 'normal',
  },
  {
    username: 'merchant.user',
    offset: 7,
    role: 'merchant_user',
    merchant: 'merchantA1',
    fname: 'Max',
    lname: 'User',
    kind: 'normal',
  },
  {
    username: 'readonly',
    offset: 8,
    role: 'merchant_admin',
    merchant: 'merchantA1',
    fname: 'Riley',
    lname: 'Readonly',
    kind: 'read_only',
  },
  {
    username: 'federated',
    offset: 9,
    role: 'merchant_admin',
    merchant: 'merchantA2',
    fname: 'Frankie',
    lname: 'Federated',
    kind: 'federated',
  },
  {
    username: 'newpass',
    offset: 10,
    role: 'merchant_user',
    merchant: 'merchantA2',
    fname: 'Noah',
    lname: 'Newpass',
    kind: 'new_password',
  },
  {
    username: 'forcereset',
    offset: 11,
    role: 'merchant_user',
    merchant: 'merchantB1',
    fname: 'Fiona',
    lname: 'Forcereset',
    kind: 'force_reset',
  },
];

export function demoUserId(tenant: DemoTenant, user: DemoUser): number {
  return tenantIdBase(tenant) + user.offset;
}

export function demoTenant(id: string): DemoTenant {
  const t = DEMO_TENANTS.find((x) => x.id === id);
  if (!t) throw new Error(`Unknown demo tenant '${id}'`);
  return t;
}
