import type { WebhookKind } from '@portal/contracts';

export type ChatTool = Exclude<WebhookKind, 'signed'>;

/** What the screens say about each kind of destination. */
export const DESTINATION_LABELS: Record<WebhookKind, string> = {
  signed: 'Signed webhook',
  slack: 'Slack',
  teams: 'Microsoft Teams',
};

export const CHAT_TOOLS: Record<ChatTool, { label: string; placeholder: string; help: string }> = {
  slack: {
    label: DESTINATION_LABELS.slack,
    placeholder: 'https://hooks.slack.com/services/T000/B000/XXXX',
    help: 'In Slack: Apps, Incoming Webhooks, Add to Slack, pick the channel, copy the Webhook URL.',
  },
  teams: {
    label: DESTINATION_LABELS.teams,
    placeholder: 'https://prod-00.westus.logic.azure.com/workflows/...',
    help: "In Teams: the channel's Workflows, 'Post to a channel when a webhook request is received', copy the URL (or an incoming-webhook URL of webhook.office.com).",
  },
};

export const CHAT_EVENT_LABELS: Record<string, string> = {
  CASE_CREATED: 'New disputes',
  DEADLINE_DIGEST:
    "Your daily deadline digest (each morning, while 'Chargebacks expiring soon' is on in your Profile Settings)",
};
