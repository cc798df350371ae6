import { describe, expect, it } from 'vitest';
import { builderIconState } from './builder-icon-state';

const me = { id: 7, roles: ['cb911_manager', 'case-builder'], is_read_only: false };
const row = (status_id: number, assigned: number | null = null) => ({
  status_id,
  assigned_user: assigned === null ? null : { id: assigned, fname: 'A', lname: 'B', username: 'ab' },
});

describe('builder icon state', () => {
  it('keeps the spec rule on the builder tabs', () => {
    expect(builderIconState(me, 'new_cases', row(1))).toBe('enabled');
    expect(builderIconState(me, 'in_progress', row(2))).toBe('disabled');
    expect(builderIconState(me, 'in_progress', row(2, 7))).toBe('enabled');
    expect(builderIconState(me, 'assigned', row(3, 7))).toBe('enabled');
    expect(builderIconState({ ...me, roles: ['cb911_manager'] }, 'new_cases', row(1))).toBe('hidden');
  });

  it('shows on Working Cases (and other tabs) when the case itself qualifies (issue 29)', () => {
    // New: enabled as on the New tab; Working: assigned to the user or disabled with its reason.
    expect(builderIconState(me, 'working_cases', row(1))).toBe('enabled');
    expect(builderIconState(me, 'working_cases', row(2))).toBe('disabled');
    expect(builderIconState(me, 'working_cases', row(2, 7))).toBe('enabled');
    expect(builderIconState(me, 'working_cases', row(16, 7))).toBe('enabled');
    expect(builderIconState(me, null, row(1))).toBe('enabled');
    // Not a status the builder works on (compiling, completed, DNR): no icon.
    for (const status of [3, 4, 5, 6, 10])
      expect(builderIconState(me, 'working_cases', row(status, 7))).toBe('hidden');
    expect(builderIconState({ ...me, is_read_only: true }, 'working_cases', row(1))).toBe('disabled');
    expect(builderIconState({ ...me, roles: ['cb911_manager'] }, 'working_cases', row(1))).toBe('hidden');
  });
});
