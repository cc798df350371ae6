import {
  CASE_STATUS,
  PROCESSOR_SUBMISSION_MESSAGES,
  REPRESENTMENT_COMPILE_JOB,
  REPRESENTMENT_MESSAGES as M,
  REPRESENTMENT_TRANSPORT_JOB,
} from '@portal/contracts';
import type { Env, Queryable } from '@portal/core';
import {
  defineJob,
  emitEvent,
  enqueue,
  JobError,
  readableError,
  type JobContext,
  type JobDefinition,
} from '@portal/jobs';
import { openObjectStore, type ObjectStore } from '@portal/storage';
import { resolveDocsLinkSecret } from '../files/signed-links';
import { SimulatedCardNetwork, type CardNetworkAdapter } from './card-network';
import { recordTransportFailure, transportAdapterFor } from './stripe-transport';
import { compiledKey, compileRepresentment } from './compile';
import { readAll, sha256 } from './file-check';
import { opsOfDocument } from '../preview/page-plan';
import { caseStatus, documentsOf, latestVersion, setCaseStatus, versionById } from './version-repository';

/**
 * The representment's background jobs (design §9), run by the worker:
 *
 *  compile    DocCompiling (6): builds the one PDF from the version's documents
 *             in order, stores it, records pages and sha256, then DocCompiled (7);
 *             with qc_review the case goes to the QC queue (3, DocUploaded), else
 *             to TransportReady (8) with the transport job enqueued in the same
 *             transaction.
 *  transport  TransportReady (8) -> TransportProcessing (9) -> submit through the
 *             CardNetworkAdapter -> TransportCompleted (10), the submission id
 *             recorded on the version. Enqueued by the compile job, by
 *             POST /docs/representment/transport, and by the case service on QC
 *             approval (it knows only REPRESENTMENT_TRANSPORT_JOB of contracts).
 *
 * Case statuses change only through the case service's SQL API
 * (cases_api.set_representment_status), in the job step's transaction.
 */

let network: CardNetworkAdapter = new SimulatedCardNetwork();
/** The adapter transport uses (tests and a future real network swap it here). */
export function setCardNetwork(adapter: CardNetworkAdapter): CardNetworkAdapter {
  const previous = network;
  network = adapter;
  return previous;
}

/** The object store for one job step (opened from the worker's env, closed after). */
export async function withStore<T>(
  env: Env | undefined,
  ctx: JobContext<unknown>,
  fn: (store: ObjectStore) => Promise<T>,
) {
  if (!env) throw new JobError('The worker has no configuration for the object store.', { permanent: true });
  const store = await openObjectStore(env, ctx.log, { linkSecret: resolveDocsLinkSecret(env) });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

async function readObject(store: ObjectStore, tenant: string, key: string): Promise<Buffer> {
  const stream = await store.read(tenant, key);
  if (!stream)
    throw new JobError(`A document of the representment is missing from the store (${key}).`, {
      permanent: true,
    });
  return readAll(stream);
}

export const compileJob = defineJob({
  ...REPRESENTMENT_COMPILE_JOB,
  handler: async (ctx) => {
    try {
      return await compile(ctx);
    } catch (error) {
      // The last attempt (or a permanent error): the version is marked failed and the case goes back
      // to Working, so that it can be uploaded again instead of compiling for ever.
      const last = (error instanceof JobError && error.permanent) || ctx.attempt >= ctx.maxAttempts;
      if (last) {
        const failed = await ctx.once('failed', async (tx) => {
          const { rows } = await tx.query<{ version: number; merchant_id: string; newest: boolean }>(
            `update docs.representment_versions v set state = 'failed' where id = $1 and state = 'compiling'
             returning version, merchant_id, not exists (select 1 from docs.representment_versions n
               where n.tenant_id = v.tenant_id and n.case_id = v.case_id and n.version > v.version) as newest`,
            [ctx.data.version_id],
          );
          const row = rows[0];
          // Only the newest upload moves the case (an older version failing late leaves a newer one alone).
          if (row?.newest)
            await setCaseStatus(tx, {
              tenant: ctx.tenant,
              caseId: ctx.data.case_id,
              from: [CASE_STATUS.DocCompiling],
              to: CASE_STATUS.Working,
              action: M.compileFailedHistory(row.version),
              userId: null,
              username: 'system',
            });
          if (row) {
            const data = {
              case_id: ctx.data.case_id,
              version: row.version,
              stage: 'compile',
              message: readableError(error),
            };
            await emitEvent(tx, ctx.tenant, {
              type: 'DOC_VALIDATION_ERROR',
              merchant_id: Number(row.merchant_id),
              data,
            });
          }
          return { failed: row !== undefined };
        });
        // Nothing half-written: a compiled file stored by an attempt whose recording failed goes too.
        if (failed.failed)
          await removeCompiled(ctx).catch((err: unknown) => ctx.log.warn({ err }, 'compiled file left'));
      }
      throw error;
    }
  },
});

async function compile(ctx: JobContext<{ case_id: number; version_id: number }>) {
  const { tenant } = ctx;
  const version = await versionById(ctx.db, tenant, ctx.data.version_id);
  if (!version || version.case_id !== ctx.data.case_id)
    throw new JobError('The representment version was not found.', { permanent: true });
  let compiled =
    version.state === 'compiled' && version.compiled_sha256
      ? {
          key: version.compiled_key!,
          pages: version.compiled_pages!,
          sha256: version.compiled_sha256,
          size: version.compiled_size!,
        }
      : null;
  if (!compiled) {
    await ctx.progress(10, 'Reading documents');
    const docs = await documentsOf(ctx.db, [version.id]);
    compiled = await withStore(ctx.env, ctx, async (store) => {
      const parts = [];
      for (const d of docs) {
        const bytes = await readObject(store, tenant, d.s3_key);
        // Exactly the bytes checked at upload (their hash is the provenance): an upload form re-posted
        // after acceptance, or a damaged object, must not reach the compiled document.
        if (sha256(bytes) !== d.sha256)
          throw new JobError(`${M.compileChanged(d.filename)} ${M.compileFailed}`, { permanent: true });
        // The page operations stored with the version (issue 34): the preview applied the same.
        const ops = opsOfDocument(version.page_ops, d.order_num);
        parts.push({ contentType: d.content_type, bytes, ops, filename: d.filename });
      }
      await ctx.progress(40, 'Compiling');
      let out: Awaited<ReturnType<typeof compileRepresentment>>;
      try {
        out = await compileRepresentment(parts);
      } catch (cause) {
        // The same bytes fail the same way on every attempt: no retry.
        throw new JobError(M.compileFailed, { permanent: true, cause });
      }
      const { bytes, pages } = out;
      const key = compiledKey(tenant, version.id, version.case_id);
      // Stored before it is recorded; a retry writes the same key again.
      await store.put(tenant, key, bytes, { contentType: 'application/pdf', contentLength: bytes.length });
      return { key, pages, sha256: sha256(bytes), size: bytes.length };
    });
  }
  await ctx.progress(80, 'Recording');
  const result = compiled;
  return ctx.once('record', async (tx) => {
    await tx.query(
      `update docs.representment_versions set state = 'compiled', compiled_key = $2, compiled_pages = $3,
           compiled_sha256 = $4, compiled_size = $5, compiled_at = now() where id = $1 and state <> 'compiled'`,
      [version.id, result.key, result.pages, result.sha256, result.size],
    );
    // The newest upload decides: an older version compiling late does not move the case.
    const newest = await latestVersion(tx, tenant, version.case_id);
    if (newest?.id !== version.id) return { pages: result.pages, sha256: result.sha256, superseded: true };
    const who = { tenant, caseId: version.case_id, userId: null, username: 'system' };
    await setCaseStatus(tx, {
      ...who,
      from: [CASE_STATUS.DocCompiling],
      to: CASE_STATUS.DocCompiled,
      action: `Representment v${version.version} compiled (${result.pages} pages)`,
    });
    if (version.qc_review) {
      await setCaseStatus(tx, {
        ...who,
        from: [CASE_STATUS.DocCompiled],
        to: CASE_STATUS.DocUploaded,
        action: 'Representment sent for Quality Review',
      });
    } else {
      const moved = await setCaseStatus(tx, {
        ...who,
        from: [CASE_STATUS.DocCompiled],
        to: CASE_STATUS.TransportReady,
        action: 'Representment ready for transport',
      });
      if (moved !== null) await enqueueTransport(tx, tenant, version.case_id, null);
    }
    return { pages: result.pages, sha256: result.sha256 };
  });
}

/** Compiles a stored version: the job is enqueued in the caller's transaction and noted on the version. */
export async function enqueueCompile(
  tx: Queryable,
  tenant: string,
  caseId: number,
  versionId: number,
  userId: number | null,
) {
  const job = await enqueue(
    tx,
    compileJob,
    { case_id: caseId, version_id: versionId },
    { tenant, createdBy: userId },
  );
  await tx.query(`update docs.representment_versions set compile_job_id = $2 where id = $1`, [
    versionId,
    job.id,
  ]);
  return job;
}

export function enqueueTransport(tx: Queryable, tenant: string, caseId: number, userId: number | null) {
  return enqueue(
    tx,
    transportJob,
    { case_id: caseId },
    { tenant, createdBy: userId, singletonKey: `transport-${caseId}` },
  );
}

export const transportJob = defineJob({
  ...REPRESENTMENT_TRANSPORT_JOB,
  handler: async (ctx) => {
    const { tenant } = ctx;
    const caseId = ctx.data.case_id;
    const version =
      (await latestVersion(ctx.db, tenant, caseId)) ?? (await legacyVersion(ctx.db, tenant, caseId));
    if (!version || version.state !== 'compiled' || !version.compiled_key || !version.compiled_sha256)
      throw new JobError('The case has no compiled representment to send.', { permanent: true });
    const who = { tenant, caseId, userId: null, username: 'system' };
    const started = await ctx.once('processing', (tx) =>
      setCaseStatus(tx, {
        ...who,
        from: [CASE_STATUS.TransportReady],
        to: CASE_STATUS.TransportProcessing,
        action: 'Representment transport started',
      }),
    );
    if (started === null) {
      if (version.submission_id) return { submission_id: version.submission_id, already: true };
      if ((await caseStatus(ctx.db, tenant, caseId)) !== CASE_STATUS.TransportProcessing)
        throw new JobError('The case is not ready for transport.', { permanent: true });
    }
    // A case a processor connection owns goes to the processor (issue 32, stripe-transport.ts).
    const compiledKey = version.compiled_key;
    const adapter = await transportAdapterFor(ctx, caseId, network, {
      readDocument: () => withStore(ctx.env, ctx, (store) => readObject(store, tenant, compiledKey)),
      comment: 'comment' in version ? version.comment : null,
      versionId: version.id,
    });
    await ctx.progress(
      50,
      adapter.name === 'stripe' ? 'Submitting to Stripe' : 'Submitting to the card network',
    );
    let submissionId: string;
    let draft: boolean | undefined;
    try {
      ({ submissionId, draft } = await adapter.submit({
        tenant,
        caseId,
        version: version.version,
        documentKey: version.compiled_key,
        sha256: version.compiled_sha256,
        pages: version.compiled_pages ?? 0,
        idempotencyKey: ctx.id,
      }));
    } catch (error) {
      await recordTransportFailure(ctx, caseId, error);
      throw error;
    }
    return ctx.once('completed', async (tx) => {
      if (version.id > 0)
        await tx.query(
          `update docs.representment_versions set submission_id = $2, submitted_at = now() where id = $1`,
          [version.id, submissionId],
        );
      // Saved as a draft at the processor (issue 32): the case waits in Working for the real submission.
      if (draft) {
        await setCaseStatus(tx, {
          ...who,
          from: [CASE_STATUS.TransportProcessing],
          to: CASE_STATUS.Working,
          action: PROCESSOR_SUBMISSION_MESSAGES.draftSavedHistory(submissionId.split('/')[1] ?? submissionId),
        });
        return { submission_id: submissionId, draft: true };
      }
      await setCaseStatus(tx, {
        ...who,
        from: [CASE_STATUS.TransportProcessing],
        to: CASE_STATUS.TransportCompleted,
        action: `Representment delivered to the card network (${adapter.name} ${submissionId})`,
      });
      return { submission_id: submissionId };
    });
  },
});

async function removeCompiled(ctx: JobContext<{ case_id: number; version_id: number }>) {
  const key = compiledKey(ctx.tenant, ctx.data.version_id, ctx.data.case_id);
  await withStore(ctx.env, ctx, async (store) => {
    if (await store.head(ctx.tenant, key)) await store.delete(ctx.tenant, key);
  });
}

/** Listed in the runner's JOBS. */
export const REPRESENTMENT_JOBS: readonly JobDefinition[] = [compileJob, transportJob];

/**
 * A case whose document predates uploads (the seeded demo documents in
 * docs.objects): sent as it is. id 0: there is no version row to record the
 * submission on; the case history keeps it.
 */
async function legacyVersion(db: Queryable, tenant: string, caseId: number) {
  const { rows } = await db.query<{ file_key: string; sha256: string }>(
    `select r.file_key, encode(sha256(o.content), 'hex') as sha256 from docs.representments r
       join docs.objects o on o.key = r.file_key and o.tenant_id = r.tenant_id
     where r.tenant_id = $1 and r.case_id = $2 and not r.is_archived order by r.date_created desc, r.id desc limit 1`,
    [tenant, caseId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: 0,
    version: 0,
    state: 'compiled' as const,
    compiled_key: r.file_key,
    compiled_sha256: r.sha256,
    compiled_pages: null as number | null,
    submission_id: null as string | null,
  };
}
