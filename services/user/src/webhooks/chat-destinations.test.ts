import { describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES as M } from '@portal/contracts';
import { chatHostPolicy, checkChatUrl, eventsProblem } from './chat-destinations';
import { chatMessageBody } from './chat-messages';

const tools = chatHostPolicy({ CHAT_WEBHOOK_HOSTS: '' });
const refusal = (kind: 'slack' | 'teams', url: string) => {
  try {
    checkChatUrl(tools, kind, url);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('chat destination URLs (issue 35.4)', () => {
  it("accepts the tools' incoming-webhook hosts over https", () => {
    expect(refusal('slack', 'https://hooks.slack.com/services/T0/B0/xyz')).toBeNull();
    expect(
      refusal('teams', 'https://contoso.webhook.office.com/webhookb2/abc/IncomingWebhook/def'),
    ).toBeNull();
    expect(
      refusal(
        'teams',
        'https://prod-12.westus.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke',
      ),
    ).toBeNull();
    expect(
      refusal('teams', 'https://default123.environment.api.powerplatform.com/powerautomate/automations/x'),
    ).toBeNull();
  });

  it('refuses http, other hosts, look-alikes and other ports', () => {
    expect(refusal('slack', 'http://hooks.slack.com/services/T0/B0/xyz')).toBe(M.httpsOnly);
    expect(refusal('teams', 'http://contoso.webhook.office.com/webhookb2/x')).toBe(M.httpsOnly);
    for (const url of [
      'https://hooks.slack.com.evil.example/x',
      'https://evilhooks.slack.com/x',
      'https://hooks.slack.com:8443/x',
      'https://contoso.webhook.office.com/x',
    ])
      expect(refusal('slack', url), url).toBe(M.slackHost);
    for (const url of [
      'https://webhook.office.com/x',
      'https://logic.azure.com.evil.example/x',
      'https://hooks.slack.com/x',
    ])
      expect(refusal('teams', url), url).toBe(M.teamsHost);
    expect(refusal('slack', 'not a url')).toBe(M.badUrl);
  });

  it('CHAT_WEBHOOK_HOSTS replaces the lists (a test stand-in), and nothing else widens them', () => {
    const stand = chatHostPolicy({ CHAT_WEBHOOK_HOSTS: '127.0.0.1, localhost' });
    expect(() => checkChatUrl(stand, 'slack', 'http://127.0.0.1:9999/x')).not.toThrow();
    expect(() => checkChatUrl(stand, 'slack', 'https://hooks.slack.com/services/x')).toThrow(M.slackHost);
  });

  it('lets chat destinations take new disputes and the digest only, and the digest only chat', () => {
    expect(eventsProblem('slack', ['CASE_CREATED', 'DEADLINE_DIGEST'])).toBeNull();
    expect(eventsProblem('teams', ['ALERT_CREATED'])).toBe(M.chatEvents);
    expect(eventsProblem('signed', ['DEADLINE_DIGEST'])).toBe(M.digestSignedOnly);
    expect(eventsProblem('signed', ['CASE_CREATED'])).toBeNull();
  });
});

describe('chat messages', () => {
  const payload = {
    id: '00000000-0000-4000-8000-000000000001',
    type: 'DEADLINE_DIGEST' as const,
    created: '2031-03-10T08:30:00.000Z',
    tenant: 'acme',
    merchant_id: 1,
    data: {
      cases: Array.from({ length: 12 }, (_, i) => ({
        id: 100 + i,
        business_name: i === 0 ? 'A <b>&</b> B' : 'Shop',
        date_due: '2031-03-12',
        threshold: i < 2 ? '24h' : '5d',
      })),
    },
  };

  it('keeps a digest short and escapes what Slack would read as markup', () => {
    const slack = JSON.parse(chatMessageBody('slack', payload, 'https://acme.example')) as {
      text: string;
      blocks: { text?: { text: string } }[];
    };
    expect(slack.text).toBe('Chargeback deadlines: 12 cases due soon, 2 within 24 hours');
    const lines = slack.blocks[1]!.text!.text.split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe(
      '<https://acme.example/chargebacks?search=100|Case 100 - A &lt;b&gt;&amp;&lt;/b&gt; B - due 2031-03-12 (within 24 hours)>',
    );
    expect(lines[10]).toBe('and 2 more');
  });

  it('writes a Teams message with one Adaptive Card linking each case', () => {
    const teams = JSON.parse(chatMessageBody('teams', payload, 'https://acme.example')) as {
      attachments: { content: { body: { text: string }[]; actions: { url: string }[] } }[];
    };
    const card = teams.attachments[0]!.content;
    expect(card.body[1]!.text).toContain('](https://acme.example/chargebacks?search=100)');
    expect(card.actions[0]!.url).toBe('https://acme.example/chargebacks');
  });
});
