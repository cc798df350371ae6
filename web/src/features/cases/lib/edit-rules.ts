import type { CaseRow, StackConfig } from '@portal/contracts';

export interface EditRule {
  /** Why 'Edit Chargeback' is disabled for this case, or null when it is enabled. */
  disabledReason: string | null;
  /** The edit form asks the verdict only. */
  verdictOnly: boolean;
}

export const READ_ONLY_EDIT = 'Read-only users cannot edit chargebacks.';

/**
 * The edit button's rules (spec 2 §4: disabled for configured status groups
 * and for read-only users; §5: configuration can make it verdict-only), from
 * the user's stack configuration. Until that has loaded nothing is disabled.
 */
export function editRule(
  row: Pick<CaseRow, 'status_group_id' | 'status_group'>,
  config: Pick<StackConfig, 'edit_disabled_status_groups' | 'edit_verdict_only'> | undefined,
  readOnly: boolean,
): EditRule {
  const verdictOnly = config?.edit_verdict_only ?? false;
  if (readOnly) return { disabledReason: READ_ONLY_EDIT, verdictOnly };
  if (config?.edit_disabled_status_groups.includes(row.status_group_id))
    return { disabledReason: `Editing is disabled for ${row.status_group || 'these'} cases.`, verdictOnly };
  return { disabledReason: null, verdictOnly };
}
