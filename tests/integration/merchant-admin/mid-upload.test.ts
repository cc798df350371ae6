import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId } from '@portal/contracts';
import { contextHeaders } from '../../support/context';
import { ACME, NORTHBANK, demoCtx, startCaseApp, type CaseApp, type Ctx } from '../case/case-app';

let c: CaseApp;
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

const MERCHANT_A1 = demoMerchantId(ACME, 'merchantA1');
const PARTNER_B = demoMerchantId(ACME, 'partnerB');
const NB_ROOT = demoMerchantId(NORTHBANK, 'root');
const HEADER = 'mid,alias,descriptor,platform,service_level_id,mcc,caid,wpg_merchant_code';
let n = 0;
const mid = () => `U${Date.now().toString().slice(-9)}${++n}`;

/** A multipart form with the given fields and (optionally) the CSV as `mids`. */
function form(fields: Record<string, string>, csv: string | null, extraFile = false) {
  const b = '----ma-boundary';
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  if (csv !== null)
    parts.push(
      `--${b}\r\nContent-Disposition: form-data; name="mids"; filename="mids.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n`,
    );
  if (extraFile)
    parts.push(
      `--${b}\r\nContent-Disposition: form-data; name="other"; filename="x.csv"\r\nContent-Type: text/csv\r\n\r\nx\r\n`,
    );
  return { payload: `${parts.join('')}--${b}--\r\n`, contentType: `multipart/form-data; boundary=${b}` };
}

async function upload(ctx: Ctx, fields: Record<string, string>, csv: string | null, extraFile = false) {
  const f = form(fields, csv, extraFile);
  const r = await c.app.inject({
    method: 'POST',
    url: '/cm/mids/upload',
    headers: { ...contextHeaders(c.t.deps.contextSecret, ctx), 'content-type': f.contentType },
    payload: f.payload,
  });
  return {
    status: r.statusCode,
    body: JSON.parse(r.body) as { message: string; count?: number; data?: { errors: unknown[] } },
  };
}

const mids = async () =>
  Number((await c.t.db.query<{ n: number }>(`select count(*)::int as n from cases.mids`)).rows[0]!.n);

describe('MID CSV upload', () => {
  it('serves the template with the upload columns', async () => {
    const r = await c.app.inject({
      method: 'GET',
      url: '/cm/templates/mids.csv',
      headers: contextHeaders(c.t.deps.contextSecret, demoCtx('acme', 'partner.admin')),
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/csv');
    expect(r.body.split('\r\n')[0]).toBe(HEADER);
  });

  it('creates every row for the merchant, with descriptors', async () => {
    const [a, b] = [mid(), mid()];
    const csv = `${HEADER}\r\n${a},Store A,ACME*A,First Data,1,5411,,\r\n"${b}","Store, B",ACME*B,2,5,,C1,\r\n`;
    const r = await upload(demoCtx('acme', 'partner.admin'), { merchant_id: String(MERCHANT_A1) }, csv);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ message: 'MIDs successfully uploaded.', count: 2 });
    const { rows } = await c.t.db.query(
      `select mi.mid, mi.alias, mi.processor_id, mi.service_level_id, mi.status_id, d.descriptor from cases.mids mi
       join cases.descriptors d on d.mid_id = mi.id where mi.mid = any($1::text[]) order by mi.mid`,
      [[a, b]],
    );
    expect(rows).toEqual([
      { mid: a, alias: 'Store A', processor_id: 1, service_level_id: 1, status_id: 2, descriptor: 'ACME*A' },
      { mid: b, alias: 'Store, B', processor_id: 2, service_level_id: 5, status_id: 2, descriptor: 'ACME*B' },
    ]);
  });

  const bad: [string, Record<string, string>, string | null, string][] = [
    ['no merchant_id', {}, `${HEADER}\r\nX1,a,d,1,1,,,\r\n`, 'merchant_id: Field required!'],
    [
      'merchant_id not a number',
      { merchant_id: 'abc' },
      `${HEADER}\r\nX1,a,d,1,1,,,\r\n`,
      'merchant_id: Field required!',
    ],
    ['no file', { merchant_id: String(MERCHANT_A1) }, null, 'mids: Field required!'],
    [
      'header only',
      { merchant_id: String(MERCHANT_A1) },
      `${HEADER}\r\n`,
      'mids: the CSV must have at least one row.',
    ],
    [
      'missing columns',
      { merchant_id: String(MERCHANT_A1) },
      'mid,alias\r\nX,y\r\n',
      'mids: missing column(s) descriptor, platform.',
    ],
    [
      'open quote',
      { merchant_id: String(MERCHANT_A1) },
      `${HEADER}\r\n"X1,a,d,1,1,,,\r\n`,
      'mids: the file is not a valid CSV.',
    ],
    [
      'merchant outside scope',
      { merchant_id: String(PARTNER_B) },
      `${HEADER}\r\nX1,a,d,1,1,,,\r\n`,
      `merchant_id: merchant ${PARTNER_B} not found.`,
    ],
    [
      'merchant of another tenant',
      { merchant_id: String(NB_ROOT) },
      `${HEADER}\r\nX1,a,d,1,1,,,\r\n`,
      `merchant_id: merchant ${NB_ROOT} not found.`,
    ],
  ];
  it.each(bad)('refuses %s', async (_name, fields, csv, message) => {
    const before = await mids();
    const r = await upload(demoCtx('acme', 'partner.admin'), fields, csv);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
    expect(await mids()).toBe(before);
  });

  it('names every bad row and writes none of them', async () => {
    const { rows } = await c.t.db.query<{ mid: string }>(
      `select mid from cases.mids where tenant_id = 'acme' limit 1`,
    );
    const ok = mid();
    const dup = mid();
    const csv = [
      HEADER,
      `${ok},Good,G*1,1,1,,,`,
      `,No mid,G*2,1,1,,,`,
      `${dup},Dup,G*3,Nowhere,1,,,`,
      `${dup},Dup again,G*4,1,1,,,`,
      `${rows[0]!.mid},Taken,G*5,1,1,,,`,
      `${mid()},Bad mcc,G*6,1,1,54,,`,
    ].join('\n');
    const before = await mids();
    const r = await upload(demoCtx('acme', 'admin'), { merchant_id: String(MERCHANT_A1) }, csv);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Row 3: mid: Field required!');
    expect(r.body.data!.errors).toEqual([
      { row: 3, field: 'mid', message: 'Field required!' },
      { row: 4, field: 'platform', message: 'Unknown platform Nowhere.' },
      { row: 5, field: 'mid', message: `MID ${dup} repeats row 4.` },
      { row: 6, field: 'mid', message: `MID ${rows[0]!.mid} already exists.` },
      { row: 7, field: 'mcc', message: 'MCC must be 4 digits.' },
    ]);
    expect(await mids()).toBe(before);
  });

  it('refuses read-only users, roles without CREATE_MID and a second file', async () => {
    const csv = `${HEADER}\r\n${mid()},a,d,1,1,,,\r\n`;
    const fields = { merchant_id: String(MERCHANT_A1) };
    expect((await upload(demoCtx('acme', 'readonly'), fields, csv)).status).toBe(403);
    expect((await upload(demoCtx('acme', 'merchant.admin'), fields, csv)).status).toBe(403);
    const two = await upload(demoCtx('acme', 'admin'), fields, csv, true);
    expect(two.status).toBe(400);
    expect(two.body.message).toBe('Only a single CSV file is allowed.');
  });
});
