import type { MessageActionName } from '@portal/contracts';
import { api } from '../../../lib/api-client';

/** POST /users/messages/{id}/action; failures are silently ignored (spec 3 §8). */
export function postMessageAction(id: number, action: MessageActionName): void {
  void api.post(`users/messages/${id}/action`, { action }).catch(() => undefined);
}
