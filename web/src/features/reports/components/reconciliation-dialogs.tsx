import { Field, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';

export type ReconciliationAction = 'flag' | 'unflag' | 'review';

const TITLES: Record<ReconciliationAction, string> = {
  flag: 'Flag Report',
  unflag: 'Unflag Report',
  review: 'Mark Reviewed',
};

/** Flag (with a comment), Unflag and Mark Reviewed dialogs of the reconciliation grid (spec 3 §2). */
export function ReconciliationDialog({
  action,
  count,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  action: ReconciliationAction;
  count: number;
  busy: boolean;
  error: string | null;
  onConfirm: (comment: string) => void;
  onClose: () => void;
}) {
  const [comment, setComment] = useState('');
  const needsComment = action === 'flag';
  return (
    <DialogFrame
      title={TITLES[action]}
      testId={`reconciliation-${action}-dialog`}
      onClose={onClose}
      footer={
        <DialogActions
          onCancel={onClose}
          cancelDisabled={busy}
          primary={{
            label: TITLES[action],
            onClick: () => onConfirm(comment.trim()),
            loading: busy,
            disabled: needsComment && !comment.trim(),
            testId: 'reconciliation-confirm',
          }}
        />
      }
    >
      <Text mb="3">
        {count} selected row{count === 1 ? '' : 's'}
      </Text>
      {needsComment && (
        <Field.Root required>
          <Field.Label>Comment</Field.Label>
          <Textarea
            value={comment}
            maxLength={1000}
            onChange={(e) => setComment(e.target.value)}
            data-testid="reconciliation-comment"
          />
        </Field.Root>
      )}
      {error && (
        <Notice status="error" testId="reconciliation-error">
          {error}
        </Notice>
      )}
    </DialogFrame>
  );
}
