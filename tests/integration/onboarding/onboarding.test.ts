import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, demoTenant, ONBOARDING_MESSAGES } from '@portal/contracts';
import { startHarness, waitFor, type Harness } from './stack-support';

/** Onboarding through the gateway (spec 3 §2-§8): parse errors, fixes, finalize creating exactly the rows. */
let h: Harness;
const ACME = demoTenant('acme');
const A1 = demoMerchantId(ACME, 'merchantA1');
const NB = demoTenant('northbank');
const run = Date.now().toString(36);

beforeAll(async () => {
  h = await startHarness([
    ['acme', 'admin'],
    ['acme', 'merchant.admin'],
    ['acme', 'readonly'],
    ['acme', 'agent'],
    ['northbank', 'admin'],
  ]);
});
afterAll(async () => h?.close());

const MERCHANT_HEADER =
  'Business Name,DBA,Alias,Service Level,Country,Partner Company ID,Business address,City,State,Zip,Business phone,First name,Last name,Email,Username,Phone';
const merchantRow = (
  n: string,
  over: Partial<Record<'name' | 'level' | 'country' | 'email' | 'user' | 'phone', string>> = {},
) =>
  [
    `"${over.name ?? `Onb ${run} ${n}, Inc.`}"`,
    `DBA ${n}`,
    '',
    over.level ?? 'Basic',
    over.country ?? 'US',
    '',
    '"1 Main St, Suite 2"',
    'Austin',
    'TX',
    '78701',
    '+1 512 555 0100',
    'Ona',
    `Board${n}`,
    over.email ?? `onb.${run}.${n}@example.com`,
    over.user ?? `onb.${run}.${n}`,
    over.phone ?? '+1 512 555 0101',
  ].join(',');

async function createFile(
  user: string,
  csv: string | Buffer,
  type: 'merchant' | 'mid' = 'merchant',
  merchant = A1,
) {
  const key = await h.upload(user, '/api/cm/onboarding/upload', csv, 'merchants.csv');
  return h.call(user, 'POST', '/api/cm/onboarding', { s3_key: key, type, merchant_id: merchant });
}

describe('onboarding upload and parsing', () => {
  it('answers an upload link and refuses files it cannot read as a whole', async () => {
    const link = await h.call('admin', 'GET', '/api/cm/onboarding/upload?filename=x.csv');
    expect(link.status).toBe(200);
    expect(link.json).toMatchObject({
      url: expect.any(String),
      fields: { key: expect.stringMatching(/^acme\/onboarding\//) },
    });

    const latin1 = Buffer.concat([
      Buffer.from(`${MERCHANT_HEADER}\n`),
      Buffer.from([0x43, 0x61, 0x66, 0xe9]),
      Buffer.from(',x\n'),
    ]);
    const bad = await createFile('admin', latin1);
    expect(bad.status).toBe(400);
    expect(String(bad.json.message)).toMatch(/UTF-8/);

    const empty = await createFile('admin', `${MERCHANT_HEADER}\r\n`);
    expect(empty.status).toBe(400);
    expect(empty.json.message).toBe(ONBOARDING_MESSAGES.emptyCsv);

    const wrongCols = await createFile('admin', 'A,B\n1,2\n');
    expect(wrongCols.status).toBe(400);
    expect(String(wrongCols.json.message)).toMatch(/missing the column\(s\): Business Name/);

    const huge = await createFile('admin', `${MERCHANT_HEADER}\n${'x\n'.repeat(100_000)}`);
    expect(huge.status).toBe(400);
    expect(String(huge.json.message)).toMatch(/more than 20,000 rows/);
  });

  it('refuses read-only users, foreign keys and other tenants', async () => {
    expect((await h.call('readonly', 'GET', '/api/cm/onboarding/upload')).status).toBe(403);
    const key = await h.upload(
      'admin',
      '/api/cm/onboarding/upload',
      `${MERCHANT_HEADER}\n${merchantRow('z')}\n`,
    );
    const nb = await h.call(
      'admin',
      'POST',
      '/api/cm/onboarding',
      { s3_key: key, type: 'merchant', merchant_id: demoMerchantId(NB, 'root') },
      'northbank',
    );
    expect(nb.status).toBe(400);
  });
});

describe('gateway policy of the issue 17 screens', () => {
  it('gates onboarding, case updater and ERT bulk upload by feature', async () => {
    // merchant_admin has no 'onboarding' feature; the agent has 'case-updater' but not 'ert-bulk-upload'.
    expect((await h.call('merchant.admin', 'GET', '/api/cm/onboarding/files')).status).toBe(403);
    expect((await h.call('merchant.admin', 'GET', '/api/cm/cases/updater')).status).toBe(403);
    expect((await h.call('agent', 'GET', '/api/cm/cases/updater')).status).toBe(200);
    expect((await h.call('agent', 'POST', '/api/ert/erts/upload', { s3_key: 'x' })).status).toBe(403);
    expect(
      (await h.call('readonly', 'POST', '/api/cm/onboarding', { s3_key: 'x', type: 'mid', merchant_id: A1 }))
        .status,
    ).toBe(403);
    expect((await h.call('admin', 'GET', '/api/ert/erts')).status).toBe(200);
  });
});

describe('onboarding review and finalize', () => {
  let id: number;
  it('parses quoted fields, BOM and CRLF into cells with error messages', async () => {
    const csv =
      '\uFEFF' +
      [
        MERCHANT_HEADER,
        merchantRow('1'),
        merchantRow('2', { level: 'Gold', country: 'Narnia', email: 'not-an-email', phone: 'call me' }),
        merchantRow('3', { user: `onb.${run}.1` }),
        merchantRow('4', { name: '=HYPERLINK(""http://x"")' }),
      ].join('\r\n') +
      '\r\n';
    const r = await createFile('admin', csv);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.message).toBe(ONBOARDING_MESSAGES.uploaded);
    id = r.json.id as number;
    const rec = await h.call('admin', 'GET', `/api/cm/onboarding/${id}/records`);
    expect(rec.status).toBe(200);
    const data = rec.json.data as Array<{
      id: number;
      cells: Record<string, { value: string; err_messages: string[] }>;
    }>;
    expect(data).toHaveLength(4);
    expect(data[0]!.cells.business_name!.value).toBe(`Onb ${run} 1, Inc.`);
    expect(data[0]!.cells.business_address!.value).toBe('1 Main St, Suite 2');
    const firstRowErrors = Object.entries(data[0]!.cells).filter(([, c]) => c.err_messages.length);
    // Both rows of a duplicated username are marked.
    expect(firstRowErrors.map(([k]) => k)).toEqual(['username']);
    expect(data[1]!.cells.service_level!.err_messages[0]).toMatch(/Unknown service level/);
    expect(data[1]!.cells.country!.err_messages[0]).toMatch(/Unknown country/);
    expect(data[1]!.cells.email!.err_messages).toEqual(['Invalid e-mail address.']);
    expect(data[1]!.cells.phone!.err_messages).toEqual(['Invalid phone number.']);
    expect(data[2]!.cells.username!.err_messages).toEqual(['Duplicate value within this file.']);
    expect(data[3]!.cells.business_name!.err_messages[0]).toMatch(/must not start with/);
    expect(rec.json.total_failing_validation).toBe(7);
    expect(rec.json.uploaded_by).toBe('admin');
  });

  it('lists the file in the history of the last 7 days', async () => {
    const r = await h.call('admin', 'GET', '/api/cm/onboarding/files');
    const row = (r.json.data as Array<{ id: number }>).find((f) => f.id === id);
    expect(row).toMatchObject({
      rows_in_upload: 4,
      onboarding_type: { name: 'Merchant' },
      finalized_date: null,
    });
    const old = await h.call('admin', 'GET', '/api/cm/onboarding/files?date_range=2020-01-01|2020-01-07');
    expect((old.json.data as Array<{ id: number }>).some((f) => f.id === id)).toBe(false);
  });

  it('refuses finalize while cells fail, then accepts fixes and deletes', async () => {
    const early = await h.call('admin', 'PATCH', `/api/cm/onboarding/${id}`, { status_id: 3 });
    expect(early.status).toBe(409);
    const rec = await h.call('admin', 'GET', `/api/cm/onboarding/${id}/records`);
    const ids = (rec.json.data as Array<{ id: number }>).map((r) => r.id);
    const fix = await h.call('admin', 'PATCH', `/api/cm/onboarding/${id}/records`, {
      records: [
        {
          id: ids[1],
          cells: {
            service_level: 'Full',
            country: 'Canada',
            email: `onb.${run}.2@example.com`,
            phone: '+1 416 555 0100',
          },
        },
        { id: ids[2], status_id: 2 },
      ],
    });
    expect(fix.status, JSON.stringify(fix.json)).toBe(200);
    expect(fix.json).toEqual({ message: ONBOARDING_MESSAGES.recordUpdated, total_failing_validation: 1 });
    const editDeleted = await h.call('admin', 'PATCH', `/api/cm/onboarding/${id}/records`, {
      records: [{ id: ids[2], cells: { city: 'Dallas' } }],
    });
    expect(editDeleted.status).toBe(400);
    const unknownCol = await h.call('admin', 'PATCH', `/api/cm/onboarding/${id}/records`, {
      records: [{ id: ids[0], cells: { nope: 'x' } }],
    });
    expect(unknownCol.status).toBe(400);
    const last = await h.call('admin', 'PATCH', `/api/cm/onboarding/${id}/records`, {
      records: [{ id: ids[3], cells: { business_name: `Onb ${run} 4` } }],
    });
    expect(last.json.total_failing_validation).toBe(0);
    // Undeleting the duplicate brings its error back.
    const undelete = await h.call('admin', 'PATCH', `/api/cm/onboarding/${id}/records`, {
      records: [{ id: ids[2], status_id: 1 }],
    });
    expect(undelete.json.total_failing_validation).toBe(2);
    await h.call('admin', 'PATCH', `/api/cm/onboarding/${id}/records`, {
      records: [{ id: ids[2], status_id: 2 }],
    });
  });

  it('hides the file from other merchants and refuses read-only users', async () => {
    // merchant.admin (another merchant's subtree): refused by the gateway or not found by the service.
    expect([403, 404]).toContain(
      (await h.call('merchant.admin', 'GET', `/api/cm/onboarding/${id}/records`)).status,
    );
    expect((await h.call('readonly', 'PATCH', `/api/cm/onboarding/${id}`, { status_id: 3 })).status).toBe(
      403,
    );
  });

  it('finalizes: exactly the live rows become merchants with main admins, mailed; then read-only', async () => {
    const before = Number(
      (
        await h.t.db.query<{ n: number }>(
          'select count(*)::int as n from cases.merchants where tenant_id = $1',
          ['acme'],
        )
      ).rows[0]!.n,
    );
    const fin = await h.call('admin', 'PATCH', `/api/cm/onboarding/${id}`, { status_id: 3 });
    expect(fin.status, JSON.stringify(fin.json)).toBe(200);
    expect(fin.json.message).toBe(ONBOARDING_MESSAGES.success);
    const file = await waitFor('finalized', async () => {
      const r = await h.call('admin', 'GET', `/api/cm/onboarding/${id}/records`);
      return r.json.finalized_date ? r.json : undefined;
    });
    expect(file.status_id).toBe(3);
    expect(String(file.message)).toMatch(/Created 3 merchant/);
    const { rows } = await h.t.db.query<{
      business_name: string;
      parent_id: string;
      service_level_id: number;
      country_id: number;
    }>(
      `select business_name, parent_id, service_level_id, country_id from cases.merchants where tenant_id = 'acme' and business_name like $1 order by business_name`,
      [`Onb ${run} %`],
    );
    expect(rows.map((r) => r.business_name)).toEqual([
      `Onb ${run} 1, Inc.`,
      `Onb ${run} 2, Inc.`,
      `Onb ${run} 4`,
    ]);
    expect(rows.every((r) => Number(r.parent_id) === A1)).toBe(true);
    expect(rows[1]!.service_level_id).toBe(3);
    const after = Number(
      (
        await h.t.db.query<{ n: number }>(
          'select count(*)::int as n from cases.merchants where tenant_id = $1',
          ['acme'],
        )
      ).rows[0]!.n,
    );
    expect(after - before).toBe(3);
    const users = await h.t.db.query<{ username: string; role_id: number; new_password_required: boolean }>(
      `select username, role_id, new_password_required from users.users where tenant = 'acme' and username like $1 order by username`,
      [`onb.${run}.%`],
    );
    expect(users.rows.map((u) => u.username)).toEqual([`onb.${run}.1`, `onb.${run}.2`, `onb.${run}.4`]);
    expect(users.rows.every((u) => u.role_id === 4 && u.new_password_required)).toBe(true);
    const outbox = join(h.t.deps.env.DATA_DIR, 'outbox');
    const mail = await waitFor('welcome mail', async () => {
      for (const f of await readdir(outbox).catch(() => [] as string[])) {
        const text = await readFile(join(outbox, f), 'utf8').catch(() => '');
        if (text.includes(`onb.${run}.4@example.com`) && text.includes('Temporary password')) return text;
      }
      return undefined;
    });
    expect(mail).toContain(`Username: onb.${run}.4`);
    const again = await h.call('admin', 'PATCH', `/api/cm/onboarding/${id}/records`, {
      records: [{ id: 1, status_id: 1 }],
    });
    expect(again.status).toBe(409);
    expect((await h.call('admin', 'PATCH', `/api/cm/onboarding/${id}`, { status_id: 3 })).status).toBe(409);
  });

  it('onboards MIDs, refusing MIDs that already exist', async () => {
    const existing = (
      await h.t.db.query<{ mid: string }>(`select mid from cases.mids where tenant_id = 'acme' limit 1`)
    ).rows[0]!.mid;
    const fresh = `OB${Date.now().toString().slice(-8)}`;
    const r = await createFile(
      'admin',
      `MID,Alias,Descriptor,Service Level,MCC\n${fresh},Main,ONB*${run},Pro,5941\n${existing},Dup,,,\n`,
      'mid',
    );
    expect(r.status).toBe(200);
    const rec = await h.call('admin', 'GET', `/api/cm/onboarding/${r.json.id}/records`);
    const data = rec.json.data as Array<{ id: number; cells: Record<string, { err_messages: string[] }> }>;
    expect(data[1]!.cells.mid!.err_messages).toEqual(['This MID already exists.']);
    await h.call('admin', 'PATCH', `/api/cm/onboarding/${r.json.id}/records`, {
      records: [{ id: data[1]!.id, status_id: 2 }],
    });
    expect((await h.call('admin', 'PATCH', `/api/cm/onboarding/${r.json.id}`, { status_id: 3 })).status).toBe(
      200,
    );
    await waitFor('MID finalized', async () => {
      const f = await h.call('admin', 'GET', `/api/cm/onboarding/${r.json.id}/records`);
      return f.json.finalized_date ? true : undefined;
    });
    const mids = await h.t.db.query<{ merchant_id: string; service_level_id: number; status_id: number }>(
      `select merchant_id, service_level_id, status_id from cases.mids where tenant_id = 'acme' and mid = $1`,
      [fresh],
    );
    expect(mids.rows).toHaveLength(1);
    expect(Number(mids.rows[0]!.merchant_id)).toBe(A1);
    expect(mids.rows[0]!.service_level_id).toBe(5);
  });

  it('marks usernames that already exist (asked of the user service)', async () => {
    const r = await createFile(
      'admin',
      `${MERCHANT_HEADER}\n${merchantRow('taken', { user: 'Merchant.Admin' })}\n`,
    );
    expect(r.status).toBe(200);
    const rec = await h.call('admin', 'GET', `/api/cm/onboarding/${r.json.id}/records`);
    const cells = (rec.json.data as Array<{ cells: Record<string, { err_messages: string[] }> }>)[0]!.cells;
    expect(cells.username!.err_messages).toEqual(['This username is already taken.']);
    // The check is for services only: a signed-in user cannot reach it through the gateway.
    expect(
      (await h.call('admin', 'POST', '/api/users/internal/usernames-taken', { usernames: ['admin'] })).status,
    ).toBe(403);
  });

  it('serves both CSV templates', async () => {
    const m = await h.call('admin', 'GET', '/api/cm/onboarding/template/merchant');
    expect(m.status).toBe(200);
    const mid = await h.call('admin', 'GET', '/api/cm/onboarding/template/mid');
    expect(mid.status).toBe(200);
  });
});
