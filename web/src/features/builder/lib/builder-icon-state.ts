import { CASE_BUILDER_ROLE, CASE_BUILDER_TABS, type CaseRow, type UserProfile } from '@portal/contracts';

/**
 * Whether the builder icon shows on a grid tab and whether it is enabled
 * (spec 2 §2.1, §6): users holding the case-builder role, on tabs new_cases,
 * assigned and in_progress; enabled when the tab is new_cases or the case is
 * assigned to the user, never for read-only users.
 */
export function builderIconState(
  profile: Pick<UserProfile, 'id' | 'roles' | 'is_read_only'>,
  tab: string | null,
  row: Pick<CaseRow, 'assigned_user'>,
): 'hidden' | 'disabled' | 'enabled' {
  if (!profile.roles.includes(CASE_BUILDER_ROLE)) return 'hidden';
  if (!tab || !(CASE_BUILDER_TABS as readonly string[]).includes(tab)) return 'hidden';
  if (profile.is_read_only) return 'disabled';
  return tab === 'new_cases' || row.assigned_user?.id === profile.id ? 'enabled' : 'disabled';
}
