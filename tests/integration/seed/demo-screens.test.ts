import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_STATUS, DEMO_TENANTS, demoMerchantId, type DemoTenant } from '@portal/contracts';
import { contextHeaders } from '../../support/context';
import { startFullStack, type FullStack } from '../../support/full-stack';
import { demoCtx } from '../case/case-app';

/**
 * The demo is worth showing (issue 28.4): on the seeded template, every demo
 * user of both tenants who may open the ERT, case updater, onboarding and RDR
 * rules screens gets rows from the real list APIs, and every user who may
 * upload a representment, run the case builder or start a CE 3.0 remedy has
 * at least MIN_NEW New cases in scope on which the eligibility call answers OK.
 * Who may do what is read from the users' own profiles, not assumed here.
 */
const MIN_NEW = 20;
/** The demo users who sign in with the demo password (the others: SSO only, or a password to set first). */
const PASSWORD_USERS = [
  'admin',
  'manager',
  'agent',
  'partner.admin',
  'partner.user',
  'merchant.admin',
  'merchant.user',
  'readonly',
];
/** Demo users who cannot use the gateway right away: checked with the context the gateway would sign. */
const OTHER_USERS = ['federated', 'newpass', 'forcereset'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers read loosely, then asserted on
type Json = any;

interface Profile {
  token: string;
  features: string[];
  roles: string[];
  readOnly: boolean;
}

interface NewCase {
  id: number;
  date_due: string;
  properties: { is_upload_representment_enabled: boolean; can_remedy: boolean };
}

let s: FullStack;
beforeAll(async () => {
  s = await startFullStack();
});
afterAll(async () => s?.close());

const today = () => new Date().toISOString().slice(0, 10);

describe.each(DEMO_TENANTS.map((t) => [t.id, t] as const))('%s demo screens', (_name, tenant: DemoTenant) => {
  const host = `${tenant.id}.localhost`;
  const profiles = new Map<string, Profile>();
  const A1 = demoMerchantId(tenant, 'merchantA1');
  let hasRemedy = false;

  const get = async (username: string, path: string) => {
    const r = await s.call('GET', path, { token: profiles.get(username)!.token, host });
    return { status: r.status, json: r.json() as Json };
  };
  const seers = (feature: string) =>
    [...profiles].filter(([, p]) => p.features.includes(feature)).map(([u]) => u);

  beforeAll(async () => {
    for (const username of PASSWORD_USERS) {
      const token = await s.signIn(username, tenant.id);
      const who = await s.call('POST', '/users/whoami', { token, host });
      expect(who.status, username).toBe(200);
      const p = who.json() as Json;
      profiles.set(username, {
        token,
        features: (p.features as Array<{ alias: string }>).map((f) => f.alias),
        roles: p.roles as string[],
        readOnly: p.is_read_only as boolean,
      });
    }
    hasRemedy = ((await s.call('GET', '/tenant', { host })).json() as Json).flags?.HAS_REMEDY === true;
  });

  it('ERT: every user with the screen sees records in several statuses, the resolved ones signed', async () => {
    expect(seers('ert')).toEqual(PASSWORD_USERS);
    for (const username of seers('ert')) {
      const r = await get(username, '/ert/erts?limit=200');
      expect(r.status, username).toBe(200);
      expect(r.json.pagination.total, username).toBeGreaterThan(0);
    }
    const all = (await get('admin', '/ert/erts?limit=999')).json.data as Json[];
    expect(new Set(all.map((e) => e.status))).toEqual(new Set(['Open', 'Approved', 'Resolved', 'Archived']));
    for (const e of all.filter((x) => x.status === 'Resolved' || x.status === 'Archived')) {
      expect(e.resolved_by).toEqual(expect.any(String));
      expect(e.date_resolved >= e.date_created).toBe(true);
    }
    // A merchant user sees its merchant's records only.
    const own = (await get('merchant.user', '/ert/erts?limit=999')).json.data as Json[];
    expect(own.length).toBeGreaterThan(0);
    expect(new Set(own.map((e) => e.merchant_id))).toEqual(new Set([A1]));
    // Each ERT left its 'ERT added' row in the case history, as ert-writes.ts does.
    const { rows } = await s.t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.erts e where e.tenant_id = $1 and not exists
         (select 1 from cases.case_history h where h.case_id = e.case_id and h.action like 'ERT added: %')`,
      [tenant.id],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('case updater: the staff see finished uploads whose changes are on real cases of the tenant', async () => {
    const staff = seers('case-updater');
    expect(staff.sort()).toEqual(['admin', 'agent', 'manager']);
    for (const username of staff) {
      const r = await get(username, '/cm/cases/updater');
      expect(r.status, username).toBe(200);
      expect(r.json.pagination.total, username).toBeGreaterThanOrEqual(5);
      for (const u of r.json.data as Json[]) expect(u.status_name).toBe('Complete');
    }
    expect((await get('merchant.admin', '/cm/cases/updater')).status).toBe(403);
    // rows_applied history rows per upload, each on a case of the tenant now holding the verdict it set.
    const { rows } = await s.t.db.query<{ id: string; applied: number; logged: number; consistent: number }>(
      `select u.id, u.rows_applied as applied, count(h.id)::int as logged,
         count(*) filter (where c.tenant_id = u.tenant_id and h.action like '%verdict set to ' || v.name)::int as consistent
       from cases.updater_uploads u
       left join cases.case_history h on h.action like 'Case updater upload #' || u.id || ':%'
       left join cases.cases c on c.id = h.case_id left join cases.verdicts v on v.id = c.verdict_id
       where u.tenant_id = $1 group by u.id`,
      [tenant.id],
    );
    for (const r of rows) expect([r.logged, r.consistent], `upload ${r.id}`).toEqual([r.applied, r.applied]);
    expect(rows.some((r) => r.applied > 0)).toBe(true);
  });

  it("onboarding: this week's files for every user with the screen, and finalized files whose merchants exist", async () => {
    const users = seers('onboarding');
    expect(users.sort()).toEqual(['admin', 'manager', 'partner.admin']);
    for (const username of users) {
      const week = await get(username, '/cm/onboarding/files');
      expect(week.status, username).toBe(200);
      expect(week.json.data.length, username).toBeGreaterThan(0);
    }
    expect((await get('merchant.admin', '/cm/onboarding/files')).status).toBe(403);
    const since = new Date(Date.now() - 180 * 86_400_000).toISOString().slice(0, 10);
    const files = (
      await get(
        'partner.admin',
        `/cm/onboarding/files?date_range=${encodeURIComponent(`${since}|${today()}`)}`,
      )
    ).json.data as Json[];
    const finalized = files.filter((f) => f.status_id === 3);
    expect(finalized.length).toBeGreaterThan(0);
    expect(files.some((f) => f.status_id === 1)).toBe(true);
    for (const f of finalized) {
      expect(f.finalized_date).toEqual(expect.any(String));
      const records = (await get('partner.admin', `/cm/onboarding/${f.id}/records`)).json;
      expect(records.total_failing_validation).toBe(0);
      const name = records.data[0].cells.business_name.value as string;
      const { rows } = await s.t.db.query<{ parent_id: string }>(
        `select m.parent_id from cases.onboarding_records r join cases.merchants m on m.id = r.created_id
         where r.file_id = $1 and m.business_name = $2`,
        [f.id, name],
      );
      expect(
        rows.map((r) => Number(r.parent_id)),
        name,
      ).toEqual([f.merchant.id]);
    }
    // An open file carries the errors of the real checks.
    const open = files.find((f) => f.status_id === 1 && f.onboarding_type.name === 'Merchant')!;
    const records = (await get('partner.admin', `/cm/onboarding/${open.id}/records`)).json;
    expect(records.total_failing_validation).toBeGreaterThan(0);
  });

  it('RDR rules: the merchant and a MID of merchantA1 have rules every user in scope reads, and they save as they are', async () => {
    const { rows } = await s.t.db.query<{ mid_id: string }>(
      `select r.mid_id from cases.rdr_rules r join cases.mids m on m.id = r.mid_id
       where r.tenant_id = $1 and m.merchant_id = $2 order by r.mid_id limit 1`,
      [tenant.id, A1],
    );
    const mid = Number(rows[0]!.mid_id);
    for (const username of PASSWORD_USERS) {
      for (const path of [`/cm/merchants/${A1}/rules`, `/cm/mids/${mid}/rules`]) {
        const r = await get(username, path);
        expect(r.status, `${username} ${path}`).toBe(200);
        expect(r.json.data.length, `${username} ${path}`).toBeGreaterThan(0);
      }
    }
    const owners = await s.t.db.query<{ n: number }>(
      `select count(distinct coalesce(merchant_id, 0))::int + count(distinct mid_id)::int as n
       from cases.rdr_rules where tenant_id = $1`,
      [tenant.id],
    );
    expect(owners.rows[0]!.n).toBeGreaterThan(5);
    // The seeded conditions pass the editor's own checks (rdr-rules.ts saveRules).
    for (const path of [`/cm/merchants/${A1}/rules`, `/cm/mids/${mid}/rules`]) {
      const rules = (await get('merchant.admin', path)).json.data;
      const saved = await s.call('PUT', `${path}/rdr`, {
        token: profiles.get('merchant.admin')!.token,
        host,
        body: { rules },
      });
      expect(saved.status, saved.body).toBe(200);
      expect((saved.json() as Json).data).toEqual(rules);
    }
  });

  it('Bulk Close and Auto Refund Rules: merchantA1 has finished jobs for its users and the staff, each count true', async () => {
    for (const username of ['merchant.admin', 'merchant.user', 'manager', 'admin']) {
      for (const path of ['/cm/cases/process/autoaccept', '/cm/svc/alerts/auto-refund']) {
        const r = await get(username, `${path}?merchant_id=${A1}`);
        expect(r.status, `${username} ${path}`).toBe(200);
        const done = (r.json.data as Json[]).filter((j) => j.state === 'done');
        expect(done.length, `${username} ${path}`).toBeGreaterThanOrEqual(2);
        for (const j of done) expect(j.records_num, `job ${j.id}`).toBeGreaterThan(0);
      }
    }
    // Each job's count is the rows that carry its mark (bulk-run.ts's history texts and refund ids).
    const { rows } = await s.t.db.query<{ id: string; owner: string; records: number; marked: number }>(
      `select j.id, j.merchant_id || ' ' || j.kind as owner, j.records_num as records,
         case j.kind when 'auto_accept' then (select count(*)::int from cases.case_history h
                where h.tenant_id = j.tenant_id and h.action = 'Bulk auto-accept job #' || j.id || ': moved to Do Not Represent (Loss)')
              else (select count(*)::int from cases.alerts a where a.tenant_id = j.tenant_id
                and a.refund_id like 'AR-' || j.id || '-%' and a.completed and a.outcome_id = 1
                and exists (select 1 from cases.alert_history h where h.alert_id = a.id
                  and h.action = 'Completed by auto refund rule #' || j.id)) end as marked
       from cases.bulk_jobs j where j.tenant_id = $1`,
      [tenant.id],
    );
    // Each of the three demo merchants the seed gives a history has jobs (seed/bulk-jobs.ts).
    expect(new Set(rows.map((r) => r.owner.split(' ')[0])).size).toBe(3);
    for (const r of rows) expect(r.marked, `job ${r.id}`).toBe(r.records);
  });

  it('New cases: every user who may upload, build or remedy has plenty in scope, and the eligibility call says yes', async () => {
    for (const [username, p] of profiles) {
      const list = await get(username, `/cm/cases?status_id=${CASE_STATUS.New}&limit=1000`);
      expect(list.status, username).toBe(200);
      const workable = (list.json.data as NewCase[]).filter(
        (c) => c.properties.is_upload_representment_enabled && c.date_due >= today(),
      );
      expect(workable.length, username).toBeGreaterThanOrEqual(MIN_NEW);
      const [one] = workable;
      if (!p.readOnly) {
        const link = await get(username, `/docs/representment/upload-link?case_id=${one!.id}`);
        expect(link.status, `${username} upload link`).toBe(200);
      }
      if (p.roles.includes('case-builder')) {
        const builder = await get(username, `/builder/case/${one!.id}`);
        expect(builder.status, `${username} builder`).toBe(200);
      }
      if (hasRemedy && !p.readOnly) {
        const remedy = workable.filter((c) => c.properties.can_remedy);
        expect(remedy.length, `${username} remedy`).toBeGreaterThanOrEqual(MIN_NEW);
        const detail = await get(username, `/cm/cases/${remedy[0]!.id}`);
        expect(detail.json.properties.can_remedy, `${username} remedy`).toBe(true);
      }
    }
    // Someone holds each right in acme (the demo would not show it otherwise).
    if (tenant.id === 'acme') {
      expect(hasRemedy).toBe(true);
      expect([...profiles.values()].some((p) => p.roles.includes('case-builder'))).toBe(true);
    }
  });

  it('New cases: the SSO-only and password-to-set users have plenty in scope too', async () => {
    for (const username of OTHER_USERS) {
      const r = await s.stack.services.case.inject({
        method: 'GET',
        url: `/cm/cases?status_id=${CASE_STATUS.New}&limit=1000`,
        headers: contextHeaders(s.t.deps.contextSecret, demoCtx(tenant.id, username)),
      });
      expect(r.statusCode, username).toBe(200);
      const data = (r.json() as Json).data as NewCase[];
      const workable = data.filter(
        (c) => c.properties.is_upload_representment_enabled && c.date_due >= today(),
      );
      expect(workable.length, username).toBeGreaterThanOrEqual(MIN_NEW);
      if (hasRemedy)
        expect(workable.filter((c) => c.properties.can_remedy).length, username).toBeGreaterThanOrEqual(
          MIN_NEW,
        );
    }
  });
});
