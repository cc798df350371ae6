import type { CaseImportBody, InternalContext } from '@portal/contracts';
import { contextWithoutUser, type Queryable } from '@portal/core';
import type { ProcessorDispute } from '@portal/connectors';
import { emitEvents } from '@portal/jobs';
import { importCase } from '../case-import/case-import';
import { addHistory } from '../cases/case-history';
import type { ConnectionRow } from './connection-repository';

/**
 * A processor's dispute into a case (design §14: the same path as the feed):
 * a new dispute goes through importCase, so the case, its history and
 * CASE_CREATED commit together; a known one is updated from the newest state
 * only (an older event arriving late changes nothing); won / lost set the
 * verdict, the recovered or lost amount and close an open case.
 */
export const CONNECTOR_SOURCE_ID = 5;
const VERDICT = { win: 4, loss: 5 } as const;
const STATUS = { new: 1, expired: 5, transportCompleted: 10 } as const;

export type IngestOutcome = 'created' | 'updated' | 'unchanged' | 'ignored';

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const LABEL: Record<string, string> = { stripe: 'Stripe' };

/** The context of a connector's writes: no user, named for the processor in the case history. */
export function connectorContext(tenant: string, processor: string, requestId: string): InternalContext {
  return {
    ...contextWithoutUser(tenant, requestId, 'system'),
    username: LABEL[processor] ?? processor,
    exp: 0,
  };
}

async function one<T>(tx: Queryable, sql: string, params: unknown[]): Promise<T | undefined> {
  return (await tx.query<T & Record<string, unknown>>(sql, params)).rows[0];
}

/** The MID of a dispute: the connection's MID whose descriptor the charge shows, else its first MID. */
async function midOf(tx: Queryable, c: ConnectionRow, d: ProcessorDispute): Promise<number> {
  if (d.descriptor) {
    const m = await one<{ mid_id: number }>(
      tx,
      `select mid_id::int as mid_id from cases.descriptors
        where tenant_id = $1 and mid_id = any($2::bigint[]) and lower(descriptor) = lower($3)
        order by array_position($2::bigint[], mid_id) limit 1`,
      [c.tenant_id, c.mid_ids, d.descriptor.trim()],
    );
    if (m) return m.mid_id;
  }
  return c.mid_ids[0]!;
}

/** The network code given, else the code the processor's reason stands for on the brand. */
async function reasonCodeOf(tx: Queryable, d: ProcessorDispute): Promise<number | null> {
  for (const code of [d.networkReasonCode, d.fallbackReasonCode]) {
    if (!code) continue;
    const r = await one<{ id: number }>(
      tx,
      `select r.id from cases.reason_codes r join cases.card_types t on t.id = r.card_type_id
        where t.alias = $1 and upper(r.code) = upper($2)`,
      [d.brand, code.trim()],
    );
    if (r) return r.id;
  }
  return null;
}

/** Money as the portal keeps it (two decimals); every currency of cases.currencies has two. */
const major = (minor: number) => Math.round(minor) / 100;

export async function ingestDispute(
  tx: Queryable,
  c: ConnectionRow,
  d: ProcessorDispute,
  at: Date,
  requestId: string,
): Promise<{ outcome: IngestOutcome; caseId?: number; reason?: string }> {
  const ctx = connectorContext(c.tenant_id, c.processor, requestId);
  const known = await one<{ case_id: number; stage: string; state_at: Date; date_due: string }>(
    tx,
    `select d.case_id::int as case_id, d.stage, d.state_at, to_char(c.date_due, 'YYYY-MM-DD') as date_due
       from cases.connector_disputes d join cases.cases c on c.id = d.case_id
      where d.tenant_id = $1 and d.processor = $2 and d.dispute_id = $3 for update of d`,
    [c.tenant_id, c.processor, d.disputeId],
  );
  if (known) {
    if (at.getTime() < new Date(known.state_at).getTime())
      return { outcome: 'unchanged', caseId: known.case_id };
    await tx.query(
      `update cases.connector_disputes set stage = $2, raw_status = $3, is_charge_refundable = $4, state_at = $5,
         connection_id = $6 where case_id = $1`,
      [known.case_id, d.stage, d.rawStatus, d.isChargeRefundable, at, c.id],
    );
    let changed = false;
    const due = d.dueBy ? isoDate(d.dueBy) : null;
    if (due && due !== known.date_due && known.stage !== 'won' && known.stage !== 'lost') {
      await tx.query(
        `update cases.cases set date_due = greatest($2::date, date_post), updated_at = now() where id = $1`,
        [known.case_id, due],
      );
      await addHistory(tx, ctx, [
        { caseId: known.case_id, action: `Due date set to ${due} by ${ctx.username}` },
      ]);
      changed = true;
    }
    if (d.stage !== known.stage && (d.stage === 'won' || d.stage === 'lost')) {
      await applyOutcome(tx, ctx, known.case_id, d);
      changed = true;
    }
    return { outcome: changed || d.stage !== known.stage ? 'updated' : 'unchanged', caseId: known.case_id };
  }

  if (!d.brand) return { outcome: 'ignored', reason: `card brand '${d.rawBrand}' is not kept by the portal` };
  const currency = await one<{ id: number }>(tx, `select id from cases.currencies where code = $1`, [
    d.currency,
  ]);
  if (!currency) return { outcome: 'ignored', reason: `currency ${d.currency} is not kept by the portal` };
  const reasonCodeId = await reasonCodeOf(tx, d);
  if (reasonCodeId === null) return { outcome: 'ignored', reason: `no reason code for '${d.reason}'` };
  const datePost = isoDate(d.createdAt);
  const dateDue = d.dueBy && isoDate(d.dueBy) > datePost ? isoDate(d.dueBy) : datePost;
  const body: CaseImportBody = {
    source_id: CONNECTOR_SOURCE_ID,
    source_case_id: d.disputeId,
    mid_id: await midOf(tx, c, d),
    case_no: d.disputeId.slice(0, 40),
    cycle_id: d.inquiry ? 9 : 1,
    reason_code_id: reasonCodeId,
    date_post: datePost,
    date_due: dateDue,
    ...(d.transactionAt ? { date_trans: isoDate(d.transactionAt) } : {}),
    dispute_amt: major(d.amountMinor),
    dispute_currency_id: currency.id,
    ...(d.orderRef ? { order_id: d.orderRef } : {}),
    ...(d.last4 ? { cc_last_four: d.last4 } : {}),
  };
  const imported = await importCase(tx, ctx, body);
  await tx.query(
    `insert into cases.connector_disputes (case_id, tenant_id, connection_id, processor, dispute_id, stage, raw_status,
       is_charge_refundable, state_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (case_id) do nothing`,
    [
      imported.id,
      c.tenant_id,
      c.id,
      c.processor,
      d.disputeId,
      d.stage,
      d.rawStatus,
      d.isChargeRefundable,
      at,
    ],
  );
  // A dispute already decided when it first arrives (a backfill of a closed one) gets its outcome at once.
  if (d.stage === 'won' || d.stage === 'lost') await applyOutcome(tx, ctx, imported.id, d);
  return { outcome: imported.created ? 'created' : 'updated', caseId: imported.id };
}

/**
 * won: verdict Win and the amount recovered; lost: verdict Loss and the amount lost. An open case is
 * closed: TransportCompleted when it was answered, Expired when a lost dispute was never answered.
 */
async function applyOutcome(tx: Queryable, ctx: InternalContext, caseId: number, d: ProcessorDispute) {
  const won = d.stage === 'won';
  // Locked on its own first (lockCases in case-writes.ts says why).
  await tx.query('select 1 from cases.cases where id = $1 for update', [caseId]);
  const c = await one<{
    merchant_id: number;
    status_id: number;
    status_group_id: number;
    status: string;
    verdict: string;
    currency: string;
  }>(
    tx,
    `select c.merchant_id::int as merchant_id, c.status_id, c.status_group_id, s.name as status, v.name as verdict,
            cur.code as currency
       from cases.cases c join cases.statuses s on s.id = c.status_id join cases.verdicts v on v.id = c.verdict_id
       join cases.currencies cur on cur.id = c.dispute_currency_id
      where c.id = $1`,
    [caseId],
  );
  if (!c) return;
  const verdictId = won ? VERDICT.win : VERDICT.loss;
  const verdict = won ? 'Win' : 'Loss';
  const open = c.status_group_id === 1 || c.status_group_id === 2;
  const statusId = !open
    ? c.status_id
    : !won && c.status_id === STATUS.new
      ? STATUS.expired
      : STATUS.transportCompleted;
  const { rows } = await tx.query<{ name: string }>(`select name from cases.statuses where id = $1`, [
    statusId,
  ]);
  const status = rows[0]!.name;
  const amount = major(d.amountMinor);
  await tx.query(
    `update cases.cases set verdict_id = $2, status_id = $3, date_completed = coalesce(date_completed, current_date),
       recovered_amt = $4, updated_at = now() where id = $1`,
    // The amount the processor says came back: the ledger's recovered money (migration 040).
    [caseId, verdictId, statusId, won ? amount : null],
  );
  await tx.query(`update cases.connector_disputes set recovered_amt = $2, lost_amt = $3 where case_id = $1`, [
    caseId,
    won ? amount : null,
    won ? null : amount,
  ]);
  const money = `${amount.toFixed(2)} ${c.currency}`;
  await addHistory(tx, ctx, [
    {
      caseId,
      action: won
        ? `${ctx.username}: dispute won, ${money} recovered`
        : `${ctx.username}: dispute lost, ${money} lost`,
    },
  ]);
  const events = [];
  if (c.verdict !== verdict)
    events.push({
      type: 'CASE_VERDICT_CHANGED' as const,
      merchant_id: c.merchant_id,
      data: { case_id: caseId, previous_verdict: c.verdict, verdict },
    });
  if (statusId !== c.status_id)
    events.push({
      type: 'CASE_STATUS_CHANGED' as const,
      merchant_id: c.merchant_id,
      data: { case_id: caseId, previous_status: c.status, status, verdict },
    });
  await emitEvents(tx, ctx.tenant, events, null);
}
