import type { CaseRow } from '@portal/contracts';
import { Button, Field, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useAssignableUsers } from '../../lib/get-assignable-users';
import { CaseDialog } from './case-dialog';

/** Assign Case / Bulk Assign Cases: pick a manager or agent (500 ms search debounce); Unassign when assigned. */
export function AssignDialog({
  cases,
  onSubmit,
  onClose,
  busy,
}: {
  cases: CaseRow[];
  onSubmit: (userId: number | null) => void;
  onClose: () => void;
  busy: boolean;
}) {
  const bulk = cases.length > 1;
  const current = !bulk ? (cases[0]?.assigned_user ?? null) : null;
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [userId, setUserId] = useState<string>('');
  useEffect(() => {
    const t = setTimeout(() => setSearch(text.trim()), 500);
    return () => clearTimeout(t);
  }, [text]);
  const users = useAssignableUsers(search);
  return (
    <CaseDialog
      title={bulk ? 'Bulk Assign Cases' : 'Assign Case'}
      onClose={onClose}
      testId="assign-dialog"
      primary={{ label: 'Assign', onClick: () => onSubmit(Number(userId)), disabled: !userId, loading: busy }}
    >
      <Stack gap="3">
        <Text>
          {bulk
            ? `${cases.length} cases selected.`
            : `Case ${cases[0]?.case_no ?? ''} (CB ID ${cases[0]?.id ?? ''})`}
        </Text>
        {current && (
          <Stack direction="row" align="center" justify="space-between">
            <Text data-testid="assigned-to">
              Assigned to {current.fname} {current.lname} ({current.username})
            </Text>
            <Button
              size="sm"
              variant="outline"
              colorPalette="red"
              onClick={() => onSubmit(null)}
              loading={busy}
            >
              Unassign
            </Button>
          </Stack>
        )}
        {bulk && (
          <Button size="sm" variant="outline" alignSelf="start" onClick={() => onSubmit(null)} loading={busy}>
            Unassign selected cases
          </Button>
        )}
        <Field.Root>
          <Field.Label>Search users</Field.Label>
          <Input value={text} onChange={(e) => setText(e.target.value)} placeholder="Name or username" />
        </Field.Root>
        <Field.Root>
          <Field.Label>User</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              aria-label="User"
              value={userId}
              onChange={(e) => setUserId(e.target.value)}
              data-testid="assign-user"
            >
              <option value="">Select a user</option>
              {(users.data ?? []).map((u) => (
                <option key={u.id} value={u.id}>
                  {u.fname} {u.lname} ({u.username})
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {users.isSuccess && !users.data.length && <Field.HelperText>No results found</Field.HelperText>}
        </Field.Root>
      </Stack>
    </CaseDialog>
  );
}
