import {
  isProviderStaff,
  type LiveMessage,
  type PublishedLiveMessage,
  type UserProfile,
} from '@portal/contracts';

/**
 * Who may hear what on the live stream: the same rules as the calls that
 * read the data (design §4, "services enforce data scope").
 * - A job: its creator; and the tenant's provider staff, who read every job
 *   list of the tenant (case updater uploads, bulk jobs, onboarding files).
 * - A domain event: provider staff of the tenant; anyone else only when their
 *   merchant is the event's merchant or one above it (their merchant subtree).
 *   Users limited to some MIDs (allow / exclude lists) only for those MIDs.
 * The channel is per tenant, so another tenant's messages never arrive here.
 */
export interface LiveViewer {
  userId: number;
  staff: boolean;
  merchantId: number;
  midsAllowed: readonly string[];
  midsExcluded: readonly string[];
}

export function viewerOf(profile: UserProfile): LiveViewer {
  return {
    userId: profile.id,
    staff: isProviderStaff(profile.roles),
    merchantId: profile.merchant.id,
    midsAllowed: profile.mids_allowed,
    midsExcluded: profile.mids_excluded,
  };
}

/** MID lists hold MID numbers (as users see them) or MID ids. */
function midVisible(viewer: LiveViewer, mid: string | undefined, midId: number | undefined): boolean {
  const names = [mid, midId === undefined ? undefined : String(midId)].filter(
    (n): n is string => n !== undefined,
  );
  if (names.some((n) => viewer.midsExcluded.includes(n))) return false;
  if (!viewer.midsAllowed.length) return true;
  return names.some((n) => viewer.midsAllowed.includes(n));
}

export function mayReceive(viewer: LiveViewer, message: PublishedLiveMessage): boolean {
  if (message.kind === 'job') return viewer.staff || message.created_by === viewer.userId;
  if (!viewer.staff && !message.merchant_path.includes(viewer.merchantId)) return false;
  return midVisible(viewer, message.mid, message.mid_id);
}

/** What the browser gets: the filtering data (hierarchy above the user, MIDs) stays in the gateway. */
export function toBrowser(message: PublishedLiveMessage): LiveMessage {
  if (message.kind === 'job') return message;
  const { merchant_path: _path, mid: _mid, mid_id: _midId, ...rest } = message;
  return rest;
}

/** A published message as parsed from the channel, or undefined when it is not one. */
export function parseMessage(raw: string): PublishedLiveMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const m = value as Partial<PublishedLiveMessage>;
  if (m.kind === 'job' && typeof m.id === 'string') return m as PublishedLiveMessage;
  if (m.kind === 'event' && Array.isArray(m.merchant_path) && typeof m.merchant_id === 'number')
    return m as PublishedLiveMessage;
  return undefined;
}
