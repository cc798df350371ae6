import { ConnectorError } from '@portal/connectors';
import type { Queryable } from '@portal/core';
import { defineJob, enqueue, JobError, Type } from '@portal/jobs';
import { connectorFor, sealedFor, secretBox } from './connector-registry';
import { connectionById } from './connection-repository';
import { ingestDispute } from './dispute-ingest';

/** How far back a new connection looks (issue 32). */
export const BACKFILL_DAYS = 120;

/**
 * The backfill of a new connection (design §9, §14): pages the processor's
 * disputes of the last 120 days (the SDK follows the pagination and backs off
 * on 429 with its own retries; past those the job is retried with backoff)
 * into cases, one transaction per dispute, idempotent on the dispute id, so
 * a retried attempt re-reads and changes only what is new.
 */
export const backfillJob = defineJob({
  name: 'case.connector-backfill',
  schema: Type.Object({ connection_id: Type.String() }),
  retryLimit: 5,
  retryDelaySeconds: 30,
  expireInSeconds: 1800,
  handler: async (ctx) => {
    const { tenant } = ctx;
    if (!ctx.env) throw new JobError('The worker has no configuration for connectors.', { permanent: true });
    const c = await connectionById(ctx.db, tenant, ctx.data.connection_id);
    if (!c)
      throw new JobError('The connection was removed before its disputes were imported.', {
        permanent: true,
      });
    const apiKey = secretBox(ctx.env).open(c.api_key_sealed, sealedFor(tenant, c.id, 'api_key'));
    const client = connectorFor(ctx.env, c.processor).client({ apiKey });
    const since = new Date(new Date(c.created_at).getTime() - BACKFILL_DAYS * 86_400_000);
    const counts = { created: 0, updated: 0, unchanged: 0, ignored: 0 };
    await ctx.progress(5, 'Reading disputes from Stripe');
    try {
      for await (const d of client.listDisputes(since)) {
        if (ctx.signal.aborted) throw new JobError('The import ran out of time; it will go on.');
        // The dispute's creation is its state's time: a newer webhook already applied is not undone.
        const r = await ctx.db.transaction((tx) =>
          ingestDispute(tx, c, d, d.createdAt, `backfill-${ctx.id}`),
        );
        counts[r.outcome] += 1;
        const seen = counts.created + counts.updated + counts.unchanged + counts.ignored;
        if (seen % 25 === 0) await ctx.progress(Math.min(95, 5 + seen), `${seen} disputes read`);
      }
    } catch (error) {
      if (error instanceof ConnectorError)
        throw new JobError(error.message, { permanent: !error.retryable, cause: error });
      throw error;
    }
    await ctx.progress(
      100,
      `${counts.created} disputes imported, ${counts.updated} updated, ${counts.ignored} not kept (brand or currency)`,
    );
    return counts;
  },
});

export function enqueueBackfill(tx: Queryable, tenant: string, connectionId: string, userId: number | null) {
  return enqueue(
    tx,
    backfillJob,
    { connection_id: connectionId },
    { tenant, createdBy: userId, singletonKey: `connector-backfill-${connectionId}` },
  );
}

/** Listed in the runner's JOBS. */
export const CONNECTOR_JOBS = [backfillJob];
