import { REVIEW_ACTIONS } from '@portal/contracts';
import { Field, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { CaseDialog } from '../../../components/dialogs/case-dialog';

/** An admin review action by id, with an optional note. */
export function ReviewActionDialog({
  caseLabel,
  initialAction,
  onSubmit,
  onClose,
  busy,
}: {
  caseLabel: string;
  initialAction?: number;
  onSubmit: (actionId: number, note: string) => void;
  onClose: () => void;
  busy: boolean;
}) {
  const [actionId, setActionId] = useState(String(initialAction ?? ''));
  const [note, setNote] = useState('');
  return (
    <CaseDialog
      title="Review Action"
      onClose={onClose}
      testId="review-action-dialog"
      primary={{
        label: 'Submit',
        onClick: () => onSubmit(Number(actionId), note.trim()),
        disabled: !actionId,
        loading: busy,
        loadingText: 'Submitting...',
      }}
    >
      <Stack gap="3">
        <Text>{caseLabel}</Text>
        <Field.Root required>
          <Field.Label>Action</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              aria-label="Action"
              value={actionId}
              onChange={(e) => setActionId(e.target.value)}
              data-testid="review-action"
            >
              <option value="">Select an action</option>
              {REVIEW_ACTIONS.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Field.Root>
          <Field.Label>Note (optional)</Field.Label>
          <Textarea
            aria-label="Note"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            rows={3}
            maxLength={2000}
          />
        </Field.Root>
      </Stack>
    </CaseDialog>
  );
}
