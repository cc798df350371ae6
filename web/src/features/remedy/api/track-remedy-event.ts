import { api } from '../../../lib/api-client';

const REMEDY_EVENT_KEY = 'ce3_remedy';

/**
 * POST /users/events/tracking (spec 2 §7): sent only when the tenant's
 * EVENTS_TRACKING flag is on, except the button-click event, always sent.
 * Tracking never gets in the user's way: failures are ignored.
 */
export function trackRemedyEvent(
  enabled: boolean,
  e: { caseId: number; event: string; action?: string; message?: string },
): void {
  if (!enabled && e.event !== 'button_click') return;
  void api
    .post('users/events/tracking', {
      key: REMEDY_EVENT_KEY,
      case_id: e.caseId,
      event_name: e.event,
      action: e.action,
      message: e.message,
    })
    .catch(() => undefined);
}
