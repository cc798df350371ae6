import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CallInTransactionError,
  connectPostgres,
  createMailer,
  openPglite,
  outboxDir,
  type Db,
  type MailMessage,
  type Queryable,
} from '@portal/core';
import {
  enqueueMail,
  getJobStatus,
  MAIL_QUEUE,
  mailSendJob,
  migrateJobs,
  type JobWorker,
} from '@portal/jobs';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { startMailWorker } from './mail-worker';

/**
 * Issue 28.1, mail through an outbox: enqueueMail adds a mail.send job in the
 * caller's transaction, so the mail goes out exactly when the write commits,
 * sent by the worker outside any transaction and retried when it fails; a
 * Mailer.send made inside a transaction throws outside production. Real
 * Postgres, the outbox mailer (DATA_DIR/outbox) as the mail server.
 */
let t: TestEnv;
let worker: JobWorker | undefined;
const TENANT = 'acme';

/** Mails in the outbox with this subject. */
function mailsWith(subject: string): MailMessage[] {
  const dir = outboxDir(t.env.DATA_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as MailMessage)
    .filter((m) => m.subject === subject);
}

const message = (subject: string): MailMessage => ({
  to: 'merchant.admin@bluesky.example',
  subject,
  text: `Hello,\n\n${subject}\n`,
});
const recordFact = (tx: Queryable, note: string) =>
  tx.query(`insert into public.mail_test_facts (note) values ($1)`, [note]);
const factCount = async (note: string) =>
  (
    await t.db.query<{ n: number }>(`select count(*)::int as n from public.mail_test_facts where note = $1`, [
      note,
    ])
  ).rows[0]!.n;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  t = await createTestEnv();
  await t.db.query(`create table public.mail_test_facts (note text not null)`);
  worker = await startMailWorker(t.db, t.env);
});
afterAll(async () => {
  await worker?.stop(1);
  await t?.close();
});

describe('mail queued in a transaction (enqueueMail)', () => {
  it('is a queued job inside the transaction and is sent by the worker only after the commit', async () => {
    const subject = `committed ${randomUUID()}`;
    let jobId = '';
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    const transaction = t.db.transaction(async (tx) => {
      await recordFact(tx, subject);
      ({ id: jobId } = await enqueueMail(tx, TENANT, message(subject), 'test'));
      const inside = await tx.query(`select kind, state from jobs.job_status where id = $1`, [jobId]);
      expect(inside.rows).toEqual([{ kind: MAIL_QUEUE, state: 'queued' }]);
      await held;
    });
    // The worker polls every 0.5 s: for 1.5 s of open transaction it sees no job and sends nothing.
    await pause(1500);
    expect(jobId).not.toBe('');
    expect(await getJobStatus(t.db, TENANT, jobId)).toBeNull();
    expect(mailsWith(subject)).toEqual([]);

    commit();
    await transaction;
    await expect.poll(() => mailsWith(subject), { timeout: 20_000 }).toHaveLength(1);
    // The same message, from the configured sender.
    expect(mailsWith(subject)[0]).toMatchObject({ ...message(subject), from: t.env.MAIL_FROM });
    await expect
      .poll(async () => (await getJobStatus(t.db, TENANT, jobId))?.state, { timeout: 5000 })
      .toBe('done');
    const status = await getJobStatus(t.db, TENANT, jobId);
    // The status record (shown to staff) names neither the address nor the body.
    expect(status).toMatchObject({ created_by: null, result: { transport: 'outbox' } });
    expect(JSON.stringify(status)).not.toContain('bluesky.example');
    expect(await factCount(subject)).toBe(1);
  });

  it('adds no job and sends nothing when the transaction rolls back', async () => {
    const subject = `rolled back ${randomUUID()}`;
    let jobId = '';
    await expect(
      t.db.transaction(async (tx) => {
        await recordFact(tx, subject);
        ({ id: jobId } = await enqueueMail(tx, TENANT, message(subject), 'test'));
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await getJobStatus(t.db, TENANT, jobId)).toBeNull();
    const boss = await t.db.query(`select 1 from pgboss.job where id = $1`, [jobId]);
    expect(boss.rows).toEqual([]);
    expect(await factCount(subject)).toBe(0);

    // A mail committed after it goes out; the rolled-back one never does.
    const later = `committed after a rollback ${randomUUID()}`;
    await t.db.transaction((tx) => enqueueMail(tx, TENANT, message(later), 'test'));
    await expect.poll(() => mailsWith(later), { timeout: 20_000 }).toHaveLength(1);
    await pause(1000);
    expect(mailsWith(subject)).toEqual([]);
  });

  it('refuses a message the job cannot carry, inside the transaction', async () => {
    await expect(
      t.db.transaction((tx) => enqueueMail(tx, TENANT, { to: '', subject: 's', text: 't' }, 'test')),
    ).rejects.toThrow('Invalid data for job mail.send: /message/to');
  });
});

describe('Mailer.send inside a transaction (the guard, outside production)', () => {
  it('throws before sending, and the transaction rolls back', async () => {
    const subject = `sent in a transaction ${randomUUID()}`;
    const attempt = t.db.transaction(async (tx) => {
      await recordFact(tx, subject);
      return createMailer(t.env).send(message(subject));
    });
    await expect(attempt).rejects.toBeInstanceOf(CallInTransactionError);
    await expect(attempt).rejects.toThrow(
      /^mail to the SMTP server inside a database transaction: the Postgres transaction would stay open/,
    );
    expect(mailsWith(subject)).toEqual([]);
    expect(await factCount(subject)).toBe(0);
  });

  it('refuses an SMTP send before it connects', async () => {
    // Nothing listens on port 1: a send that got as far as connecting would fail differently.
    const smtp = createMailer({ ...t.env, SMTP_URL: 'smtp://127.0.0.1:1' });
    await expect(t.db.transaction(() => smtp.send(message('never')))).rejects.toBeInstanceOf(
      CallInTransactionError,
    );
  });

  it('sends outside a transaction, and inside one on a database opened for production', async () => {
    const outside = `outside ${randomUUID()}`;
    await createMailer(t.env).send(message(outside));
    expect(mailsWith(outside)).toHaveLength(1);

    const production = await connectPostgres(t.databaseUrl, 1, undefined, { guardCalls: false });
    try {
      const inside = `unguarded ${randomUUID()}`;
      await production.transaction(() => createMailer(t.env).send(message(inside)));
      expect(mailsWith(inside)).toHaveLength(1);
    } finally {
      await production.close();
    }
  });
});

describe('a failed send', () => {
  it('keeps the committed write and retries the mail with backoff', async () => {
    await worker?.stop(1);
    // A mail server nobody answers: every attempt fails.
    worker = await startMailWorker(t.db, { ...t.env, SMTP_URL: 'smtp://127.0.0.1:1' });
    const subject = `smtp down ${randomUUID()}`;
    const { id } = await t.db.transaction(async (tx) => {
      await recordFact(tx, subject);
      return enqueueMail(tx, TENANT, message(subject), 'test');
    });
    await expect
      .poll(async () => getJobStatus(t.db, TENANT, id), { timeout: 20_000 })
      .toMatchObject({ state: 'queued', attempts: 1, message: 'Waiting to retry' });
    expect(await factCount(subject)).toBe(1);
    const { rows } = await t.db.query<{ retry_limit: number; retry_backoff: boolean }>(
      `select retry_limit, retry_backoff from pgboss.job where id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({ retry_limit: 8, retry_backoff: true });
  });
});

describe('on the embedded PGlite (npm start without DATABASE_URL)', () => {
  let dir: string;
  let lite: Db;
  let liteWorker: JobWorker | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mail-pglite-'));
    lite = await openPglite(join(dir, 'db'));
    await migrateJobs(lite, [mailSendJob]);
    liteWorker = await startMailWorker(lite, t.env);
  }, 120_000);
  afterAll(async () => {
    await liteWorker?.stop(1);
    await lite?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('sends a committed mail, never a rolled-back one, and refuses Mailer.send in a transaction', async () => {
    const rolledBack = `pglite rolled back ${randomUUID()}`;
    await expect(
      lite.transaction(async (tx) => {
        await enqueueMail(tx, TENANT, message(rolledBack), 'test');
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    const committed = `pglite committed ${randomUUID()}`;
    await lite.transaction((tx) => enqueueMail(tx, TENANT, message(committed), 'test'));
    await expect.poll(() => mailsWith(committed), { timeout: 20_000 }).toHaveLength(1);
    expect(mailsWith(rolledBack)).toEqual([]);

    const inside = `pglite in a transaction ${randomUUID()}`;
    await expect(lite.transaction(() => createMailer(t.env).send(message(inside)))).rejects.toThrow(
      /^mail to the SMTP server inside a database transaction: the PGlite transaction/,
    );
    expect(mailsWith(inside)).toEqual([]);
  });
});
