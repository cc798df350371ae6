import { DEADLINE_DIGEST_EVENT, WEBHOOK_TEST_EVENT, type WebhookPayload } from '@portal/contracts';
import type { ChatKind } from './chat-destinations';

/**
 * The message a chat destination receives for a delivery: short, in the tool's own format (Slack
 * Block Kit blocks with a `text` fallback for notifications; a Teams message carrying one Adaptive
 * Card), each case linked to the portal's case list opened on it.
 */

/** A digest line as the reminder sweep records it. */
export interface DigestCase {
  id: number;
  business_name: string;
  date_due: string;
  threshold: '5d' | '24h';
}

interface Line {
  text: string;
  /** The case it names, linked in the message. */
  caseId?: number;
}

interface Message {
  title: string;
  lines: Line[];
  /** Where the title's button leads. */
  action?: { label: string; url: string };
}

/** At most this many cases in one digest message; the rest are counted. */
const DIGEST_LINES = 10;

const caseUrl = (origin: string, id: number) => `${origin}/chargebacks?search=${id}`;

function money(amount: unknown, currency: unknown): string {
  const n = Number(amount);
  if (!Number.isFinite(n)) return '';
  return `${n.toFixed(2)}${typeof currency === 'string' && currency ? ` ${currency}` : ''}`;
}

function describe(payload: WebhookPayload, origin: string): Message {
  const d = payload.data;
  if (payload.type === 'CASE_CREATED') {
    const id = Number(d.case_id);
    const amount = money(d.dispute_amt, d.dispute_currency_id);
    const facts = [
      d.reason_code ? `reason ${String(d.reason_code)}` : '',
      amount,
      d.date_due ? `respond by ${String(d.date_due)}` : '',
    ].filter(Boolean);
    return {
      title: `New dispute: case ${id}${d.case_no ? ` (${String(d.case_no)})` : ''}`,
      lines: [{ text: facts.join(', ') || 'A new chargeback arrived.', caseId: id }],
      action: { label: 'Open the case', url: caseUrl(origin, id) },
    };
  }
  if (payload.type === DEADLINE_DIGEST_EVENT) {
    const cases = (Array.isArray(d.cases) ? d.cases : []) as DigestCase[];
    const soon = cases.filter((c) => c.threshold === '24h').length;
    const lines: Line[] = cases.slice(0, DIGEST_LINES).map((c) => ({
      text: `Case ${c.id} - ${c.business_name} - due ${c.date_due}${c.threshold === '24h' ? ' (within 24 hours)' : ''}`,
      caseId: c.id,
    }));
    if (cases.length > DIGEST_LINES) lines.push({ text: `and ${cases.length - DIGEST_LINES} more` });
    return {
      title: `Chargeback deadlines: ${cases.length} case${cases.length === 1 ? '' : 's'} due soon${soon ? `, ${soon} within 24 hours` : ''}`,
      lines,
      action: { label: 'Open the chargebacks', url: `${origin}/chargebacks` },
    };
  }
  if (payload.type === WEBHOOK_TEST_EVENT)
    return {
      title: 'Test message from the chargeback portal',
      lines: [{ text: 'This destination will receive new disputes and the daily deadline digest.' }],
      action: { label: 'Open the portal', url: `${origin}/chargebacks` },
    };
  return { title: `Chargeback portal event ${payload.type}`, lines: [] };
}

/** Slack's mrkdwn needs &, < and > escaped. */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function slackMessage(m: Message, origin: string) {
  const lineText = (l: Line) =>
    l.caseId === undefined ? slackEscape(l.text) : `<${caseUrl(origin, l.caseId)}|${slackEscape(l.text)}>`;
  return {
    // Notifications and clients without blocks show `text`.
    text: m.title,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${slackEscape(m.title)}*` } },
      ...(m.lines.length
        ? [{ type: 'section', text: { type: 'mrkdwn', text: m.lines.map(lineText).join('\n') } }]
        : []),
      ...(m.action
        ? [
            {
              type: 'actions',
              elements: [
                { type: 'button', text: { type: 'plain_text', text: m.action.label }, url: m.action.url },
              ],
            },
          ]
        : []),
    ],
  };
}

function teamsMessage(m: Message, origin: string) {
  const lineText = (l: Line) =>
    l.caseId === undefined ? l.text : `[${l.text.replace(/[[\]]/g, '')}](${caseUrl(origin, l.caseId)})`;
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: m.title, weight: 'Bolder', size: 'Medium', wrap: true },
            ...m.lines.map((l) => ({ type: 'TextBlock', text: lineText(l), wrap: true, spacing: 'Small' })),
          ],
          ...(m.action
            ? { actions: [{ type: 'Action.OpenUrl', title: m.action.label, url: m.action.url }] }
            : {}),
        },
      },
    ],
  };
}

/** The JSON body posted to a chat destination; `origin` is the tenant's portal (https://acme.example). */
export function chatMessageBody(kind: ChatKind, payload: WebhookPayload, origin: string): string {
  const message = describe(payload, origin);
  return JSON.stringify(kind === 'slack' ? slackMessage(message, origin) : teamsMessage(message, origin));
}
