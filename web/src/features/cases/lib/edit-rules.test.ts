import { describe, expect, it } from 'vitest';
import { editRule, READ_ONLY_EDIT } from './edit-rules';

const completed = { status_group_id: 3, status_group: 'Completed' };
const open = { status_group_id: 1, status_group: 'New' };
const northbank = { edit_disabled_status_groups: [3], edit_verdict_only: false };

describe('edit button rules (spec 2 §4, §5)', () => {
  it('disables edit for the configured status groups, with the reason', () => {
    expect(editRule(completed, northbank, false)).toEqual({
      disabledReason: 'Editing is disabled for Completed cases.',
      verdictOnly: false,
    });
    expect(editRule(open, northbank, false).disabledReason).toBeNull();
    expect(
      editRule(completed, { ...northbank, edit_disabled_status_groups: [] }, false).disabledReason,
    ).toBeNull();
  });

  it('disables edit for read-only users whatever the group', () => {
    expect(editRule(open, northbank, true).disabledReason).toBe(READ_ONLY_EDIT);
  });

  it('passes the verdict-only switch on; nothing is disabled before the config loads', () => {
    expect(editRule(open, { edit_disabled_status_groups: [], edit_verdict_only: true }, false)).toEqual({
      disabledReason: null,
      verdictOnly: true,
    });
    expect(editRule(completed, undefined, false)).toEqual({ disabledReason: null, verdictOnly: false });
  });
});
