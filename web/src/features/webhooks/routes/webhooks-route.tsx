import { WebhookEndpoints } from '../components/webhook-endpoints';

/** /webhooks. */
export default function WebhooksRoute() {
  return <WebhookEndpoints />;
}
