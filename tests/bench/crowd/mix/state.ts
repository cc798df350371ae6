import type { SimUser } from '../types';

/** What the mix needs of the signed-in user's profile (POST /api/users/whoami). */
export interface Profile {
  id: number;
  roles: string[];
  isReadOnly: boolean;
  merchantId: number;
  /** Page roles (resources) by alias: QC_REVIEW_CHECKBOX shows the upload modal's QC box. */
  resources: Set<string>;
}

/** The tenant bootstrap (GET /api/tenant) parts the screens depend on. */
export interface TenantLayout {
  tiles: string[];
  pieChart: string;
  reportCharts: string[];
}

/** A case as a list row showed it: what later operations need to act on it as the grid would. */
export interface KnownCase {
  id: number;
  caseNo: string;
  orderId: string | null;
  arn: string | null;
  lastFour: string | null;
  mid: string;
  midId: number;
  merchantId: number;
  merchantName: string;
  statusId: number;
  statusGroupId: number;
  verdictId: number;
  reasonCodeId: number;
  currencyId: number;
  disputeAmt: number;
  processorInvoiceId: string | null;
  flag: { id: number; isFlagged: boolean } | null;
  assignedUserId: number | null;
  canUpload: boolean;
  canAssign: boolean;
  hasDocument: boolean;
}

/** Counters of the live stream, for the driver's report. */
export interface LiveStats {
  connects: number;
  ready: number;
  messages: number;
  ends: number;
  refusals: number;
  failures: number;
}

/** Everything the mix keeps per simulated user, under user.memory.mix. */
export interface MixState {
  profile?: Profile;
  tenant?: TenantLayout;
  /** Status groups whose cases may not be edited (stack config edit_disabled_status_groups). */
  editDisabledGroups: number[];
  /** Cases seen in this user's lists, newest last (bounded). */
  cases: Map<number, KnownCase>;
  /** Verdict and lookup lists already loaded once (the web app caches them). */
  loaded: Set<string>;
  /** The assignable staff (GET /users/users by role), once loaded. */
  assignees?: Array<{ id: number; label: string }>;
  /** One sign-in or refresh at a time per user. */
  session?: Promise<void>;
  /** Writes refused by business rules (another case was tried): not errors. */
  refusals: number;
  /** Operations that found nothing to act on (no case in a state the action needs). */
  skipped: Record<string, number>;
  live: LiveStats;
}

const MAX_KNOWN_CASES = 400;

export function stateOf(user: SimUser): MixState {
  let state = user.memory.mix as MixState | undefined;
  if (!state) {
    state = {
      editDisabledGroups: [],
      cases: new Map(),
      loaded: new Set(),
      refusals: 0,
      skipped: {},
      live: { connects: 0, ready: 0, messages: 0, ends: 0, refusals: 0, failures: 0 },
    };
    user.memory.mix = state;
  }
  return state;
}

/** Keeps (or refreshes) a case; the oldest ones are forgotten past the bound. */
export function rememberCase(state: MixState, c: KnownCase): void {
  state.cases.delete(c.id);
  state.cases.set(c.id, c);
  while (state.cases.size > MAX_KNOWN_CASES) {
    const oldest = state.cases.keys().next().value;
    if (oldest === undefined) break;
    state.cases.delete(oldest);
  }
}

export function forgetCase(state: MixState, id: number): void {
  state.cases.delete(id);
}

export function countSkip(state: MixState, what: string): void {
  state.skipped[what] = (state.skipped[what] ?? 0) + 1;
}

/** Provider staff (admin, manager, agent): the whole tenant, and the only ones who assign cases. */
export function isStaff(profile: Profile | undefined): boolean {
  return !!profile?.roles.some((r) => r === 'cb911_admin' || r === 'cb911_manager' || r === 'cb911_agent');
}
