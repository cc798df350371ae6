import {
  MERCHANT_COLUMNS,
  MID_COLUMNS,
  ONBOARDING_STATUS,
  RECORD_STATUS,
  SEED_MERCHANT_OFFSET,
  demoMerchantId,
  tenantIdBase,
  type DemoMerchantKey,
  type DemoTenant,
  type OnboardingType,
} from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { revalidate } from '../onboarding/onboarding';
import { demoActor, type DemoActor } from './demo-actors';
import { tenantPrefix } from './merchants';

const TYPE_ID: Record<OnboardingType, number> = { merchant: 1, mid: 2 };

/**
 * Onboarding history (spec 3 §2 'Onboarding') of one tenant, as the screen's
 * users leave it: the generated merchants under the two partners were each
 * onboarded by a file of their partner (partner.admin for Summit Partners,
 * the manager for Harbor ISO), finalized when the merchant was created; and
 * this week's files are still open, with the errors the real checks find.
 */
export async function seedOnboardingFiles(tx: Queryable, tenant: DemoTenant): Promise<void> {
  await seedFinalizedMerchantFiles(tx, tenant);
  for (const file of await openFiles(tx, tenant)) await insertOpenFile(tx, tenant, file);
}

/**
 * One finalized file per generated merchant under a partner, as finalize.ts
 * leaves it: status 3, the record pointing at the merchant it created
 * (created_id), the job's message, and the merchant created at finalize time.
 */
async function seedFinalizedMerchantFiles(tx: Queryable, tenant: DemoTenant): Promise<void> {
  const partnerA = demoMerchantId(tenant, 'partnerA');
  const partnerAdmin = demoActor(tenant, 'partner.admin');
  const manager = demoActor(tenant, 'manager');
  await tx.query(
    `with m as (
       select m.*, regexp_replace(sl.name, ' Service$', '') as service_level, coalesce(co.code, '') as country,
         $1 || '/onboarding/' || md5($1 || '/onboarding/' || m.id)::uuid || '/' ||
           trim(both '-' from lower(regexp_replace(m.business_name, '[^A-Za-z0-9]+', '-', 'g'))) || '.csv' as s3_key
       from cases.merchants m join cases.service_levels sl on sl.id = m.service_level_id
       left join cases.countries co on co.id = m.country_id
       where m.tenant_id = $1 and m.parent_id = any($2::bigint[]) and m.id >= $3::bigint
     ),
     f as (
       insert into cases.onboarding_files (tenant_id, merchant_id, type_id, status_id, filename, s3_key, user_id, username,
         rows_in_upload, message, date_created, date_updated, finalized_date)
       select $1, m.parent_id, $4::int, $5::smallint, split_part(m.s3_key, '/', 4), m.s3_key,
         case when m.parent_id = $6::bigint then $7::bigint else $9::bigint end,
         case when m.parent_id = $6::bigint then $8 else $10 end,
         1, 'Created 1 merchant(s) and their main admin users.', m.date_created - interval '3 hours',
         m.date_created, m.date_created
       from m order by m.date_created, m.id
       returning id, s3_key
     )
     insert into cases.onboarding_records (file_id, row_num, status_id, cells, errors, created_id)
     select f.id, 1, $11::smallint, jsonb_build_object(
         'business_name', m.business_name, 'dba', '', 'alias', coalesce(m.alias, ''), 'service_level', m.service_level,
         'country', m.country, 'partner_company_id', coalesce(m.partner_company_id, ''),
         'business_address', coalesce(m.business_address, ''), 'city', coalesce(m.city, ''), 'state', coalesce(m.state, ''),
         'zip', coalesce(m.zip, ''), 'business_phone', coalesce(m.business_phone, ''),
         'first_name', coalesce(m.contact_fname, ''), 'last_name', coalesce(m.contact_lname, ''),
         'email', coalesce(m.contact_email, ''), 'username', coalesce(m.contact_username, ''),
         'phone', coalesce(m.contact_phone, '')),
       '{}', m.id
     from f join m on m.s3_key = f.s3_key`,
    [
      tenant.id,
      [partnerA, demoMerchantId(tenant, 'partnerB')],
      tenantIdBase(tenant) + SEED_MERCHANT_OFFSET,
      TYPE_ID.merchant,
      ONBOARDING_STATUS.finalized,
      partnerA,
      partnerAdmin.id,
      partnerAdmin.username,
      manager.id,
      manager.username,
      RECORD_STATUS.normal,
    ],
  );
}

/** A file still being reviewed: its rows as uploaded, and the rows its uploader deleted since. */
interface OpenFile {
  merchant: DemoMerchantKey;
  type: OnboardingType;
  uploader: DemoActor;
  filename: string;
  /** Uploaded this many hours ago; edited (the deletions) half an hour later. */
  hoursAgo: number;
  rows: Array<Record<string, string>>;
  deleted: number[];
}

/** Cells of a merchant row: every template column (absent ones empty, as createOnboarding reads a CSV). */
function merchantRow(values: Partial<Record<(typeof MERCHANT_COLUMNS)[number]['name'], string>>) {
  return Object.fromEntries(MERCHANT_COLUMNS.map((c) => [c.name, values[c.name] ?? '']));
}

function midRow(values: Partial<Record<(typeof MID_COLUMNS)[number]['name'], string>>) {
  return Object.fromEntries(MID_COLUMNS.map((c) => [c.name, values[c.name] ?? '']));
}

/**
 * This week's open files: a partner's merchants with two failing cells (a
 * merchant that exists already, a bad e-mail) and a duplicate row deleted; a
 * MID file with a MID that exists and a bad MCC; a clean MID file and a clean
 * merchant file ready to finalize.
 */
async function openFiles(tx: Queryable, tenant: DemoTenant): Promise<OpenFile[]> {
  const { rows } = await tx.query<{ mid: string }>(
    'select mid from cases.mids where tenant_id = $1 and merchant_id = $2 order by id limit 1',
    [tenant.id, demoMerchantId(tenant, 'merchantB1')],
  );
  const takenMid = rows[0]?.mid ?? '';
  const newMid = (n: number) => `44${tenant.number}70000${String(n).padStart(5, '0')}`;
  const trailhead = {
    business_name: 'Trailhead Supply Co',
    alias: 'trailhead',
    service_level: 'Pro',
    country: 'US',
    business_address: '410 Ridge Rd',
    city: 'Boulder',
    state: 'CO',
    zip: '80302',
    business_phone: '+1 303 555 0141',
    first_name: 'Dana',
    last_name: 'Reyes',
    email: 'dana@trailhead.example',
    username: 'dana.trailhead',
  };
  return [
    {
      merchant: 'partnerA',
      type: 'merchant',
      uploader: demoActor(tenant, 'partner.admin'),
      filename: 'summit-new-merchants.csv',
      hoursAgo: 20,
      rows: [
        merchantRow(trailhead),
        merchantRow({
          business_name: `${tenantPrefix(tenant)} Copper Kettle Coffee`,
          service_level: 'Basic',
          country: 'US',
          first_name: 'Sam',
          last_name: 'Brewer',
          email: 'sam@copperkettle.example',
          username: 'sam.copperkettle',
        }),
        merchantRow({
          business_name: 'Lakeside Pet Supplies',
          dba: 'Lakeside Pets',
          service_level: 'Full',
          country: 'CA',
          city: 'Toronto',
          first_name: 'Lee',
          last_name: 'Tran',
          email: 'orders@lakeside',
          username: 'lee.lakeside',
          phone: '+1 416 555 0188',
        }),
        merchantRow({
          business_name: 'Mesa Verde Outfitters',
          service_level: 'Basic',
          country: 'US',
          city: 'Santa Fe',
          state: 'NM',
          first_name: 'Rosa',
          last_name: 'Mesa',
          email: 'rosa@mesaverde.example',
          username: 'rosa.mesaverde',
        }),
        merchantRow(trailhead),
      ],
      deleted: [5],
    },
    {
      merchant: 'merchantB1',
      type: 'mid',
      uploader: demoActor(tenant, 'manager'),
      filename: 'northwind-mids.csv',
      hoursAgo: 46,
      rows: [
        midRow({
          mid: newMid(1),
          alias: 'Web store',
          descriptor: 'NORTHWIND*WEB',
          service_level: 'Full',
          mcc: '5732',
        }),
        midRow({ mid: takenMid, alias: 'Outlet', service_level: 'Full', mcc: '5732' }),
        midRow({ mid: newMid(2), alias: 'Phone orders', service_level: 'Full', mcc: '57A2' }),
        midRow({ mid: newMid(3), alias: 'Marketplace', descriptor: 'NORTHWIND*MKT', mcc: '5732' }),
      ],
      deleted: [],
    },
    {
      merchant: 'merchantA2',
      type: 'mid',
      uploader: demoActor(tenant, 'partner.admin'),
      filename: 'copper-kettle-new-stores.csv',
      hoursAgo: 92,
      rows: [
        midRow({ mid: newMid(4), alias: 'Riverside cafe', descriptor: 'COPPERKETTLE*RIVER', mcc: '5814' }),
        midRow({ mid: newMid(5), alias: 'Airport kiosk', descriptor: 'COPPERKETTLE*AIR', mcc: '5814' }),
      ],
      deleted: [],
    },
    {
      merchant: 'root',
      type: 'merchant',
      uploader: demoActor(tenant, 'admin'),
      filename: 'direct-merchants.csv',
      hoursAgo: 118,
      rows: [
        merchantRow({
          business_name: 'Harborview Books',
          service_level: 'Basic',
          country: 'GB',
          city: 'Bristol',
          first_name: 'Olivia',
          last_name: 'Hart',
          email: 'olivia@harborview.example',
          username: 'olivia.harborview',
        }),
        merchantRow({
          business_name: 'Northgate Fitness',
          service_level: 'Pro',
          country: 'IE',
          city: 'Dublin',
          first_name: 'Cian',
          last_name: 'Byrne',
          email: 'cian@northgate.example',
          username: 'cian.northgate',
          phone: '+353 1 555 0199',
        }),
      ],
      deleted: [],
    },
  ];
}

/** Inserts the file and its rows as createOnboarding does, applies the deletions, and checks it (revalidate). */
async function insertOpenFile(tx: Queryable, tenant: DemoTenant, file: OpenFile): Promise<void> {
  const { rows } = await tx.query<{ id: string }>(
    `insert into cases.onboarding_files (tenant_id, merchant_id, type_id, status_id, filename, s3_key, user_id, username,
       rows_in_upload, date_created, date_updated)
     values ($1, $2, $3, $4, $5, $1 || '/onboarding/' || md5($1 || '/onboarding/' || $5)::uuid || '/' || $5, $6, $7, $8,
       now() - make_interval(hours => $9::int),
       now() - make_interval(hours => $9::int) + case when $10::int > 0 then interval '30 minutes' else interval '0' end)
     returning id`,
    [
      tenant.id,
      demoMerchantId(tenant, file.merchant),
      TYPE_ID[file.type],
      ONBOARDING_STATUS.open,
      file.filename,
      file.uploader.id,
      file.uploader.username,
      file.rows.length,
      file.hoursAgo,
      file.deleted.length,
    ],
  );
  const id = Number(rows[0]!.id);
  await tx.query(
    `insert into cases.onboarding_records (file_id, row_num, status_id, cells)
     select $1, n, case when n = any($3::int[]) then $4::smallint else $5::smallint end, c
     from unnest($2::jsonb[]) with ordinality as u(c, n)`,
    [id, file.rows.map((r) => JSON.stringify(r)), file.deleted, RECORD_STATUS.deleted, RECORD_STATUS.normal],
  );
  await revalidate(tx, tenant.id, id, file.type);
}
