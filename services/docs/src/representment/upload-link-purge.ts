import { selfScheduledJob, type JobContext, type SlotData } from '@portal/jobs';
import type { ObjectStore } from '@portal/storage';
import { PREVIEW_RETENTION_SECONDS } from '../preview/preview-store';
import { withStore } from './jobs';
import { UPLOAD_LINK_GRACE_SECONDS } from './version-repository';

/**
 * Housekeeping of docs.representment_upload_links (migration 003), every hour:
 *
 *  - a link whose key a version names (used) has done its work: the row goes
 *    (a second upload naming that key is refused all the same: no row, and the
 *    documents' unique key);
 *  - a link that expired more than GRACE ago and was never used is an
 *    abandoned upload: the file posted to it, if any, is deleted from the
 *    store first, then the row. The grace keeps a form posted just before its
 *    expiry usable by the upload call that follows it;
 *  - a preview PDF (docs.packet_previews, issue 34) not previewed again for a
 *    day goes: the object first, then the row if still that old.
 *
 * Self-scheduled (selfScheduledJob).
 */
export const UPLOAD_LINK_PURGE_INTERVAL_SECONDS = 3600;
export { UPLOAD_LINK_GRACE_SECONDS };
/** The job covers every tenant; its status record is the system's. */
export const HOUSEKEEPING_TENANT = 'system';
const BATCH = 500;
/** Most rows one run removes; the rest wait for the next hour. */
const MAX_BATCHES = 40;

export interface PurgeResult {
  used: number;
  expired: number;
  objects: number;
  previews: number;
}

export const uploadLinkPurge = selfScheduledJob({
  name: 'docs.upload-link-purge',
  intervalSeconds: UPLOAD_LINK_PURGE_INTERVAL_SECONDS,
  tenant: HOUSEKEEPING_TENANT,
  retryLimit: 3,
  retryDelaySeconds: 30,
  expireInSeconds: 900,
  run: purge,
});

export const uploadLinkPurgeJob = uploadLinkPurge.job;

async function purge(ctx: JobContext<SlotData>): Promise<PurgeResult> {
  const result: PurgeResult = { used: 0, expired: 0, objects: 0, previews: 0 };
  await ctx.progress(10, 'Removing used upload links');
  const used = await ctx.db.query(
    `delete from docs.representment_upload_links l where exists (select 1 from docs.representment_documents d
       where d.tenant_id = l.tenant_id and d.s3_key = l.s3_key and d.kind = 'file')`,
  );
  result.used = used.rowCount ?? 0;

  await ctx.progress(40, 'Removing expired upload links and their abandoned files');
  await withStore(ctx.env, ctx, async (store) => {
    for (let batch = 0; batch < MAX_BATCHES && !ctx.signal.aborted; batch++) {
      const { rows } = await ctx.db.query<{ tenant_id: string; s3_key: string }>(
        `select l.tenant_id, l.s3_key from docs.representment_upload_links l
          where l.expires_at < now() - make_interval(secs => $1)
            and not exists (select 1 from docs.representment_documents d
              where d.tenant_id = l.tenant_id and d.s3_key = l.s3_key and d.kind = 'file')
          order by l.expires_at limit $2`,
        [UPLOAD_LINK_GRACE_SECONDS, BATCH],
      );
      if (!rows.length) break;
      for (const r of rows) {
        // The file first: a failure leaves the row, and the next run tries again.
        if (await store.head(r.tenant_id, r.s3_key)) {
          await store.delete(r.tenant_id, r.s3_key);
          result.objects++;
        }
        // Only if still unused. (The upload call refuses a key this old itself, so none can name it now.)
        const gone = await ctx.db.query(
          `delete from docs.representment_upload_links l where l.tenant_id = $1 and l.s3_key = $2
             and not exists (select 1 from docs.representment_documents d
               where d.tenant_id = l.tenant_id and d.s3_key = l.s3_key and d.kind = 'file')`,
          [r.tenant_id, r.s3_key],
        );
        result.expired += gone.rowCount ?? 0;
      }
      if (rows.length < BATCH) break;
    }
    await ctx.progress(70, 'Removing preview PDFs');
    result.previews = await purgePreviews(ctx, store);
  });
  await ctx.progress(
    100,
    `Removed ${result.used + result.expired} upload link(s), ${result.objects} file(s), ${result.previews} preview(s)`,
  );
  return result;
}

/**
 * Preview PDFs not previewed again within PREVIEW_RETENTION_SECONDS: the object first, then the row if
 * it is still that old, so a failed delete leaves the row for the next run. A packet previewed again
 * while its object is being deleted keeps its renewed row and loses its PDF: its viewer answers 404 and
 * the user previews again.
 */
async function purgePreviews(ctx: JobContext<SlotData>, store: ObjectStore): Promise<number> {
  let removed = 0;
  for (let batch = 0; batch < MAX_BATCHES && !ctx.signal.aborted; batch++) {
    const { rows } = await ctx.db.query<{ tenant_id: string; s3_key: string }>(
      `select tenant_id, s3_key from docs.packet_previews
        where stored_at < now() - make_interval(secs => $1) order by stored_at limit $2`,
      [PREVIEW_RETENTION_SECONDS, BATCH],
    );
    for (const r of rows) {
      await store.delete(r.tenant_id, r.s3_key);
      const gone = await ctx.db.query(
        `delete from docs.packet_previews where tenant_id = $1 and s3_key = $2
           and stored_at < now() - make_interval(secs => $3)`,
        [r.tenant_id, r.s3_key, PREVIEW_RETENTION_SECONDS],
      );
      removed += gone.rowCount ?? 0;
    }
    if (rows.length < BATCH) break;
  }
  return removed;
}
