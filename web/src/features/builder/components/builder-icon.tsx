import { CASE_BUILDER_ROLE, CASE_BUILDER_TABS, type CaseRow, type UserProfile } from '@portal/contracts';
import { IconButton } from '@chakra-ui/react';
import { LineIcon } from './builder-icons';

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

export function BuilderIcon({
  row,
  state,
  onOpen,
}: {
  row: CaseRow;
  state: 'disabled' | 'enabled';
  onOpen: (row: CaseRow) => void;
}) {
  return (
    <IconButton
      size="2xs"
      variant="ghost"
      aria-label={`Case Builder for case ${row.id}`}
      title={state === 'enabled' ? 'Case Builder' : 'Case Builder (assign the case to yourself first)'}
      disabled={state === 'disabled'}
      onClick={() => onOpen(row)}
      data-testid={`builder-icon-${row.id}`}
    >
      <LineIcon name="wrench" size={14} />
    </IconButton>
  );
}
