import {
  ONBOARDING_MESSAGES as M,
  ONBOARDING_STATUS,
  ROLES,
  type InternalContext,
  type OnboardingType,
} from '@portal/contracts';
import {
  conflict,
  resolveContextSecret,
  ServiceClient,
  systemContext,
  type Db,
  type Env,
  type Queryable,
} from '@portal/core';
import { defineJob, enqueue, JobError, Type, type JobContext } from '@portal/jobs';
import { assertOnboarder, fileUsernames, revalidate, visibleFile } from './onboarding';
import { withCheckedUsernames, type UsernameLookup } from './username-lookup';
import type { Cells } from './validate';

const ONBOARDING_FINALIZE_JOB = 'case.onboarding-finalize';

/**
 * PATCH /cm/onboarding/{id} {status_id: 3}: only when no live cell fails.
 * The file becomes read-only at once (status 2) and the job creates the rows.
 */
export async function finalizeOnboarding(db: Db, ctx: InternalContext, id: number, lookup?: UsernameLookup) {
  assertOnboarder(ctx);
  // The file's usernames are checked with the user service before the transaction (issue 28).
  const before = await visibleFile(db, ctx, id);
  if (before.status_id !== ONBOARDING_STATUS.open) throw conflict(M.finalized);
  const usernames = before.type === 'merchant' ? await fileUsernames(db, id) : [];
  return withCheckedUsernames(lookup, ctx.tenant, usernames, (checked) =>
    db.transaction(async (tx) => {
      const file = await visibleFile(tx, ctx, id, true);
      if (file.status_id !== ONBOARDING_STATUS.open) throw conflict(M.finalized);
      const failing = await revalidate(tx, ctx.tenant, id, file.type, checked);
      if (failing > 0) throw conflict(M.failing);
      const live = await tx.query(
        'select 1 from cases.onboarding_records where file_id = $1 and status_id = 1 limit 1',
        [id],
      );
      if (!live.rows.length) throw conflict('Every row is deleted: there is nothing to finalize.');
      const { exp: _exp, ...signed } = ctx as InternalContext & { exp?: number };
      const queued = await enqueue(
        tx,
        onboardingFinalizeJob,
        { file_id: id },
        { tenant: ctx.tenant, createdBy: ctx.user_id, singletonKey: `onboarding-${id}` },
      );
      await tx.query(
        `update cases.onboarding_files set status_id = $2, finalize_context = $3, job_id = $4, date_updated = now() where id = $1`,
        [id, ONBOARDING_STATUS.finalizing, JSON.stringify(signed), queued.id],
      );
      return { id, status_id: ONBOARDING_STATUS.finalizing, message: M.success };
    }),
  );
}

interface LiveRecord {
  id: string;
  cells: Cells;
  created_id: string | null;
}

/** Creates the file's merchants or MIDs in one transaction; records remember what they created. */
async function createRows(
  tx: Queryable,
  file: { id: number; tenant: string; merchantId: number; type: OnboardingType },
) {
  const { rows } = await tx.query<LiveRecord>(
    'select id, cells, created_id from cases.onboarding_records where file_id = $1 and status_id = 1 order by row_num for update',
    [file.id],
  );
  const levels = new Map<string, number>();
  for (const r of (await tx.query<{ id: number; name: string }>('select id, name from cases.service_levels'))
    .rows) {
    levels.set(r.name.toLowerCase(), r.id);
    levels.set(r.name.replace(/ service$/i, '').toLowerCase(), r.id);
    levels.set(String(r.id), r.id);
  }
  const level = (v: string | undefined) => levels.get((v ?? '').trim().toLowerCase()) ?? 1;
  for (const r of rows) {
    if (r.created_id !== null) continue;
    const c = r.cells;
    const t = (k: string) => (c[k] ?? '').trim() || null;
    let created: number;
    if (file.type === 'merchant') {
      const ins = await tx.query<{ id: string }>(
        `insert into cases.merchants (id, tenant_id, parent_id, business_name, alias, partner_company_id, business_address,
           city, state, zip, country_id, business_phone, contact_username, contact_fname, contact_lname, contact_phone,
           contact_email, service_level_id)
         values (nextval('cases.merchant_id_seq'), $1, $2, $3, coalesce($4, $5), $6, $7, $8, $9, $10,
           (select id from cases.countries where lower(code) = lower($11) or lower(name) = lower($11) limit 1),
           $12, $13, $14, $15, $16, $17, $18) returning id`,
        [
          file.tenant,
          file.merchantId,
          t('business_name'),
          t('alias'),
          t('dba'),
          t('partner_company_id'),
          t('business_address'),
          t('city'),
          t('state'),
          t('zip'),
          t('country'),
          t('business_phone'),
          t('username'),
          t('first_name'),
          t('last_name'),
          t('phone'),
          t('email'),
          level(c.service_level),
        ],
      );
      created = Number(ins.rows[0]!.id);
    } else {
      const ins = await tx.query<{ id: string }>(
        `insert into cases.mids (id, tenant_id, merchant_id, mid, alias, status_id, mcc, service_level_id, mid_type_id)
         values (nextval('cases.mid_id_seq'), $1, $2, $3, $4, 2, $5, $6, 1) returning id`,
        [file.tenant, file.merchantId, t('mid'), t('alias'), t('mcc'), level(c.service_level)],
      );
      created = Number(ins.rows[0]!.id);
      if (t('descriptor'))
        await tx.query(
          `insert into cases.descriptors (id, tenant_id, mid_id, descriptor) values (nextval('cases.descriptor_id_seq'), $1, $2, $3)`,
          [file.tenant, created, t('descriptor')],
        );
    }
    await tx.query('update cases.onboarding_records set created_id = $2 where id = $1', [r.id, created]);
  }
  return rows.length;
}

/** The merchants of the existing users of these usernames (lower case), from the user service. */
async function usersByName(
  client: ServiceClient,
  tenant: string,
  requestId: string,
  usernames: string[],
): Promise<Map<string, Array<number | null>>> {
  const out = new Map<string, Array<number | null>>();
  for (let i = 0; i < usernames.length; i += 2000) {
    const r = await client.request<{ users?: Array<{ username: string; merchant_id: number | null }> }>(
      'POST',
      '/users/internal/usernames-taken',
      systemContext(tenant, requestId),
      { usernames: usernames.slice(i, i + 2000) },
    );
    for (const u of r.users ?? []) out.set(u.username, [...(out.get(u.username) ?? []), u.merchant_id]);
  }
  return out;
}

/**
 * Users belong to the user service: each new merchant's main admin is created
 * through its POST /users/users as the uploader (so the user service applies
 * its own rules and mails the temporary password through its outbox).
 *
 * No transaction is open around these calls (issue 28). Idempotent without
 * one: a user of the username that belongs to the merchant this job created
 * can only come from an earlier attempt of this job (its answer lost to a
 * crash or a timeout), so it counts as created; a name taken by anyone else
 * is reported.
 */
async function createMainAdmins(
  ctx: JobContext<{ file_id: number }>,
  env: Env,
  signed: Omit<InternalContext, 'exp'>,
) {
  const { rows } = await ctx.db.query<LiveRecord>(
    'select id, cells, created_id from cases.onboarding_records where file_id = $1 and status_id = 1 and created_id is not null order by row_num',
    [ctx.data.file_id],
  );
  const client = new ServiceClient(env.USER_SERVICE_URL, resolveContextSecret(env), 10_000);
  const nameOf = (r: LiveRecord) => (r.cells.username ?? '').trim();
  const ours = (users: Map<string, Array<number | null>>, r: LiveRecord) =>
    (users.get(nameOf(r).toLowerCase()) ?? []).includes(Number(r.created_id));
  const existing = await usersByName(client, signed.tenant, `${ctx.id}:users`, [
    ...new Set(rows.map(nameOf).filter(Boolean)),
  ]);
  const problems: string[] = [];
  for (const r of rows) {
    if (ours(existing, r)) continue;
    const c = r.cells;
    const body = {
      fname: c.first_name ?? '',
      lname: c.last_name ?? '',
      username: nameOf(r),
      email: (c.email ?? '').trim(),
      role: ROLES.merchant_admin,
      merchant: Number(r.created_id),
    };
    try {
      await client.request('POST', '/users/users', { ...signed, request_id: `${ctx.id}:${r.id}` }, body);
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode ?? 0;
      if (status >= 500 || status === 0) throw error;
      // Created meanwhile by a still-running earlier attempt of this job: done.
      if (
        status === 409 &&
        ours(await usersByName(client, signed.tenant, `${ctx.id}:${r.id}`, [body.username]), r)
      )
        continue;
      // A refused user (e.g. the username was taken meanwhile) does not undo the merchant: it is reported.
      problems.push(`${body.username}: ${(error as Error).message}`);
    }
  }
  return problems;
}

const onboardingFinalizeJob = defineJob({
  name: ONBOARDING_FINALIZE_JOB,
  schema: Type.Object({ file_id: Type.Integer({ minimum: 1 }) }),
  expireInSeconds: 1800,
  handler: async (ctx) => {
    const { rows } = await ctx.db.query<{
      id: string;
      tenant_id: string;
      merchant_id: string;
      type: OnboardingType;
      status_id: number;
      finalize_context: Omit<InternalContext, 'exp'> | null;
    }>(
      `select f.id, f.tenant_id, f.merchant_id, t.alias as type, f.status_id, f.finalize_context
       from cases.onboarding_files f join cases.onboarding_types t on t.id = f.type_id where f.id = $1`,
      [ctx.data.file_id],
    );
    const f = rows[0];
    if (!f) throw new JobError('The onboarding file no longer exists.', { permanent: true });
    if (f.status_id === ONBOARDING_STATUS.finalized) return { created: 0 };
    const file = { id: Number(f.id), tenant: f.tenant_id, merchantId: Number(f.merchant_id), type: f.type };
    const created = await ctx.once('rows', (tx) => createRows(tx, file));
    await ctx.progress(60, `${created} ${file.type === 'merchant' ? 'merchant(s)' : 'MID(s)'} created`);
    let problems: string[] = [];
    if (file.type === 'merchant' && ctx.env && f.finalize_context)
      problems = await createMainAdmins(ctx, ctx.env, f.finalize_context);
    const message = problems.length
      ? `Created ${created} merchant(s); main admin users not created: ${problems.join('; ')}`.slice(0, 2000)
      : `Created ${created} ${file.type === 'merchant' ? 'merchant(s) and their main admin users' : 'MID(s)'}.`;
    await ctx.once('finish', (tx) =>
      tx.query(
        `update cases.onboarding_files set status_id = 3, finalized_date = now(), date_updated = now(), message = $2,
           finalize_context = null where id = $1`,
        [file.id, message],
      ),
    );
    return { created };
  },
});

export const ONBOARDING_JOBS = [onboardingFinalizeJob];
