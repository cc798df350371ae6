import { UPDATER_MAX_BYTES, UPDATER_MAX_ROWS, UPDATER_OUTCOMES as O } from '@portal/contracts';
import { HttpError, type Queryable } from '@portal/core';
import { defineJob, emitEvents, JobError, Type, type JobContext } from '@portal/jobs';
import { newObjectKey } from '@portal/storage';
import { caseObjectStore, csvText, parseCsv, readCsvObject } from '../onboarding/csv-file';

const CASE_UPDATER_JOB = 'case.updater';
/** Rows per transaction: short row locks so that case lists stay fast while a big file runs. */
const UPDATER_BATCH = 2000;

interface Upload {
  id: string;
  tenant_id: string;
  user_id: string | null;
  username: string;
  s3_key: string;
  scope_merchant_ids: string[] | null;
  scope_mids_allowed: string[] | null;
  scope_mids_excluded: string[];
}

interface Row {
  line: number;
  rawId: string;
  rawVerdict: string;
  id: number | null;
  verdictId: number | null;
  outcome: string | null;
}

/** Turns the file into rows with the outcomes that need no database (bad id, bad verdict, duplicate). */
function planRows(table: { header: string[]; rows: string[][] }, verdicts: Map<string, number>): Row[] {
  const lower = table.header.map((h) => h.toLowerCase());
  const idCol = lower.indexOf('id');
  const vCol = lower.indexOf('verdict');
  if (idCol < 0 || vCol < 0)
    throw new JobError('The CSV file must have the columns ID and Verdict.', { permanent: true });
  const seen = new Set<number>();
  return table.rows.map((r, i) => {
    const rawId = (r[idCol] ?? '').trim();
    const rawVerdict = (r[vCol] ?? '').trim();
    const row: Row = { line: i + 2, rawId, rawVerdict, id: null, verdictId: null, outcome: null };
    if (!/^[0-9]{1,15}$/.test(rawId) || Number(rawId) < 1) row.outcome = O.badId;
    else if (!verdicts.has(rawVerdict.toLowerCase())) row.outcome = O.badVerdict;
    else if (seen.has(Number(rawId))) row.outcome = O.duplicate;
    else {
      row.id = Number(rawId);
      row.verdictId = verdicts.get(rawVerdict.toLowerCase())!;
      seen.add(row.id);
    }
    return row;
  });
}

/** One batch in one transaction: locks the listed cases, sets verdicts in scope, one history row per change. */
async function applyBatch(tx: Queryable, u: Upload, rows: Row[]): Promise<string[]> {
  const ids = rows.map((r) => r.id!);
  const { rows: found } = await tx.query<{
    id: string;
    verdict_id: number;
    merchant_id: string;
    mid_id: string;
  }>(
    `select id, verdict_id, merchant_id, mid_id from cases.cases where tenant_id = $1 and id = any($2::bigint[])
     order by id for update`,
    [u.tenant_id, ids],
  );
  const byId = new Map(found.map((c) => [Number(c.id), c]));
  const merchants = u.scope_merchant_ids ? new Set(u.scope_merchant_ids.map(Number)) : null;
  const allowed = u.scope_mids_allowed ? new Set(u.scope_mids_allowed.map(Number)) : null;
  const excluded = new Set(u.scope_mids_excluded.map(Number));
  const changeIds: number[] = [];
  const changeVerdicts: number[] = [];
  const outcomes = rows.map((r) => {
    const c = byId.get(r.id!);
    // Another tenant's case reads as unknown: nothing tells the uploader it exists.
    if (!c) return O.unknownId;
    const visible =
      (!merchants || merchants.has(Number(c.merchant_id))) &&
      (!allowed || allowed.has(Number(c.mid_id))) &&
      !excluded.has(Number(c.mid_id));
    if (!visible) return O.outOfScope;
    if (c.verdict_id === r.verdictId) return O.unchanged;
    changeIds.push(r.id!);
    changeVerdicts.push(r.verdictId!);
    return O.updated;
  });
  if (changeIds.length) {
    await tx.query(
      `update cases.cases c set verdict_id = u.v, updated_at = now() from unnest($1::bigint[], $2::int[]) as u(id, v)
       where c.id = u.id`,
      [changeIds, changeVerdicts],
    );
    await tx.query(
      `insert into cases.case_history (tenant_id, case_id, user_id, username, actor_id, actor_username, action)
       select $1, u.id, $2, $3, $2, $3, 'Case updater upload #' || $4 || ': verdict set to ' || v.name
       from unnest($5::bigint[], $6::int[]) as u(id, vid) join cases.verdicts v on v.id = u.vid`,
      [u.tenant_id, u.user_id, u.username, u.id, changeIds, changeVerdicts],
    );
    const names = new Map(
      (await tx.query<{ id: number; name: string }>('select id, name from cases.verdicts')).rows.map((v) => [
        v.id,
        v.name,
      ]),
    );
    await emitEvents(
      tx,
      u.tenant_id,
      changeIds.map((id, i) => {
        const c = byId.get(id)!;
        const data = {
          case_id: id,
          previous_verdict: names.get(c.verdict_id) ?? null,
          verdict: names.get(changeVerdicts[i]!) ?? null,
          updater_upload_id: u.id,
        };
        return { type: 'CASE_VERDICT_CHANGED', merchant_id: Number(c.merchant_id), data };
      }),
      u.user_id === null ? null : Number(u.user_id),
    );
    await tx.query('update cases.updater_uploads set rows_applied = rows_applied + $2 where id = $1', [
      u.id,
      changeIds.length,
    ]);
  }
  return outcomes;
}

async function fail(ctx: JobContext<{ upload_id: number }>, message: string) {
  await ctx.db.query(
    `update cases.updater_uploads set state = 'failed', message = $2, date_finished = now() where id = $1`,
    [ctx.data.upload_id, message],
  );
}

export const caseUpdaterJob = defineJob({
  name: CASE_UPDATER_JOB,
  schema: Type.Object({ upload_id: Type.Integer({ minimum: 1 }) }),
  expireInSeconds: 3600,
  handler: async (ctx) => {
    const { rows } = await ctx.db.query<Upload & { state: string }>(
      `select id, tenant_id, user_id, username, s3_key, scope_merchant_ids, scope_mids_allowed, scope_mids_excluded, state
       from cases.updater_uploads where id = $1`,
      [ctx.data.upload_id],
    );
    const u = rows[0];
    if (!u) throw new JobError('The upload no longer exists.', { permanent: true });
    if (u.state === 'done' || u.state === 'failed') return { done: true };
    if (!ctx.env) throw new JobError('The worker has no environment to open the object store.');
    await ctx.db.query(`update cases.updater_uploads set state = 'running' where id = $1`, [u.id]);
    const store = await caseObjectStore(ctx.env, ctx.log);
    let plan: Row[];
    try {
      const bytes = await readCsvObject(
        store,
        u.tenant_id,
        'case-updater',
        u.s3_key,
        UPDATER_MAX_BYTES,
        'The file was not found.',
      );
      const verdicts = new Map(
        (await ctx.db.query<{ id: number; name: string }>('select id, name from cases.verdicts')).rows.map(
          (v) => [v.name.toLowerCase(), v.id],
        ),
      );
      plan = planRows(parseCsv(bytes, UPDATER_MAX_ROWS), verdicts);
    } catch (error) {
      // A file that cannot be read is refused as a whole: nothing was applied.
      const message =
        error instanceof HttpError || error instanceof JobError
          ? error.message
          : 'The file could not be read.';
      await fail(ctx, message);
      throw new JobError(message, { permanent: true });
    }
    const todo = plan.filter((r) => r.outcome === null);
    for (let i = 0; i < todo.length; i += UPDATER_BATCH) {
      const batch = todo.slice(i, i + UPDATER_BATCH);
      const outcomes = await ctx.once(`batch-${i}`, (tx) => applyBatch(tx, u, batch));
      batch.forEach((r, j) => (r.outcome = outcomes[j]!));
      await ctx.progress(Math.round(((i + batch.length) / Math.max(todo.length, 1)) * 95));
    }
    const csv = csvText(
      ['Line', 'ID', 'Verdict', 'Outcome'],
      plan.map((r) => [r.line, r.rawId, r.rawVerdict, r.outcome]),
    );
    const key = newObjectKey(u.tenant_id, 'case-updater', `result-${u.id}.csv`);
    await store.put(u.tenant_id, key, csv, { contentType: 'text/csv' });
    const updated = plan.filter((r) => r.outcome === O.updated).length;
    await ctx.db.query(
      `update cases.updater_uploads set state = 'done', result_key = $2, date_finished = now(), message = $3 where id = $1`,
      [u.id, key, `${updated} of ${plan.length} row(s) updated.`],
    );
    return { rows: plan.length, updated };
  },
});

export const UPDATER_JOBS = [caseUpdaterJob];
