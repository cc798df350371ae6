import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '@portal/runner';
import { enqueueReminderRuns } from '../../../services/user/src/reminders/reminder-jobs';
import { callGateway, signInThroughGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/** The time zone profile field through the gateway, and the reminder job run by the in-process worker. */
let t: TestEnv;
let stack: Stack;
beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, {
    gatewayPort: 0,
    gatewayHost: '127.0.0.1',
    worker: { pollingIntervalSeconds: 0.5 },
  });
});
afterAll(async () => {
  await stack.close();
  await t.close();
});

const zone = async (username: string, method: 'GET' | 'PUT', body?: unknown) =>
  callGateway(stack.gatewayUrl, 'acme', method, '/api/users/profile/time-zone', {
    token: await signInThroughGateway(stack.gatewayUrl, 'acme', username),
    body,
  });

describe('time zone profile field', () => {
  it('is set and read by the user, checked against the known zones', async () => {
    expect((await zone('merchant.admin', 'GET')).json).toEqual({ time_zone: null });
    const put = await zone('merchant.admin', 'PUT', { time_zone: 'Europe/Paris' });
    expect(put.status).toBe(200);
    expect((await zone('merchant.admin', 'GET')).json).toEqual({ time_zone: 'Europe/Paris' });
    const bad = await zone('merchant.admin', 'PUT', { time_zone: 'Mars/Olympus_Mons' });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('time_zone: unknown time zone.');
    expect((await zone('readonly', 'PUT', { time_zone: 'Europe/Paris' })).status).toBe(403);
    expect((await zone('merchant.admin', 'PUT', { time_zone: null })).json).toEqual({ time_zone: null });
  });
});

describe('deadline reminder job', () => {
  it('runs per tenant through the job engine and records its outcome', async () => {
    await enqueueReminderRuns(stack.services.user);
    await expect
      .poll(
        async () =>
          (
            await t.db.query<{ tenant: string; state: string; message: string }>(
              `select tenant, state, message from jobs.job_status where kind = 'user.deadline-reminders' order by tenant`,
            )
          ).rows,
        { timeout: 20_000 },
      )
      .toEqual([
        { tenant: 'acme', state: 'done', message: expect.stringMatching(/^\d+ reminder e-mails sent/) },
        { tenant: 'northbank', state: 'done', message: expect.stringMatching(/^\d+ reminder e-mails sent/) },
      ]);
  });
});
