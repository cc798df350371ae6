import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, demoMerchantId, demoTenant, demoUserId } from '@portal/contracts';
import { outboxDir } from '@portal/core';
import type { JobWorker } from '@portal/jobs';
import { sweepReminders } from '../../../services/user/src/reminders/reminder-sweep';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { mailsSent, startMailWorker } from '../mail/mail-worker';

/**
 * Issue 19, deadline reminders with a fixed clock: a digest at 08:00 in the
 * user's time zone naming the open cases of their scope due within 5 days and
 * within 24 hours, each case and threshold once. Real Postgres, outbox mailer;
 * the sweep queues the digests (mail.send jobs) and a mail worker sends them.
 */
let t: TestEnv;
let mailWorker: JobWorker;
const tenant = 'acme';
const userId = (username: string) =>
  demoUserId(
    demoTenant(tenant),
    DEMO_USERS.find((u) => u.username === username)!,
  );
const merchant = (key: 'merchantA1' | 'merchantB1') => demoMerchantId(demoTenant(tenant), key);
const emails = new Map<string, string>();
/** Cases of this test: X and Y at merchantA1, Z at merchantB1, W assigned to the agent. */
const cases: Record<'X' | 'Y' | 'Z' | 'W', number> = { X: 0, Y: 0, Z: 0, W: 0 };

interface Mail {
  to: string;
  subject: string;
  text: string;
}
const seen = new Set<string>();
/** Mails written to the outbox since the last call. */
function newMails(): Mail[] {
  const dir = outboxDir(t.env.DATA_DIR);
  if (!existsSync(dir)) return [];
  const fresh = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !seen.has(f))
    .sort();
  for (const f of fresh) seen.add(f);
  return fresh.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Mail);
}
const to = (mails: Mail[], username: string) => mails.filter((m) => m.to === emails.get(username));

/** One sweep at `iso`, then its queued digests sent. */
async function sweep(iso: string) {
  const result = await sweepReminders(t.db, tenant, new Date(iso));
  await mailsSent(t.db);
  return result;
}

async function dueCase(merchantId: number, due: string, assignee: number | null = null) {
  const { rows } = await t.db.query<{ id: string }>(
    `update cases.cases set date_due = $3, status_id = 1, status_group_id = 1, assigned_user_id = $4
      where id = (select id from cases.cases where tenant_id = $1 and merchant_id = $2
                    and date_due < '2030-01-01' order by id limit 1)
      returning id`,
    [tenant, merchantId, due, assignee],
  );
  return Number(rows[0]!.id);
}

beforeAll(async () => {
  t = await createTestEnv();
  mailWorker = await startMailWorker(t.db, t.env);
  // The seed's cases are due long before 2030: only these four fall in the test's weeks.
  cases.X = await dueCase(merchant('merchantA1'), '2030-01-15');
  cases.Y = await dueCase(merchant('merchantA1'), '2030-01-18');
  cases.Z = await dueCase(merchant('merchantB1'), '2030-01-16');
  cases.W = await dueCase(merchant('merchantB1'), '2030-01-17', userId('agent'));
  await t.db.query(`update users.users set time_zone = 'America/New_York' where id = $1`, [
    userId('merchant.admin'),
  ]);
  await t.db.query(`update users.users set time_zone = 'Asia/Tokyo' where id = $1`, [
    userId('partner.admin'),
  ]);
  // 'readonly' turned 'Chargebacks expiring soon' off.
  await t.db.query(
    `insert into users.user_notifications (user_id, notification_id, is_enabled)
     select $1, id, false from users.notification_types where alias = 'expiring_chargebacks'`,
    [userId('readonly')],
  );
  const { rows } = await t.db.query<{ username: string; email: string }>(
    `select username, email from users.users where tenant = $1`,
    [tenant],
  );
  for (const r of rows) emails.set(r.username, r.email);
  newMails();
});
afterAll(async () => {
  await mailWorker?.stop(1);
  await t?.close();
});

describe('deadline reminders', () => {
  it('waits for 08:00 local time', async () => {
    // 07:30 in Tokyo, 17:30 in New York, 22:30 UTC: nobody is in their morning.
    expect(await sweep('2030-01-14T22:30:00Z')).toEqual({ users: 0, cases: 0 });
    expect(newMails()).toEqual([]);
  });

  it('mails at 08:30 in Tokyo the cases of the partner subtree, by threshold', async () => {
    await sweep('2030-01-14T23:30:00Z');
    const mails = newMails();
    expect(mails.map((m) => m.to)).toEqual([emails.get('partner.admin')]);
    const [mail] = mails;
    expect(mail!.subject).toBe('Chargeback deadlines: 2 cases due soon');
    // X ends 2030-01-16 00:00 in Tokyo (15.5 h away), Y in 3.6 days; Z is another partner's merchant.
    expect(mail!.text).toMatch(new RegExp(`Due within 24 hours:\\n  Case ${cases.X} `));
    expect(mail!.text).toMatch(new RegExp(`Due within 5 days:\\n  Case ${cases.Y} `));
    expect(mail!.text).not.toContain(`Case ${cases.Z} `);
  });

  it('does not mail twice the same day', async () => {
    expect(await sweep('2030-01-15T00:30:00Z')).toEqual({ users: 0, cases: 0 });
    expect(newMails()).toEqual([]);
  });

  it('mails New York at its own 08:30, only its merchant cases', async () => {
    await sweep('2030-01-15T13:30:00Z');
    const mails = newMails();
    expect(mails.map((m) => m.to)).toEqual([emails.get('merchant.admin')]);
    expect(mails[0]!.text).toMatch(new RegExp(`Due within 24 hours:\\n  Case ${cases.X} `));
    expect(mails[0]!.text).toMatch(new RegExp(`Due within 5 days:\\n  Case ${cases.Y} `));
    expect(mails[0]!.text).not.toContain(`Case ${cases.Z} `);
    expect(mails[0]!.text).not.toContain(`Case ${cases.W} `);
  });

  it('gives staff their assigned cases, merchant users their merchant, and honours the setting', async () => {
    await sweep('2030-01-16T08:30:00Z');
    const mails = newMails();
    // UTC users at 08:30: the agent (W assigned), merchantB1's user (Z due today), merchant.user (Y).
    expect(to(mails, 'agent').map((m) => m.text.includes(`Case ${cases.W} `))).toEqual([true]);
    expect(to(mails, 'agent')[0]!.text).not.toContain(`Case ${cases.Z} `);
    expect(to(mails, 'forcereset')[0]!.text).toMatch(new RegExp(`Due within 24 hours:\\n  Case ${cases.Z} `));
    expect(to(mails, 'merchant.user')[0]!.text).toMatch(
      new RegExp(`Due within 5 days:\\n  Case ${cases.Y} `),
    );
    expect(to(mails, 'readonly')).toEqual([]);
    // Provider admins with nothing assigned get nothing.
    expect(to(mails, 'admin')).toEqual([]);
  });

  it('names a case again only when it crosses into 24 hours', async () => {
    // New York, 16 January 08:30: Y is still 'within 5 days', already mailed.
    await sweep('2030-01-16T13:30:00Z');
    expect(to(newMails(), 'merchant.admin')).toEqual([]);
    // 18 January 08:30: Y ends in 15.5 hours.
    await sweep('2030-01-18T13:30:00Z');
    const mails = to(newMails(), 'merchant.admin');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Chargeback deadlines: 1 case due soon');
    expect(mails[0]!.text).toMatch(new RegExp(`Due within 24 hours:\\n  Case ${cases.Y} `));
    expect(mails[0]!.text).not.toContain('Due within 5 days');
    const { rows } = await t.db.query(
      `select threshold from users.deadline_reminders where user_id = $1 and case_id = $2 order by sent_at`,
      [userId('merchant.admin'), cases.Y],
    );
    expect(rows).toEqual([{ threshold: '5d' }, { threshold: '24h' }]);
  });
});

describe('deadline reminders and MID permissions', () => {
  it('leaves out the cases of MIDs the user may not see', async () => {
    const { rows: mids } = await t.db.query<{ id: string; mid: string }>(
      `select id, mid from cases.mids where tenant_id = $1 and merchant_id = $2 order by id limit 2`,
      [tenant, merchant('merchantA1')],
    );
    const onFirst = await dueCase(merchant('merchantA1'), '2030-02-15');
    const onSecond = await dueCase(merchant('merchantA1'), '2030-02-16');
    await t.db.query(`update cases.cases set mid_id = $2 where id = $1`, [onFirst, mids[0]!.id]);
    await t.db.query(`update cases.cases set mid_id = $2 where id = $1`, [onSecond, mids[1]!.id]);
    // merchant.user may see the first MID only (by number); merchant.admin all but the first (by id).
    await t.db.query(
      `insert into users.user_mids (user_id, mid, is_excluded) values ($1, $2, false), ($3, $4, true)`,
      [userId('merchant.user'), mids[0]!.mid, userId('merchant.admin'), mids[0]!.id],
    );
    newMails();

    await sweep('2030-02-14T08:30:00Z');
    const user = to(newMails(), 'merchant.user');
    expect(user).toHaveLength(1);
    expect(user[0]!.text).toContain(`Case ${onFirst} `);
    expect(user[0]!.text).not.toContain(`Case ${onSecond} `);

    await sweep('2030-02-14T13:30:00Z');
    const admin = to(newMails(), 'merchant.admin');
    expect(admin).toHaveLength(1);
    expect(admin[0]!.text).toContain(`Case ${onSecond} `);
    expect(admin[0]!.text).not.toContain(`Case ${onFirst} `);
  });
});
