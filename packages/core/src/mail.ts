import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Env } from './env';
import type { Logger } from './logger';
import { assertNotInTransaction } from './tx-guard';

/**
 * Outgoing mail (design §4): SMTP through nodemailer when SMTP_URL is set,
 * else one `.eml` (readable by any mail client) plus one `.json` (easy for
 * tests) per message in `${DATA_DIR}/outbox/`, and a log line naming the
 * file. The log line never carries the body: bodies hold one-time codes.
 *
 * Never send inside a database transaction (issue 28.1): outside production
 * `send` throws there, as a service call does (tx-guard.ts). Queue the mail
 * in the transaction instead (enqueueMail, @portal/jobs).
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SentMail {
  /** SMTP message id, or the outbox file path (without extension). */
  id: string;
  transport: 'smtp' | 'outbox';
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<SentMail>;
}

export function outboxDir(dataDir: string): string {
  return join(dataDir, 'outbox');
}

export function createMailer(env: Pick<Env, 'SMTP_URL' | 'MAIL_FROM' | 'DATA_DIR'>, log?: Logger): Mailer {
  return env.SMTP_URL
    ? new SmtpMailer(env.SMTP_URL, env.MAIL_FROM, log)
    : new OutboxMailer(outboxDir(env.DATA_DIR), env.MAIL_FROM, log);
}

type Transport = { sendMail(message: Record<string, unknown>): Promise<{ messageId: string }> };

class SmtpMailer implements Mailer {
  readonly transport = 'smtp' as const;
  private transporter: Promise<Transport> | undefined;
  constructor(
    private readonly url: string,
    private readonly from: string,
    private readonly log?: Logger,
  ) {}

  async send(message: MailMessage): Promise<SentMail> {
    assertNotInTransaction('the SMTP server', 'mail');
    // Loaded on first use: processes without SMTP never load nodemailer.
    this.transporter ??= import('nodemailer').then(
      (m) => m.default.createTransport(this.url) as unknown as Transport,
    );
    const info = await (await this.transporter).sendMail({ from: this.from, ...message });
    this.log?.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent');
    return { id: info.messageId, transport: 'smtp' };
  }
}

class OutboxMailer implements Mailer {
  readonly transport = 'outbox' as const;
  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly log?: Logger,
  ) {}

  async send(message: MailMessage): Promise<SentMail> {
    // Not a network call, but it stands in for SMTP: tests catch a send the SMTP mailer would refuse.
    assertNotInTransaction('the SMTP server', 'mail');
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const date = new Date();
    const base = join(
      this.dir,
      `${date.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`,
    );
    const eml = [
      `From: ${this.from}`,
      `To: ${message.to}`,
      `Subject: ${message.subject}`,
      `Date: ${date.toUTCString()}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      message.text,
      '',
    ].join('\r\n');
    await writeAtomically(`${base}.eml`, eml);
    await writeAtomically(
      `${base}.json`,
      JSON.stringify({ from: this.from, date: date.toISOString(), ...message }, null, 2),
    );
    this.log?.info(
      { to: message.to, subject: message.subject, file: `${base}.eml` },
      'mail written to outbox (SMTP_URL unset)',
    );
    return { id: base, transport: 'outbox' };
  }
}

/** A reader of the outbox (a person, a test) never sees half a mail: written aside, then renamed. */
async function writeAtomically(path: string, content: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, content, { mode: 0o600 });
  await rename(temporary, path);
}
