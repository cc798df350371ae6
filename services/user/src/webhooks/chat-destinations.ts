import {
  CHAT_EVENT_TYPES,
  DEADLINE_DIGEST_EVENT,
  WEBHOOK_MESSAGES,
  type SubscribedEventType,
  type WebhookKind,
} from '@portal/contracts';
import type { Env } from '@portal/core';
import { WebhookTargetError } from './ssrf';

export type ChatKind = Exclude<WebhookKind, 'signed'>;

export const isChatKind = (kind: WebhookKind): kind is ChatKind => kind !== 'signed';

/**
 * The hosts each tool's incoming webhooks use: Slack's `hooks.slack.com`; Teams' connector webhooks
 * (`<tenant>.webhook.office.com/webhookb2/...`) and the Workflows (Power Automate) URLs that replace
 * them (`prod-NN.<region>.logic.azure.com/workflows/...`,
 * `<env>.environment.api.powerplatform.com/powerautomate/...`). A leading dot means any subdomain.
 */
export const CHAT_HOSTS: Readonly<Record<ChatKind, readonly string[]>> = {
  slack: ['hooks.slack.com'],
  teams: ['.webhook.office.com', '.logic.azure.com', '.environment.api.powerplatform.com'],
};

/** Which hosts chat destinations may use: the tools' own, or CHAT_WEBHOOK_HOSTS (tests, development) instead. */
export interface ChatHostPolicy {
  override: readonly string[] | null;
}

export function chatHostPolicy(env: Pick<Env, 'CHAT_WEBHOOK_HOSTS'>): ChatHostPolicy {
  const hosts = env.CHAT_WEBHOOK_HOSTS.split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return { override: hosts.length ? hosts : null };
}

const matches = (host: string, pattern: string) =>
  pattern.startsWith('.') ? host.endsWith(pattern) && host.length > pattern.length : host === pattern;

/**
 * Refuses a chat destination URL outside its tool's hosts, or not https (only an overriding
 * stand-in host may use http, and the address checks still decide that). Runs before the address
 * checks (checkTarget), at registration and at every delivery.
 */
export function checkChatUrl(policy: ChatHostPolicy, kind: ChatKind, raw: string): void {
  const refusal = kind === 'slack' ? WEBHOOK_MESSAGES.slackHost : WEBHOOK_MESSAGES.teamsHost;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new WebhookTargetError(WEBHOOK_MESSAGES.badUrl);
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (policy.override) {
    if (!policy.override.includes(host)) throw new WebhookTargetError(refusal);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new WebhookTargetError(WEBHOOK_MESSAGES.httpsOnly);
    return;
  }
  if (url.protocol !== 'https:') throw new WebhookTargetError(WEBHOOK_MESSAGES.httpsOnly);
  if (url.port && url.port !== '443') throw new WebhookTargetError(refusal);
  if (!CHAT_HOSTS[kind].some((pattern) => matches(host, pattern))) throw new WebhookTargetError(refusal);
}

/** The events a destination of this kind may take: chat only new disputes and the digest; the digest only chat. */
export function eventsProblem(kind: WebhookKind, events: readonly SubscribedEventType[]): string | null {
  if (isChatKind(kind))
    return events.every((e) => (CHAT_EVENT_TYPES as readonly string[]).includes(e))
      ? null
      : WEBHOOK_MESSAGES.chatEvents;
  return events.includes(DEADLINE_DIGEST_EVENT) ? WEBHOOK_MESSAGES.digestSignedOnly : null;
}
