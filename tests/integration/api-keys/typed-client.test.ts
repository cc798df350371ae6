import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, demoTenant } from '@portal/contracts';
import { openCasesDueThisWeek } from '../../../packages/client/examples/open-cases-due-this-week';
import { makePdf } from '../../support/representment-upload';
import { startKeyWorld, type KeyWorld } from './support';

/**
 * Issue 35.3: the README example of @portal/client (generated types plus
 * openapi-fetch) run against the stack with a merchant API key: a merchant's
 * open cases due this week, then evidence uploaded to one of them.
 */
let w: KeyWorld;
const A1 = demoMerchantId(demoTenant('acme'), 'merchantA1');

/**
 * A New case of merchantA1 falls due today (the demo data's due dates are spread over months). Today,
 * not tomorrow: on a Sunday the example's week (today to Sunday) is today alone.
 */
async function caseDueToday(): Promise<number> {
  const { rows } = await w.t.db.query<{ id: string }>(
    `update cases.cases set date_due = (now() at time zone 'utc')::date
      where id = (select id from cases.cases where tenant_id = 'acme' and merchant_id = $1 and status_id = 1
                   and date_due <> (now() at time zone 'utc')::date order by id limit 1)
      returning id`,
    [A1],
  );
  return Number(rows[0]!.id);
}

beforeAll(async () => {
  w = await startKeyWorld();
}, 60_000);
afterAll(async () => w?.close());

async function keyWith(scopes: string[]): Promise<string> {
  const token = await w.signIn('merchant.admin');
  const r = await w.call('POST', '/api/users/api-keys', { token, body: { name: 'client', scopes } });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json.secret as string;
}

describe('the typed client example', () => {
  it("lists the merchant's open cases due this week and uploads evidence to one", async () => {
    const dueCaseId = await caseDueToday();
    const apiKey = await keyWith(['cases:read', 'evidence:write']);
    const pdf = new Blob([Buffer.from(await makePdf(1))], { type: 'application/pdf' });
    const { cases, uploaded } = await openCasesDueThisWeek(
      { baseUrl: w.stack.gatewayUrl, apiKey },
      { pdf, filename: 'evidence.pdf' },
    );
    expect(cases.map((c) => c.id)).toContain(dueCaseId);
    const today = new Date().toISOString().slice(0, 10);
    for (const c of cases) {
      expect(c.merchant_id).toBe(A1);
      expect([1, 2]).toContain(c.status_group_id);
      expect(c.date_due!.slice(0, 10) >= today).toBe(true);
    }
    expect(uploaded).not.toBeNull();
    const { rows } = await w.t.db.query<{ status_id: number }>(
      'select status_id from cases.cases where id = $1',
      [uploaded!.caseId],
    );
    expect(rows[0]!.status_id).not.toBe(1);
  });

  it('cannot upload with a key without evidence:write', async () => {
    await caseDueToday();
    const apiKey = await keyWith(['cases:read']);
    const pdf = new Blob([Buffer.from(await makePdf(1))], { type: 'application/pdf' });
    await expect(
      openCasesDueThisWeek({ baseUrl: w.stack.gatewayUrl, apiKey }, { pdf, filename: 'evidence.pdf' }),
    ).rejects.toThrow('upload link refused: This API key may not call this route.');
  });
});
