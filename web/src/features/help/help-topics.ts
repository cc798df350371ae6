/**
 * The help topics of spec 3 §2 (Help): the product's seven topics, shown
 * according to the topic titles configured for the tenant (its
 * `help_topics`, matched without regard to case). A configured body replaces
 * the product's description; a configured title the product does not know
 * becomes its own card with the configured body.
 */
export interface HelpTopic {
  title: string;
  description: string;
  /** The screen the topic is about, offered when the user may open it. */
  screen?: { label: string; path: string; feature: string };
}

export const HELP_TOPICS: readonly HelpTopic[] = [
  {
    title: 'Chargebacks',
    description:
      'How chargebacks reach the portal, what the reason codes and due dates mean, and how to respond before a case expires.',
    screen: { label: 'Open Chargebacks', path: '/chargebacks', feature: 'chargebacks' },
  },
  {
    title: 'Alerts',
    description:
      'Pre-chargeback alerts let you refund a disputed transaction before it becomes a chargeback: reviewing, answering and automating them.',
    screen: { label: 'Open Alerts', path: '/alerts', feature: 'alerts' },
  },
  {
    title: 'Case Management',
    description:
      'Searching, filtering, flagging, assigning and editing cases, and exporting the lists you work from.',
    screen: { label: 'Open Case Management', path: '/case-management', feature: 'case-management' },
  },
  {
    title: 'User Management',
    description:
      'Adding users, choosing their role and company, site and MID permissions, locking accounts and temporary passwords.',
    screen: { label: 'Open Users', path: '/users', feature: 'users' },
  },
  {
    title: 'Profile Settings',
    description:
      'Changing your email and password, choosing your notifications and reading your login history.',
    screen: { label: 'Open Profile Settings', path: '/settings', feature: 'settings' },
  },
  {
    title: 'ERTs',
    description: 'Recording, approving and resolving ERT records, one at a time or in bulk from a file.',
    screen: { label: 'Open ERT', path: '/ert', feature: 'ert' },
  },
  {
    title: 'Review and Response Features',
    description:
      'Uploading representment documents, templates, quality review and the CE 3.0 remedy: how a response is built and sent.',
    screen: { label: 'Open Templates Library', path: '/template-library', feature: 'templatelib' },
  },
];

export interface HelpCard {
  key: string;
  title: string;
  description: string;
  screen?: HelpTopic['screen'];
  /** The topic's video, a same-origin path the tenant configures (played in a dialog). */
  videoUrl?: string;
}

const norm = (s: string) => s.trim().toLowerCase();

/** The cards of the tenant's configured topics, in configured order; the screen link only with its feature. */
export function helpCards(
  configured: readonly { title: string; body: string; video_url?: string }[],
  features: ReadonlySet<string>,
): HelpCard[] {
  const seen = new Set<string>();
  const cards: HelpCard[] = [];
  for (const c of configured) {
    const key = norm(c.title);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    const known = HELP_TOPICS.find((t) => norm(t.title) === key);
    const screen = known?.screen && features.has(known.screen.feature) ? known.screen : undefined;
    cards.push({
      key,
      title: known?.title ?? c.title.trim(),
      description: c.body.trim() || known?.description || '',
      screen,
      // Only the gateway's own tenant-asset paths: the page's CSP allows media from its origin only.
      ...(c.video_url?.startsWith('/tenant-assets/') ? { videoUrl: c.video_url } : {}),
    });
  }
  return cards;
}
