import { REPRESENTMENT_TRANSPORT_JOB } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { defineJob, enqueue, JobError } from '@portal/jobs';

/**
 * QC approval triggers transport of the representment (spec 2 §4): the case
 * service enqueues the docs service's transport job in the approval's own
 * transaction. It knows the job only by its shared contract
 * (REPRESENTMENT_TRANSPORT_JOB: name, data schema, retries); the docs service
 * defines the handler and the runner's JOBS registers that one with the worker.
 */
const transportJobRef = defineJob({
  ...REPRESENTMENT_TRANSPORT_JOB,
  handler: async () => {
    throw new JobError('The transport job runs in the docs service.', { permanent: true });
  },
});

export function enqueueRepresentmentTransport(
  tx: Queryable,
  tenant: string,
  caseId: number,
  userId: number | null,
) {
  return enqueue(
    tx,
    transportJobRef,
    { case_id: caseId },
    { tenant, createdBy: userId, singletonKey: `transport-${caseId}` },
  );
}
