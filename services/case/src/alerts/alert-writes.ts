import {
  ALERT_CASE_OUTCOME,
  ALERT_REFUND_OUTCOMES,
  ALERT_SERVICE_LEVEL,
  type AlertCompleteBody,
  type AlertOutcomeBody,
  type AlertRow,
  type AlertWriteResult,
  type InternalContext,
} from '@portal/contracts';
import { badRequest, conflict, forbidden, notFound, type Db, type Queryable } from '@portal/core';
import { emitEvent } from '@portal/jobs';
import { resolveScope, scopeConditions, type Scope } from '../scope/scope';
import { findAlert } from './alert-repository';
import { assertAlertsWritable } from './alert-scope';

const REQUIRED = 'This field is required';

/** The merchant's alerts service level must be Self (2) for any alert action (spec 2 §2.11). */
export function assertSelfService(level: number): void {
  if (level !== ALERT_SERVICE_LEVEL.Self)
    throw forbidden('Alert actions need the Self service level for this merchant.');
}

/** Locks an alert the caller may act on: in scope, Self service level, not completed. */
async function lockWorkableAlert(tx: Queryable, scope: Scope, id: number): Promise<AlertRow> {
  const alert = await findAlert(tx, scope, id, true);
  if (!alert) throw notFound(`Alert ${id} not found.`);
  assertSelfService(alert.service_level_id);
  if (alert.completed) throw conflict(`Alert ${id} is already completed.`);
  return alert;
}

export async function addAlertHistory(
  tx: Queryable,
  ctx: InternalContext,
  alert: { tenant: string; id: number },
  oldOutcome: number | null,
  newOutcome: number | null,
  action: string,
): Promise<void> {
  await tx.query(
    `insert into cases.alert_history (tenant_id, alert_id, user_id, username, actor_id, old_outcome_id, new_outcome_id, action)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      alert.tenant,
      alert.id,
      ctx.user_id,
      ctx.username ?? 'system',
      ctx.actor_id,
      oldOutcome,
      newOutcome,
      action,
    ],
  );
}

interface OutcomeDetails {
  refund_id: string | null;
  order_id: string | null;
  customer_name: string | null;
  case_id: number | null;
}

/**
 * The details an outcome needs (spec 2 §5 Mark Outcome): 1-3 need refund_id,
 * order_id and customer_name; 6 a case in the caller's scope of the alert's
 * merchant; the others nothing (details they do not use are cleared).
 */
async function outcomeDetails(
  tx: Queryable,
  scope: Scope,
  alert: AlertRow,
  body: AlertOutcomeBody,
): Promise<OutcomeDetails> {
  const text = (v: string | undefined) => (v?.trim() ? v.trim() : null);
  if (ALERT_REFUND_OUTCOMES.includes(body.outcome_id)) {
    const details = {
      refund_id: text(body.refund_id),
      order_id: text(body.order_id),
      customer_name: text(body.customer_name),
    };
    const missing = Object.entries(details).filter(([, v]) => v === null);
    if (missing.length)
      throw badRequest(`${missing.map(([k]) => k).join(', ')}: ${REQUIRED}`, {
        fields: missing.map(([name]) => ({ name, errors: [REQUIRED] })),
      });
    return { ...details, case_id: null };
  }
  if (body.outcome_id === ALERT_CASE_OUTCOME) {
    if (body.case_id === undefined)
      throw badRequest(`case_id: ${REQUIRED}`, { fields: [{ name: 'case_id', errors: [REQUIRED] }] });
    const params: unknown[] = [];
    const conditions = scopeConditions(scope, 'c', params);
    params.push(body.case_id, alert.merchant_id);
    const { rows } = await tx.query(
      `select 1 from cases.cases c where ${conditions.join(' and ')} and c.id = $${params.length - 1}
       and c.merchant_id = $${params.length}`,
      params,
    );
    if (!rows.length)
      throw badRequest(`case_id: case ${body.case_id} not found for this alert's merchant.`, {
        fields: [{ name: 'case_id', errors: ['Case not found.'] }],
      });
    return { refund_id: null, order_id: alert.order_id, customer_name: null, case_id: body.case_id };
  }
  return { refund_id: null, order_id: alert.order_id, customer_name: null, case_id: null };
}

/** ALERT_STATUS_CHANGED: an outcome marked or changed, or the alert completed. */
function alertStatusEvent(before: AlertRow, after: AlertRow) {
  const data = {
    alert_id: after.alert_id,
    previous_status: before.status,
    status: after.status,
    previous_outcome: before.outcome,
    outcome: after.outcome,
    completed_date: after.completed_date,
  };
  return { type: 'ALERT_STATUS_CHANGED' as const, merchant_id: after.merchant_id, data };
}

/** POST /cm/svc/alerts/outcome: marks (or re-marks) an open alert; one history row per change. */
export async function markOutcome(
  db: Db,
  ctx: InternalContext,
  body: AlertOutcomeBody,
): Promise<AlertWriteResult> {
  assertAlertsWritable(ctx);
  const scope = await resolveScope(db, ctx);
  return db.transaction(async (tx) => {
    const { rows: known } = await tx.query<{ name: string }>(
      'select name from cases.alert_outcomes where id = $1',
      [body.outcome_id],
    );
    if (!known[0])
      throw badRequest('outcome_id: An outcome type must be selected.', {
        fields: [{ name: 'outcome_id', errors: ['An outcome type must be selected.'] }],
      });
    const alert = await lockWorkableAlert(tx, scope, body.alert_id);
    const details = await outcomeDetails(tx, scope, alert, body);
    const unchanged =
      alert.outcome_id === body.outcome_id &&
      alert.refund_id === details.refund_id &&
      alert.customer_name === details.customer_name &&
      alert.case_id === details.case_id &&
      (details.order_id === null || alert.order_id === details.order_id);
    if (!unchanged) {
      await tx.query(
        `update cases.alerts set outcome_id = $2, refund_id = $3, order_id = coalesce($4, order_id), customer_name = $5,
           case_id = $6, updated_at = now() where id = $1`,
        [
          alert.alert_id,
          body.outcome_id,
          details.refund_id,
          details.order_id,
          details.customer_name,
          details.case_id,
        ],
      );
      await addAlertHistory(
        tx,
        ctx,
        { tenant: ctx.tenant, id: alert.alert_id },
        alert.outcome_id,
        body.outcome_id,
        `Outcome set to ${known[0].name}`,
      );
    }
    const after = (await findAlert(tx, scope, alert.alert_id))!;
    if (!unchanged) await emitEvent(tx, ctx.tenant, alertStatusEvent(alert, after), ctx.user_id);
    return { alert: after };
  });
}

/** POST /cm/svc/alerts/complete: a marked alert becomes completed, which is final. */
export async function completeAlert(
  db: Db,
  ctx: InternalContext,
  body: AlertCompleteBody,
): Promise<AlertWriteResult> {
  assertAlertsWritable(ctx);
  const scope = await resolveScope(db, ctx);
  return db.transaction(async (tx) => {
    const alert = await lockWorkableAlert(tx, scope, body.alert_id);
    if (alert.outcome_id === null)
      throw conflict(`Alert ${alert.alert_id} has no outcome yet: mark an outcome before completing it.`);
    await tx.query(
      `update cases.alerts set completed = true, completed_date = now(), completed_by = $2, completed_username = $3,
         updated_at = now() where id = $1`,
      [alert.alert_id, ctx.user_id, ctx.username ?? 'system'],
    );
    await addAlertHistory(
      tx,
      ctx,
      { tenant: ctx.tenant, id: alert.alert_id },
      alert.outcome_id,
      alert.outcome_id,
      'Completed',
    );
    const after = (await findAlert(tx, scope, alert.alert_id))!;
    await emitEvent(tx, ctx.tenant, alertStatusEvent(alert, after), ctx.user_id);
    return { alert: after };
  });
}
