import type { CaseRow } from '@portal/contracts';
import { Field, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { CaseDialog } from '../../../components/dialogs/case-dialog';

/** Flag / Unflag Chargeback(s): a flagged case (or selection) shows Unflag; flagging takes an optional comment. */
export function FlagDialog({
  cases,
  onSubmit,
  onClose,
  busy,
}: {
  cases: CaseRow[];
  onSubmit: (flag: boolean, comment: string) => void;
  onClose: () => void;
  busy: boolean;
}) {
  const unflag = cases.every((c) => c.flag?.is_flagged);
  const [comment, setComment] = useState('');
  const plural = cases.length > 1 ? 's' : '';
  return (
    <CaseDialog
      title={`${unflag ? 'Unflag' : 'Flag'} Chargeback${plural}`}
      onClose={onClose}
      testId="flag-dialog"
      primary={{
        label: unflag ? 'Unflag' : 'Flag',
        onClick: () => onSubmit(!unflag, comment),
        loading: busy,
      }}
    >
      <Text mb="3">
        {cases.length > 1
          ? `${cases.length} cases selected.`
          : `Case ${cases[0]?.case_no ?? ''} (CB ID ${cases[0]?.id ?? ''})`}
      </Text>
      {!unflag && (
        <Field.Root>
          <Field.Label>Comment</Field.Label>
          <Textarea value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} rows={3} />
        </Field.Root>
      )}
    </CaseDialog>
  );
}
