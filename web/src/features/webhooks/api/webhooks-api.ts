import type {
  MessageResult,
  WebhookCreateBody,
  WebhookCreated,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookPatchBody,
} from '@portal/contracts';
import { api } from '../../../lib/api-client';

/** Webhook endpoints and their deliveries (issue 19, `/users/webhooks`). */
export const listWebhooks = () => api.get<WebhookEndpointList>('users/webhooks', { limit: 200 });

export const createWebhook = (body: WebhookCreateBody) => api.post<WebhookCreated>('users/webhooks', body);

export const patchWebhook = (id: number, body: WebhookPatchBody) =>
  api.patch<WebhookEndpoint>(`users/webhooks/${id}`, body);

export const deleteWebhook = (id: number) => api.delete<MessageResult>(`users/webhooks/${id}`);

export const listDeliveries = (id: number, start: number, limit: number) =>
  api.get<WebhookDeliveryList>(`users/webhooks/${id}/deliveries`, { start, limit });

export const redeliver = (id: number, deliveryId: number) =>
  api.post<MessageResult>(`users/webhooks/${id}/deliveries/${deliveryId}/redeliver`, {});

export const sendTestEvent = (id: number) => api.post<MessageResult>(`users/webhooks/${id}/test`, {});
