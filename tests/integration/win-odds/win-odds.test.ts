import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { WIN_ODDS_JOBS } from '../../../services/case/src/win-odds/win-odds-jobs';
import { refreshScores, trainTenant } from '../../../services/case/src/win-odds/win-odds-service';
import { latestModel } from '../../../services/case/src/win-odds/win-odds-repository';
import { createTestEnv, type TestEnv } from '../../support/test-env';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON answers loosely and assert on them
type Json = any;

/**
 * Win odds (issue 33 parts 2 and 3) on real Postgres through the gateway,
 * with the win odds jobs in a worker: the seeded models, per-tenant training,
 * the time-based holdout, the baseline fallback, the scores of open cases
 * and their scope, and 'Retrain now' through the route.
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();

async function call(method: string, path: string, user: string, host = 'acme.localhost') {
  const key = `${host}/${user}`;
  if (!tokens.has(key)) {
    const r = await stack.gateway.inject({
      method: 'POST',
      url: '/api/users/auth/signin',
      headers: { host, 'content-type': 'application/json' },
      payload: JSON.stringify({ username: user, password: DEMO_PASSWORD }),
    });
    tokens.set(key, (r.json() as { access_token: string }).access_token);
  }
  const r = await stack.gateway.inject({
    method: method as 'GET',
    url: `/api${path}`,
    headers: { host, authorization: `Bearer ${tokens.get(key)}` },
  });
  return { status: r.statusCode, body: (r.body ? r.json() : undefined) as Json };
}

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, {
    gatewayPort: 0,
    gatewayHost: '127.0.0.1',
    worker: { jobs: [...WIN_ODDS_JOBS], pollingIntervalSeconds: 0.5 },
  });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await t?.close();
});

/** Prints a tenant's evaluation table (for the closing note). */
function printEvaluation(tenant: string, body: Json) {
  const e = body.model.evaluation;
  const lines = [
    `${tenant}: shows ${body.model.source}; holdout from ${e.cutoff}: ${e.n_train} train / ${e.n_test} test cases`,
    `  Brier model ${e.brier_model} vs baseline ${e.brier_baseline}`,
    '  decile | n | model predicted | actual || baseline predicted | actual',
    ...e.deciles_model.map(
      (d: Json, i: number) =>
        `  ${d.decile} | ${d.n} | ${d.predicted} | ${d.actual} || ${e.deciles_baseline[i]?.predicted} | ${e.deciles_baseline[i]?.actual}`,
    ),
  ];
  console.log(lines.join('\n'));
}

describe('win odds', () => {
  it('the seed trained a model per demo tenant that beats the reason-code baseline on the newest cases', async () => {
    for (const host of ['acme.localhost', 'northbank.localhost']) {
      const r = await call('GET', '/cm/win-odds', 'admin', host);
      expect(r.status).toBe(200);
      printEvaluation(host, r.body);
      const e = r.body.model.evaluation;
      expect(e.n_test).toBeGreaterThan(50);
      expect(e.brier_model).toBeLessThan(e.brier_baseline);
      expect(r.body.model.source).toBe('model');
      expect(e.deciles_model).toHaveLength(10);
      expect(r.body.open_scored).toBeGreaterThan(0);
    }
  });

  it('splits the holdout by time: every test case closed on or after the cutoff, every training case before', async () => {
    const m = (await latestModel(t.db, 'acme'))!;
    const { rows } = await t.db.query<{ before: number; after: number }>(
      `select count(*) filter (where date_completed < $2)::int as before,
              count(*) filter (where date_completed >= $2)::int as after
       from cases.cases where tenant_id = $1 and status_id = 10 and verdict_id in (4, 5) and date_completed is not null`,
      ['acme', m.evaluation.cutoff],
    );
    expect(m.evaluation.n_train).toBe(rows[0]!.before);
    expect(m.evaluation.n_test).toBe(rows[0]!.after);
    expect(rows[0]!.after).toBeLessThan(rows[0]!.before);
  });

  it('shows the open cases their score in the list, in scope: a merchant user sees only its cases', async () => {
    const admin = await call('GET', '/cm/cases?limit=50&status_group_id=1,2', 'admin');
    expect(admin.status).toBe(200);
    const scored = admin.body.data.filter((c: Json) => c.win_odds);
    expect(scored.length).toBe(admin.body.data.length);
    for (const c of scored) {
      expect(c.win_odds.probability).toBeGreaterThan(0);
      expect(c.win_odds.probability).toBeLessThan(1);
      expect(['Fight', 'Accept']).toContain(c.win_odds.recommendation);
      expect(c.win_odds.recommendation === 'Fight').toBe(c.win_odds.expected_value > 0);
      expect(c.win_odds.factors.length).toBeGreaterThan(0);
      expect(c.win_odds.factors.length).toBeLessThanOrEqual(3);
    }
    const merchant = await call('GET', '/cm/cases?limit=50&status_group_id=1,2', 'merchant.user');
    expect(merchant.status).toBe(200);
    expect(merchant.body.data.length).toBeGreaterThan(0);
    const { rows } = await t.db.query<{ id: string }>(
      `select c.id from cases.cases c join cases.win_odds_scores w on w.case_id = c.id
        where c.tenant_id = 'acme' and c.status_group_id in (1, 2)`,
    );
    const allScored = new Set(rows.map((r) => Number(r.id)));
    const merchantIds = new Set(merchant.body.data.map((c: Json) => c.merchant_id));
    const adminOther = admin.body.data.filter((c: Json) => !merchantIds.has(c.merchant_id));
    expect(adminOther.length).toBeGreaterThan(0);
    for (const c of merchant.body.data) {
      expect(allScored.has(c.id)).toBe(true);
      expect(c.win_odds).not.toBeNull();
    }
    // The evaluation and training are the provider's: a merchant user is refused.
    expect((await call('GET', '/cm/win-odds', 'merchant.user')).status).toBe(403);
    expect((await call('POST', '/cm/win-odds/train', 'merchant.admin')).status).toBe(403);
    // A closed case shows no score.
    const closed = await call('GET', '/cm/cases?limit=5&status_group_id=3', 'admin');
    for (const c of closed.body.data) expect(c.win_odds ?? null).toBeNull();
  });

  it('bulk close can keep to the cases not worth fighting (expected value below zero)', async () => {
    // The reason code with the most New cases of negative expected value, in USD, first cycle.
    const { rows } = await t.db.query<{ reason_code_id: number; negative: number; all: number }>(
      `select c.reason_code_id, (count(*) filter (where w.expected_value < 0))::int as negative, count(*)::int as all
         from cases.cases c left join cases.win_odds_scores w on w.case_id = c.id
        where c.tenant_id = 'acme' and c.status_id = 1 and c.dispute_currency_id = 1 and c.cycle_id = 1
        group by 1 order by 2 desc, 1 limit 1`,
    );
    const pick = rows[0]!;
    expect(pick.negative).toBeGreaterThan(0);
    expect(pick.negative).toBeLessThan(pick.all);
    const submit = async (notWorth: boolean) => {
      const r = await stack.gateway.inject({
        method: 'POST',
        url: '/api/cm/cases/process/autoaccept',
        headers: {
          host: 'acme.localhost',
          authorization: `Bearer ${tokens.get('acme.localhost/admin')}`,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({
          amt_from: 0,
          amt_to: 99999,
          currency_id: 1,
          cycle_id: 1,
          reason_code_id: pick.reason_code_id,
          ...(notWorth ? { not_worth_fighting: true } : {}),
        }),
      });
      expect(r.statusCode, r.body).toBe(200);
      const job = r.json() as { id: number; preview_num: number; not_worth_fighting: boolean };
      // Cancel: the test only looks at the preview.
      await stack.gateway.inject({
        method: 'POST',
        url: '/api/cm/cases/process/autoaccept',
        headers: {
          host: 'acme.localhost',
          authorization: `Bearer ${tokens.get('acme.localhost/admin')}`,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({ id: job.id, is_confirmed: 0 }),
      });
      return job;
    };
    await call('GET', '/cm/win-odds', 'admin');
    const notWorth = await submit(true);
    expect(notWorth.not_worth_fighting).toBe(true);
    expect(notWorth.preview_num).toBe(pick.negative);
    expect((await submit(false)).preview_num).toBe(pick.all);
  });

  it('rescores a case that changed since it was scored, and only the changed ones', async () => {
    const { rows } = await t.db.query<{ case_id: string; expected_value: string }>(
      `select w.case_id, w.expected_value from cases.win_odds_scores w where w.tenant_id = 'acme'
        order by w.case_id limit 1`,
    );
    const { case_id, expected_value } = rows[0]!;
    await t.db.query(
      `update cases.cases set dispute_amt = dispute_amt + 5000, updated_at = now() + interval '1 second' where id = $1`,
      [case_id],
    );
    expect(await refreshScores(t.db, 'acme')).toBe(1);
    const after = await t.db.query<{ expected_value: string }>(
      `select expected_value from cases.win_odds_scores where case_id = $1`,
      [case_id],
    );
    expect(Number(after.rows[0]!.expected_value)).toBeGreaterThan(Number(expected_value));
  });

  it("trains each tenant on its own cases only: another tenant's outcomes change nothing", async () => {
    const before = (await latestModel(t.db, 'acme'))!;
    // Every closed northbank case lost: northbank's rates move, acme's model must not.
    await t.db.query(
      `update cases.cases set verdict_id = 5 where tenant_id = 'northbank' and verdict_id = 4`,
    );
    await trainTenant(t.db, 'acme');
    await trainTenant(t.db, 'northbank');
    const acme = (await latestModel(t.db, 'acme'))!;
    const northbank = (await latestModel(t.db, 'northbank'))!;
    expect(acme.id).not.toBe(before.id);
    expect(acme.n_cases).toBe(before.n_cases);
    expect(acme.model!.weights).toEqual(before.model!.weights);
    expect(acme.evaluation.brier_model).toBe(before.evaluation.brier_model);
    expect(northbank.baseline.overall).toBe(0);
    const { rows } = await t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.win_odds_scores w join cases.cases c on c.id = w.case_id
        where w.tenant_id <> c.tenant_id`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('shows the baseline, and says so, when the model does worse than the reason-code rate on the newest cases', async () => {
    // The evidence that won before the cutoff loses after it: a model that learned it is worse than the
    // reason codes' rates, which ignore evidence.
    const m = (await latestModel(t.db, 'acme'))!;
    await t.db.query(
      `update cases.cases c set verdict_id = case when (e.kinds_mask & 4) <> 0 then 5 else 4 end
         from cases.case_evidence e
        where e.case_id = c.id and c.tenant_id = 'acme' and c.status_id = 10 and c.verdict_id in (4, 5) and c.date_completed >= $1`,
      [m.evaluation.cutoff],
    );
    await t.db.query(
      `update cases.cases c set verdict_id = case when (e.kinds_mask & 4) <> 0 then 4 else 5 end
         from cases.case_evidence e
        where e.case_id = c.id and c.tenant_id = 'acme' and c.status_id = 10 and c.verdict_id in (4, 5) and c.date_completed < $1`,
      [m.evaluation.cutoff],
    );
    const outcome = await trainTenant(t.db, 'acme');
    expect(outcome.source).toBe('baseline');
    expect(outcome.brier_model!).toBeGreaterThan(outcome.brier_baseline!);
    const r = await call('GET', '/cm/win-odds', 'admin');
    expect(r.body.model.source).toBe('baseline');
    expect(r.body.model.evaluation.note).toContain('did not beat');
    const list = await call('GET', '/cm/cases?limit=20&status_group_id=1,2', 'admin');
    for (const c of list.body.data) {
      expect(c.win_odds.source).toBe('baseline');
      expect(c.win_odds.factors[0].label).toMatch(/^Reason code /);
    }
  });

  it("'Retrain now' queues the job through the route; the worker trains and scores", async () => {
    const before = (await latestModel(t.db, 'acme'))!;
    const r = await call('POST', '/cm/win-odds/train', 'admin');
    expect(r.status).toBe(202);
    expect(r.body.job_id).toMatch(/^[0-9a-f-]{36}$/);
    let status: Json;
    for (let i = 0; i < 120; i++) {
      status = (await call('GET', '/cm/win-odds', 'admin')).body;
      if (status.job?.id === r.body.job_id && ['done', 'failed'].includes(status.job.state)) break;
      await new Promise((done) => setTimeout(done, 500));
    }
    expect(status.job.state).toBe('done');
    expect(status.job.message).toMatch(/open case\(s\) scored/);
    expect(status.model.id).toBeGreaterThan(before.id);
  }, 90_000);
});
