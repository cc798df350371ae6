import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Static, TSchema } from '@sinclair/typebox';
import { EXPORT_AREA, EXPORT_MESSAGES, type MailedExportStarted } from '@portal/contracts';
import type { Env, MailMessage, Queryable } from '@portal/core';
import { enqueue, enqueueMail, JobError, type JobContext, type JobDefinition } from '@portal/jobs';
import { isObjectKey, safeFilename, sharedObjectStore, type ObjectStore } from '@portal/storage';
import { tenantOrigin } from './tenant-origin';

/**
 * Mailed exports (design §9; spec 2 §2 'Export', spec 3 §7 Users, §8 'Export
 * started'): an all-rows export of more than EXPORT_MAIL_THRESHOLD_ROWS rows is
 * not streamed. The route captures the caller's scope (tenant, merchant
 * subtree, MID permissions, filters and sort) into a job's data and answers
 * 202 `{message, job_id}`; the job writes the same file with the same writer
 * to the object store (`{tenant}/exports/{job id}/{filename}`) and e-mails the
 * requester a `/download?loc={key}` link on the tenant's host, which the
 * download page (GET /docs/downloadable) turns into a signed link for users
 * of that tenant only.
 *
 * Idempotent on retry: the key is the job id's, so a retried attempt finds
 * the stored file (a put is stored completely or not at all) and does not
 * write it again; the mail is queued (a mail.send job, sent by the worker
 * outside any transaction) in a once() step, so it is queued once.
 */

/**
 * True when an export is written by a job and mailed: all rows (never the
 * page), more than EXPORT_MAIL_THRESHOLD_ROWS. `count` runs only for all-rows
 * exports.
 */
export async function exportIsMailed(
  env: Pick<Env, 'EXPORT_MAIL_THRESHOLD_ROWS'>,
  exportType: 'page' | 'all' | undefined,
  count: () => Promise<number>,
): Promise<boolean> {
  return exportType !== 'page' && (await count()) > env.EXPORT_MAIL_THRESHOLD_ROWS;
}

/** Counts at most threshold + 1 rows of an export's query: enough to decide, bounded for huge lists. */
export async function countUpTo(
  db: Queryable,
  env: Pick<Env, 'EXPORT_MAIL_THRESHOLD_ROWS'>,
  sql: string,
  params: unknown[],
): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from (select 1 from (${sql}) e limit $${params.length + 1}) c`,
    [...params, env.EXPORT_MAIL_THRESHOLD_ROWS + 1],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Enqueues the export job in the caller's transaction and answers the 202
 * body. `createdBy` is the user the link is mailed to.
 */
export async function startMailedExport<S extends TSchema>(
  tx: Queryable,
  job: JobDefinition<S>,
  data: Static<S>,
  who: { tenant: string; createdBy: number },
): Promise<MailedExportStarted> {
  const { id } = await enqueue(tx, job, data, { tenant: who.tenant, createdBy: who.createdBy });
  return { message: EXPORT_MESSAGES.started, job_id: id };
}

/** The file a job writes: the route's own streaming writer, run again with the captured scope. */
export interface ExportFile {
  filename: string;
  contentType: string;
  write(): Readable;
}

/** The object key of a job's export: the job id is the key's uuid, so a retry names the same object. */
export function exportKey(tenant: string, jobId: string, filename: string): string {
  const key = `${tenant}/${EXPORT_AREA}/${jobId}/${safeFilename(filename)}`;
  if (!isObjectKey(key)) throw new JobError('The export could not be named.', { permanent: true });
  return key;
}

/** Writes the file once (to a temporary file first: S3 wants the length of a streamed put). */
async function storeOnce(store: ObjectStore, tenant: string, key: string, file: ExportFile): Promise<number> {
  const stored = await store.head(tenant, key);
  if (stored) return stored.size;
  const temporary = join(tmpdir(), `portal-export-${randomBytes(8).toString('hex')}`);
  try {
    await pipeline(file.write(), createWriteStream(temporary, { mode: 0o600 }));
    const { size } = await stat(temporary);
    await store.put(tenant, key, createReadStream(temporary), {
      contentType: file.contentType,
      contentLength: size,
    });
    return size;
  } finally {
    await rm(temporary, { force: true });
  }
}

interface Recipient {
  email: string;
  fname: string;
  username: string;
}

function linkMail(user: Recipient, filename: string, link: string): MailMessage {
  return {
    to: user.email,
    subject: EXPORT_MESSAGES.mailSubject,
    text:
      `Hello ${user.fname || user.username},\n\n` +
      `Your export ${safeFilename(filename)} is ready. Download it here (sign in first if asked):\n\n` +
      `${link}\n\nThe link opens for users of your portal only.\n`,
  };
}

/**
 * The job's work: store the file, then mail the link to `recipientId` (the
 * user who asked; read when the mail is queued so that a changed address is
 * used, from what the user service declares for that: users_api.mail_recipients,
 * as the jobs of the case service run this too).
 */
export async function deliverExport(
  ctx: JobContext<unknown>,
  file: ExportFile,
  recipientId: number,
): Promise<{ key: string; bytes: number; mailed_to: string }> {
  if (!ctx.env) throw new JobError('The worker has no configuration for the object store.');
  const env = ctx.env;
  const origin = tenantOrigin(env, ctx.tenant);
  if (!origin) throw new JobError('The tenant has no domain to link the export from.', { permanent: true });
  const key = exportKey(ctx.tenant, ctx.id, file.filename);
  await ctx.progress(5, 'Writing the export');
  const bytes = await storeOnce(await sharedObjectStore(env, ctx.log), ctx.tenant, key, file);
  await ctx.progress(90, 'Sending the e-mail');
  const link = `${origin}/download?loc=${key}`;
  // The mail job commits with the step's marker: queued exactly once, sent after the commit (issue 28.1).
  const mailedTo = await ctx.once('mail', async (tx) => {
    const { rows } = await tx.query<Recipient>(
      `select email, fname, username from users_api.mail_recipients where tenant_id = $1 and id = $2`,
      [ctx.tenant, recipientId],
    );
    const user = rows[0];
    if (!user?.email) return '';
    await enqueueMail(tx, ctx.tenant, linkMail(user, file.filename, link), `mailed-export ${ctx.id}`);
    return user.email;
  });
  if (!mailedTo)
    throw new JobError('The export is ready but the requesting user has no e-mail address.', {
      permanent: true,
    });
  await ctx.progress(100, 'The export was e-mailed.');
  return { key, bytes, mailed_to: mailedTo };
}
