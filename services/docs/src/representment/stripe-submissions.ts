import {
  CASE_STATUS,
  type ProcessorSubmissionAttempt,
  type ProcessorSubmissionView,
} from '@portal/contracts';
import type { Queryable } from '@portal/core';

/**
 * The submissions of evidence to a processor (issue 32, migration
 * 005_processor_submissions): one row per transport attempt, written where
 * the transport runs (stripe-transport.ts), read by the case's 'Stripe
 * submission' panel. Field names only, never their values; no secret.
 */
export type ProcessorMode = 'submit' | 'draft';

export interface AttemptRecord {
  tenant: string;
  caseId: number;
  versionId: number | null;
  jobId: string;
  attempt: number;
  processor: string;
  connectionId: string;
  disputeId: string;
  mode: ProcessorMode;
  state: 'sent' | 'refused' | 'failed';
  final: boolean;
  fields: readonly string[];
  fileId: string | null;
  error: { message: string; code: string | null; status: number | null } | null;
}

/** One attempt's outcome (a repeated write of the same attempt replaces it). */
export async function recordAttempt(db: Queryable, r: AttemptRecord): Promise<void> {
  await db.query(
    `insert into docs.processor_submissions (tenant_id, case_id, version_id, job_id, attempt, processor, connection_id,
       dispute_id, mode, state, final, fields, file_id, error_code, error_status, error_message)
     values ($1, $2, $3, $4, $5, $6, $7::uuid, $8, $9, $10, $11, $12::text[], $13, $14, $15, $16)
     on conflict (job_id, attempt) do update set state = excluded.state, final = excluded.final,
       fields = excluded.fields, file_id = excluded.file_id, error_code = excluded.error_code,
       error_status = excluded.error_status, error_message = excluded.error_message, at = now()`,
    [
      r.tenant,
      r.caseId,
      r.versionId,
      r.jobId,
      r.attempt,
      r.processor,
      r.connectionId,
      r.disputeId,
      r.mode,
      r.state,
      r.final,
      [...r.fields],
      r.fileId,
      r.error?.code ?? null,
      r.error?.status ?? null,
      r.error?.message ?? null,
    ],
  );
}

/** How a version goes to the processor: saved as a draft there, or submitted. */
export async function processorModeOf(db: Queryable, versionId: number): Promise<ProcessorMode> {
  const { rows } = await db.query<{ processor_mode: ProcessorMode }>(
    `select processor_mode from docs.representment_versions where id = $1`,
    [versionId],
  );
  return rows[0]?.processor_mode ?? 'submit';
}

/** Marks a new version (in the upload's transaction) to be saved as a draft at the processor. */
export async function markDraft(tx: Queryable, versionId: number): Promise<void> {
  await tx.query(`update docs.representment_versions set processor_mode = 'draft' where id = $1`, [
    versionId,
  ]);
}

interface AttemptRow {
  at: string;
  mode: ProcessorMode;
  state: ProcessorSubmissionAttempt['state'];
  final: boolean;
  attempt: number;
  version: number | null;
  fields: string[];
  file_id: string | null;
  error_code: string | null;
  error_status: number | null;
  error_message: string | null;
}

export async function attemptsOf(
  db: Queryable,
  tenant: string,
  caseId: number,
): Promise<ProcessorSubmissionAttempt[]> {
  const { rows } = await db.query<AttemptRow>(
    `select to_char(s.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, s.mode, s.state, s.final,
            s.attempt, v.version, s.fields, s.file_id, s.error_code, s.error_status, s.error_message
       from docs.processor_submissions s
       left join docs.representment_versions v on v.id = s.version_id
      where s.tenant_id = $1 and s.case_id = $2 order by s.id desc limit 20`,
    [tenant, caseId],
  );
  return rows.map((r) => ({
    at: r.at,
    mode: r.mode,
    state: r.state,
    final: r.final,
    attempt: Number(r.attempt),
    version: r.version === null ? null : Number(r.version),
    fields: r.fields,
    file_id: r.file_id,
    error: r.error_message
      ? {
          message: r.error_message,
          code: r.error_code,
          status: r.error_status === null ? null : Number(r.error_status),
        }
      : null,
  }));
}

/** The newest version of a case if it is a compiled draft sent to the processor (the one to submit). */
export async function stagedDraftVersion(
  db: Queryable,
  tenant: string,
  caseId: number,
): Promise<{ id: number; version: number } | null> {
  const { rows } = await db.query<{
    id: string;
    version: number;
    processor_mode: ProcessorMode;
    state: string;
  }>(
    `select id, version, processor_mode, state from docs.representment_versions
      where tenant_id = $1 and case_id = $2 order by version desc limit 1`,
    [tenant, caseId],
  );
  const v = rows[0];
  if (!v || v.processor_mode !== 'draft' || v.state !== 'compiled') return null;
  return { id: Number(v.id), version: Number(v.version) };
}

/** The panel's view: the newest final attempt decides the state; a newer attempt still retrying is 'pending'. */
export function submissionView(
  owner: {
    processor: string;
    connection_id: string;
    dispute_id: string;
    stage: string;
    date_due: string;
  } | null,
  attempts: ProcessorSubmissionAttempt[],
  caseStatusId: number | null,
  hasStagedDraft: boolean,
): ProcessorSubmissionView {
  if (!owner)
    return {
      connected: false,
      processor: null,
      connection_id: null,
      dispute_id: null,
      stage: null,
      date_due: null,
      state: 'none',
      can_submit_draft: false,
      last: null,
      attempts: [],
    };
  const last = attempts[0] ?? null;
  const state: ProcessorSubmissionView['state'] = !last
    ? 'none'
    : !last.final
      ? 'pending'
      : last.state !== 'sent'
        ? 'failed'
        : last.mode === 'draft'
          ? 'draft'
          : 'submitted';
  return {
    connected: true,
    processor: owner.processor,
    connection_id: owner.connection_id,
    dispute_id: owner.dispute_id,
    stage: owner.stage,
    date_due: owner.date_due,
    state,
    can_submit_draft:
      state === 'draft' && hasStagedDraft && owner.stage === 'open' && caseStatusId === CASE_STATUS.Working,
    last,
    attempts,
  };
}
