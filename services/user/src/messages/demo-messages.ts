import type { Queryable } from '@portal/core';

interface DemoMessage {
  header: string;
  sub_header: string;
  message: string;
  show_on: string[];
  actions: Record<string, { label: string; redirect: string | null }>;
}

/**
 * The demo tenants' in-app messages (spec 3 §2 Messages). Both show on /help,
 * so that the later one shows first and the earlier one after it is acted on;
 * none on the landing page, where a dialog would stand in every sign-in's way.
 */
function demoMessages(tenantName: string): DemoMessage[] {
  return [
    {
      header: 'Help topics for every screen',
      sub_header: 'Find answers faster',
      message:
        'Each card on this page explains one part of the portal and opens the screen it is about. Write to support from here when you need more.',
      show_on: ['/help'],
      actions: { accept: { label: 'Got it', redirect: null }, close: { label: 'Close', redirect: null } },
    },
    {
      header: `Welcome to ${tenantName}`,
      sub_header: 'New: pre-chargeback alerts',
      message:
        'Alerts let you refund a disputed transaction before it becomes a chargeback. Would you like to learn more?',
      show_on: ['/help'],
      actions: {
        accept: { label: 'Show me', redirect: '/alerts' },
        deny: { label: 'Not now', redirect: null },
        close: { label: 'Close', redirect: null },
      },
    },
  ];
}

export async function seedDemoMessages(tx: Queryable, tenant: { id: string; name: string }): Promise<void> {
  for (const m of demoMessages(tenant.name)) {
    await tx.query(
      `insert into users.messages (tenant, header, sub_header, message, show_on, actions) values ($1, $2, $3, $4, $5, $6)`,
      [tenant.id, m.header, m.sub_header, m.message, m.show_on, JSON.stringify(m.actions)],
    );
  }
}
