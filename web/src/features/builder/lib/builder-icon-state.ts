import {
  BUILDABLE_STATUSES,
  CASE_BUILDER_ROLE,
  CASE_BUILDER_TABS,
  type CaseRow,
  type UserProfile,
} from '@portal/contracts';

/**
 * Whether the builder icon shows on a grid tab and whether it is enabled
 * (spec 2 §2.1, §6): users holding the case-builder role, on tabs new_cases,
 * assigned and in_progress; enabled when the tab is new_cases or the case is
 * assigned to the user, never for read-only users.
 *
 * Elsewhere (the default 'Working Cases' tab, the expiring tabs, a search from
 * them; issue 29) a case qualifies by itself: the icon shows when the builder
 * can work on the case (BUILDABLE_STATUSES: New, Working, held for upload, the
 * builder service's own rule) and is enabled on the same terms as on the
 * builder tabs: a New case (what the New tab lists) or one assigned to the user.
 */
export function builderIconState(
  profile: Pick<UserProfile, 'id' | 'roles' | 'is_read_only'>,
  tab: string | null,
  row: Pick<CaseRow, 'assigned_user' | 'status_id'>,
): 'hidden' | 'disabled' | 'enabled' {
  if (!profile.roles.includes(CASE_BUILDER_ROLE)) return 'hidden';
  const builderTab = !!tab && (CASE_BUILDER_TABS as readonly string[]).includes(tab);
  if (!builderTab && !BUILDABLE_STATUSES.includes(row.status_id)) return 'hidden';
  if (profile.is_read_only) return 'disabled';
  const isNew = builderTab ? tab === 'new_cases' : row.status_id === 1;
  return isNew || row.assigned_user?.id === profile.id ? 'enabled' : 'disabled';
}
