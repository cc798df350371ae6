import {
  DEMO_MERCHANTS,
  DEMO_USERS,
  ROLES,
  SEED_MERCHANT_OFFSET,
  demoMerchantId,
  demoUserId,
  tenantIdBase,
  type DemoTenant,
} from '@portal/contracts';
import type { Queryable } from '@portal/core';

/** Id blocks inside a tenant's million (demo.ts gives merchants and users the low offsets). */
const MID_ID_OFFSET = 500_000;
const DESCRIPTOR_ID_OFFSET = 700_000;

const WORDS_A = [
  'Golden',
  'Urban',
  'Silver',
  'Pacific',
  'Maple',
  'Granite',
  'Lucky',
  'Bright',
  'Cedar',
  'Prairie',
  'Coastal',
  'Royal',
  'Velvet',
  'Iron',
  'Sunset',
  'Crimson',
];
const WORDS_B = [
  'Goods',
  'Apparel',
  'Gadgets',
  'Travel',
  'Fitness',
  'Books',
  'Games',
  'Pets',
  'Beauty',
  'Supplements',
  'Tickets',
  'Software',
  'Furniture',
  'Jewelry',
  'Outdoors',
  'Streaming',
];

/** The tenant flavour of business names: 'Acme Blue Sky Outfitters'. */
export function tenantPrefix(tenant: DemoTenant): string {
  return tenant.name.split(' ')[0] ?? tenant.name;
}

/** Generated merchants beyond the demo ones: more at larger scales. */
function generatedMerchantCount(casesPerTenant: number): number {
  return Math.max(12, Math.min(200, Math.round(casesPerTenant / 2500)));
}

export async function seedMerchants(
  tx: Queryable,
  tenant: DemoTenant,
  casesPerTenant: number,
): Promise<void> {
  const base = tenantIdBase(tenant);
  const prefix = tenantPrefix(tenant);
  const idOf = (key: (typeof DEMO_MERCHANTS)[number]['key']) => demoMerchantId(tenant, key);
  // Parents before children: DEMO_MERCHANTS is ordered root first.
  for (const [i, m] of DEMO_MERCHANTS.entries()) {
    await tx.query(
      `insert into cases.merchants (id, tenant_id, parent_id, business_name, alias, partner_company_id, date_created,
         business_address, city, state, zip, country_id, business_phone, contact_username, contact_fname, contact_lname,
         contact_phone, contact_email, direct_api, service_level_id, show_alerts_banner, allowed_domains)
       values ($1, $2, $3, $4, $5, $6, now() - make_interval(days => $7), $8, 'Austin', 'TX', $9, 1, $10, $11, $12, $13, $14, $15,
         $16, $17, $18, $19)`,
      [
        idOf(m.key),
        tenant.id,
        m.parent ? idOf(m.parent) : null,
        `${prefix} ${m.name}`,
        m.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        m.parent === 'root' ? `PC-${tenant.number}${String(i).padStart(3, '0')}` : null,
        900 - i * 30,
        `${100 + i * 11} Congress Ave`,
        `7870${i}`,
        `+1 512 555 01${String(i).padStart(2, '0')}`,
        m.key === 'root' ? null : `${m.key.toLowerCase()}.contact`,
        m.key === 'root' ? null : 'Jordan',
        m.key === 'root' ? null : m.name.split(' ')[0],
        m.key === 'root' ? null : `+1 512 555 02${String(i).padStart(2, '0')}`,
        m.key === 'root' ? null : `contact@${m.allowed_domains[0] ?? 'example.com'}`,
        i % 2 === 0,
        m.service_level_id,
        m.show_alerts_banner,
        m.allowed_domains,
      ],
    );
  }
  // Generated merchants under the two partners and the root, names from two word lists.
  await tx.query(
    `insert into cases.merchants (id, tenant_id, parent_id, business_name, alias, date_created, business_address, city, state,
       zip, country_id, business_phone, contact_username, contact_fname, contact_lname, contact_email, direct_api,
       service_level_id, status_id, allowed_domains)
     select $1::bigint + $2 + g, $3, (array[$4::bigint, $5::bigint, $6::bigint])[1 + g % 3],
       $7 || ' ' || ($8::text[])[1 + g % 16] || ' ' || ($9::text[])[1 + (g / 16) % 16] || case when g >= 256 then ' ' || g else '' end,
       'm' || g, now() - make_interval(days => 30 + g * 3), g || ' Market St', 'Denver', 'CO', '802' || lpad((g % 100)::text, 2, '0'),
       1 + g % 10, '+1 303 555 ' || lpad(g::text, 4, '0'), 'owner' || g, 'Sam', 'Owner' || g, 'owner' || g || '@merchant' || g || '.example',
       g % 4 = 0, (array[1, 3, 5])[1 + g % 3], case when g % 17 = 0 then 2 else 1 end, array['merchant' || g || '.example']
     from generate_series(1, $10::int) g`,
    [
      base,
      SEED_MERCHANT_OFFSET,
      tenant.id,
      idOf('partnerA'),
      idOf('partnerB'),
      idOf('root'),
      prefix,
      WORDS_A,
      WORDS_B,
      generatedMerchantCount(casesPerTenant),
    ],
  );
  // Merchant features: the demo merchants' own lists; generated ones verdicts on even ids, issuer docs on every third.
  for (const m of DEMO_MERCHANTS) {
    await tx.query(
      `insert into cases.merchant_features (tenant_id, merchant_id, feature_id) select $1, $2, unnest($3::smallint[])`,
      [tenant.id, idOf(m.key), m.features],
    );
  }
  await tx.query(
    `insert into cases.merchant_features (tenant_id, merchant_id, feature_id)
     select m.tenant_id, m.id, f from cases.merchants m cross join unnest(array[1, 2]::smallint[]) f
     where m.tenant_id = $1 and m.id >= $2 and ((f = 2 and m.id % 2 = 0) or (f = 1 and m.id % 3 = 0))`,
    [tenant.id, base + SEED_MERCHANT_OFFSET],
  );
  // MIDs: 3 for each demo merchant below the root, 1 to 4 for the others; none on the root.
  await tx.query(
    `insert into cases.mids (id, tenant_id, merchant_id, mid, alias, processor_id, status_id, date_created)
     select $1::bigint + $2 + row_number() over (order by m.id, k), $3, m.id,
       '54' || $4 || lpad((row_number() over (order by m.id, k))::text, 10, '0'),
       split_part(m.business_name, ' ', 2) || ' ' || k, 1 + (m.id + k) % 8, case when (m.id + k) % 23 = 0 then 2 else 1 end,
       m.date_created + make_interval(days => k)
     from cases.merchants m
     cross join lateral generate_series(1, case when m.id - $1 < $2 then 3 else 1 + ((m.id * 7) % 4)::int end) k
     where m.tenant_id = $3 and m.parent_id is not null`,
    [base, MID_ID_OFFSET, tenant.id, String(tenant.number)],
  );
  await tx.query(
    `insert into cases.descriptors (id, tenant_id, mid_id, descriptor)
     select $1::bigint + $2 + row_number() over (order by d.id, k), $3, d.id,
       upper(left(regexp_replace(m.business_name, '[^A-Za-z]', '', 'g'), 14)) || '*' || right(d.mid, 4) || case when k = 2 then ' ONLINE' else '' end
     from cases.mids d join cases.merchants m on m.id = d.merchant_id
     cross join lateral generate_series(1, 1 + (d.id % 2)::int) k
     where d.tenant_id = $3`,
    [base, DESCRIPTOR_ID_OFFSET, tenant.id],
  );
  // Deflectors: some MIDs have none (counts as inactive), others pending or active.
  await tx.query(
    `insert into cases.mid_deflectors (tenant_id, mid_id, deflector_id, status_id)
     select $1, d.id, f.id, 1 + ((d.id + f.id * 3) % 3)::int
     from cases.mids d cross join cases.deflectors f
     where d.tenant_id = $1 and (d.id + f.id) % 4 <> 0`,
    [tenant.id],
  );
  const staff = DEMO_USERS.filter((u) => u.role === 'cb911_manager' || u.role === 'cb911_agent');
  for (const u of staff) {
    await tx.query(
      `insert into cases.assignees (id, tenant_id, username, fname, lname, role_id) values ($1, $2, $3, $4, $5, $6)`,
      [demoUserId(tenant, u), tenant.id, u.username, u.fname, u.lname, ROLES[u.role]],
    );
  }
}
