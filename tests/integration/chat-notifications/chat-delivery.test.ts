import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, demoMerchantId, demoTenant, demoUserId, WEBHOOK_MESSAGES as M } from '@portal/contracts';
import { sweepReminders } from '../../../services/user/src/reminders/reminder-sweep';
import { ACME, demoCtx } from '../case/case-app';
import { TestReceiver, type Received } from '../webhooks/receiver';
import { eventually, startWebhookWorld, type WebhookWorld } from '../webhooks/support';

/**
 * Issue 35.4: Slack and Microsoft Teams destinations get new disputes, the daily deadline digest and
 * test messages in their own formats, through the webhook delivery jobs. A local stand-in receives
 * them: CHAT_WEBHOOK_HOSTS (an environment setting, never the request) replaces the tools' hosts with
 * 127.0.0.1, whose network WEBHOOK_ALLOWED_NETWORKS allow-lists as for the webhook tests.
 */
let w: WebhookWorld;
const stand = new TestReceiver();
const mAdmin = demoCtx('acme', 'merchant.admin');
const admin = demoCtx('acme', 'admin');
const A1 = demoMerchantId(ACME, 'merchantA1');
const MERCHANT_ADMIN = demoUserId(
  demoTenant('acme'),
  DEMO_USERS.find((u) => u.username === 'merchant.admin')!,
);
let base = '';
const ids = { slack: 0, teams: 0 };

const at = (path: string) => stand.received.filter((r) => r.path === path);
const json = (r: Received) => JSON.parse(r.body) as Record<string, unknown>;
/** Everything a message says, its links included, as one string. */
const text = (r: Received) => r.body;

async function add(kind: 'slack' | 'teams', url: string, events = ['CASE_CREATED', 'DEADLINE_DIGEST']) {
  return w.userCall('POST', '/users/webhooks', mAdmin, { kind, url, events });
}

beforeAll(async () => {
  w = await startWebhookWorld({ CHAT_WEBHOOK_HOSTS: '127.0.0.1' });
  base = await stand.start('127.0.0.1');
  const slack = await add('slack', `${base}/services/T000/B000/slack`);
  expect(slack.status, slack.raw).toBe(201);
  expect(slack.body).toMatchObject({ kind: 'slack', secret: '', secret_hint: '' });
  ids.slack = slack.body.id;
  const teams = await add('teams', `${base}/workflows/teams`);
  expect(teams.status, teams.raw).toBe(201);
  ids.teams = teams.body.id;
  await w.startWorker();
});
afterAll(async () => {
  await w?.close();
  await stand.close();
});

describe('adding a chat destination', () => {
  it('refuses hosts other than the allowed ones, whatever the request says', async () => {
    for (const url of ['https://example.com/services/x', 'https://hooks.slack.com.evil.example/x']) {
      const r = await add('slack', url);
      expect(r.status, url).toBe(400);
      expect(r.body.message).toBe(M.slackHost);
    }
    const teams = await add('teams', 'https://evil.example/webhookb2/x');
    expect(teams.body.message).toBe(M.teamsHost);
    // The request cannot widen the list: no such field.
    const widened = await w.userCall('POST', '/users/webhooks', mAdmin, {
      kind: 'slack',
      url: 'https://example.com/x',
      events: ['CASE_CREATED'],
      allowed_hosts: ['example.com'],
    });
    expect(widened.status).toBe(400);
  });

  it('takes only new disputes and the digest; the digest only for chat', async () => {
    const chat = await add('slack', `${base}/x`, ['CASE_STATUS_CHANGED']);
    expect(chat.status).toBe(400);
    expect(chat.body.message).toBe(M.chatEvents);
    const signed = await w.userCall('POST', '/users/webhooks', mAdmin, {
      url: `${base}/signed`,
      events: ['DEADLINE_DIGEST'],
    });
    expect(signed.status).toBe(400);
    expect(signed.body.message).toBe(M.digestSignedOnly);
    const patch = await w.userCall('PATCH', `/users/webhooks/${ids.slack}`, mAdmin, {
      url: 'https://example.com/elsewhere',
    });
    expect(patch.status).toBe(400);
    expect(patch.body.message).toBe(M.slackHost);
  });
});

describe('delivery to the stand-in', () => {
  it('sends a test message in Slack blocks, unsigned, and records the delivery', async () => {
    const r = await w.userCall('POST', `/users/webhooks/${ids.slack}/test`, mAdmin);
    expect(r.status, r.raw).toBe(202);
    expect(r.body.message).toBe(M.chatTestQueued);
    const [got] = await eventually(
      async () => at('/services/T000/B000/slack').length > 0 && at('/services/T000/B000/slack'),
    );
    const body = json(got!);
    expect(body.text).toBe('Test message from the chargeback portal');
    expect(body.blocks).toEqual(
      expect.arrayContaining([
        { type: 'section', text: { type: 'mrkdwn', text: '*Test message from the chargeback portal*' } },
        expect.objectContaining({ type: 'actions' }),
      ]),
    );
    expect(got!.headers['portal-signature']).toBeUndefined();
    expect(got!.headers['content-type']).toBe('application/json');
    const deliveries = await eventually(async () => {
      const list = await w.userCall('GET', `/users/webhooks/${ids.slack}/deliveries`, mAdmin);
      return list.body.data.find((d: { state: string }) => d.state === 'succeeded') && list.body.data;
    });
    expect(deliveries[0]).toMatchObject({
      event_type: 'WEBHOOK_TEST',
      state: 'succeeded',
      response_code: 200,
    });
  });

  it('delivers a new dispute to Slack and Teams, each in its format, linking to the case', async () => {
    const mid = (
      await w.t.db.query<{ id: string }>(
        `select id from cases.mids where tenant_id = 'acme' and merchant_id = $1 order by id limit 1`,
        [A1],
      )
    ).rows[0]!;
    const rc = (await w.t.db.query<{ id: number }>(`select id from cases.reason_codes order by id limit 1`))
      .rows[0]!;
    const r = await w.caseCall('POST', '/cm/cases/import', admin, {
      source_id: 4,
      source_case_id: 'CHAT-1',
      mid_id: Number(mid.id),
      case_no: 'CHAT-CASE-1',
      cycle_id: 1,
      reason_code_id: rc.id,
      date_post: '2026-11-20',
      date_due: '2026-12-20',
      dispute_amt: 120.5,
      dispute_currency_id: 1,
    });
    expect(r.status, r.raw).toBe(201);
    const caseId = r.body.id as number;
    const link = new RegExp(`https?://acme[^/"]*/chargebacks\\?search=${caseId}`);
    const isCase = (x: Received) => x.body.includes(`case ${caseId}`);

    const slack = await eventually(async () => at('/services/T000/B000/slack').find(isCase));
    const s = json(slack);
    expect(s.text).toBe(`New dispute: case ${caseId} (CHAT-CASE-1)`);
    expect(text(slack)).toMatch(link);
    expect(text(slack)).toContain('respond by 2026-12-20');

    const teams = await eventually(async () => at('/workflows/teams').find(isCase));
    const t = json(teams) as {
      type: string;
      attachments: { contentType: string; content: Record<string, unknown> }[];
    };
    expect(t.type).toBe('message');
    expect(t.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(t.attachments[0]!.content).toMatchObject({
      type: 'AdaptiveCard',
      body: expect.arrayContaining([
        expect.objectContaining({ text: `New dispute: case ${caseId} (CHAT-CASE-1)` }),
      ]),
      actions: [expect.objectContaining({ type: 'Action.OpenUrl', url: expect.stringMatching(link) })],
    });
    // Short: a handful of lines, not the whole case.
    expect(slack.body.length).toBeLessThan(1000);
  });

  it("sends the owner's daily deadline digest", async () => {
    const { rows } = await w.t.db.query<{ id: string }>(
      `update cases.cases set date_due = '2031-03-12', status_id = 1, status_group_id = 1
        where id = (select id from cases.cases where tenant_id = 'acme' and merchant_id = $1 order by id limit 1)
        returning id`,
      [A1],
    );
    const due = Number(rows[0]!.id);
    await w.t.db.query(`update users.users set time_zone = 'UTC' where id = $1`, [MERCHANT_ADMIN]);
    const result = await sweepReminders(w.t.db, 'acme', new Date('2031-03-10T08:30:00Z'));
    expect(result.users).toBeGreaterThan(0);
    const digest = await eventually(async () =>
      at('/services/T000/B000/slack').find((x) => x.body.includes('Chargeback deadlines')),
    );
    expect(json(digest).text).toMatch(/^Chargeback deadlines: \d+ cases? due soon/);
    expect(text(digest)).toMatch(new RegExp(`/chargebacks\\?search=${due}\\|Case ${due} `));
    await eventually(async () => at('/workflows/teams').find((x) => x.body.includes('Chargeback deadlines')));
  });

  it('checks the host again at delivery and gives up on one no longer allowed', async () => {
    const r = await add('slack', `${base}/moved`, ['CASE_CREATED']);
    expect(r.status, r.raw).toBe(201);
    // As if the allow-list had changed since the destination was added.
    await w.t.db.query(`update users.webhook_endpoints set url = 'https://example.com/moved' where id = $1`, [
      r.body.id,
    ]);
    expect((await w.userCall('POST', `/users/webhooks/${r.body.id}/test`, mAdmin)).status).toBe(202);
    const failed = await eventually(async () => {
      const list = await w.userCall('GET', `/users/webhooks/${r.body.id}/deliveries`, mAdmin);
      return list.body.data.find((d: { state: string }) => d.state === 'failed');
    });
    expect(failed).toMatchObject({ last_error: M.slackHost, response_code: null });
  });

  it('retries like a webhook when the tool answers an error', async () => {
    stand.answers = [500];
    const before = at('/workflows/teams').length;
    expect((await w.userCall('POST', `/users/webhooks/${ids.teams}/test`, mAdmin)).status).toBe(202);
    await eventually(async () => at('/workflows/teams').length > before);
    const retrying = await eventually(async () => {
      const list = await w.userCall('GET', `/users/webhooks/${ids.teams}/deliveries`, mAdmin);
      return list.body.data.find((d: { state: string }) => d.state === 'retrying');
    });
    expect(retrying).toMatchObject({ response_code: 500, attempts: 1 });
  });
});
