import {
  ALERT_CASE_OUTCOME,
  ALERT_REFUND_OUTCOMES,
  type AlertOutcomeBody,
  type AlertRow,
} from '@portal/contracts';
import { ALERT_MESSAGES } from './alert-messages';

export interface OutcomeForm {
  outcome_id: string;
  refund_id: string;
  order_id: string;
  customer_name: string;
  case_id: string;
}

export type OutcomeErrors = Partial<Record<keyof OutcomeForm, string>>;

export function initialForm(alert: AlertRow): OutcomeForm {
  return {
    outcome_id: alert.outcome_id ? String(alert.outcome_id) : '',
    refund_id: alert.refund_id ?? '',
    order_id: alert.order_id ?? '',
    customer_name: alert.customer_name ?? '',
    case_id: alert.case_id ? String(alert.case_id) : '',
  };
}

/** Spec 2 §5 Mark Outcome: outcome required (>= 1); 1-3 need the refund details; 6 a case id. */
export function validateOutcome(form: OutcomeForm): OutcomeErrors {
  const errors: OutcomeErrors = {};
  const outcome = Number(form.outcome_id);
  if (!form.outcome_id || !Number.isInteger(outcome) || outcome < 1) {
    errors.outcome_id = ALERT_MESSAGES.outcomeRequired;
    return errors;
  }
  if (ALERT_REFUND_OUTCOMES.includes(outcome)) {
    for (const k of ['refund_id', 'order_id', 'customer_name'] as const)
      if (!form[k].trim()) errors[k] = ALERT_MESSAGES.fieldRequired;
  }
  if (outcome === ALERT_CASE_OUTCOME && !/^[1-9]\d{0,15}$/.test(form.case_id.trim()))
    errors.case_id = ALERT_MESSAGES.fieldRequired;
  return errors;
}

export function toOutcomeBody(alertId: number, form: OutcomeForm, userId?: number): AlertOutcomeBody {
  const outcome = Number(form.outcome_id);
  const body: AlertOutcomeBody = { alert_id: alertId, outcome_id: outcome, user_id: userId };
  if (ALERT_REFUND_OUTCOMES.includes(outcome)) {
    body.refund_id = form.refund_id.trim();
    body.order_id = form.order_id.trim();
    body.customer_name = form.customer_name.trim();
  }
  if (outcome === ALERT_CASE_OUTCOME) body.case_id = Number(form.case_id.trim());
  return body;
}
