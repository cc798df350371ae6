import { Field, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { CaseDialog } from '../../../components/dialogs/case-dialog';

/** Add Comment: title 'Add Comment', subtitle 'Comment', Cancel and Submit ('Submitting...'). */
export function AddCommentDialog({
  title = 'Add Comment',
  subtitle = 'Comment',
  onSubmit,
  onClose,
  busy,
}: {
  title?: string;
  subtitle?: string;
  onSubmit: (text: string) => void;
  onClose: () => void;
  busy: boolean;
}) {
  const [text, setText] = useState('');
  return (
    <CaseDialog
      title={title}
      onClose={onClose}
      testId="comment-dialog"
      primary={{
        label: 'Submit',
        onClick: () => onSubmit(text.trim()),
        disabled: !text.trim(),
        loading: busy,
        loadingText: 'Submitting...',
      }}
    >
      <Field.Root>
        <Field.Label>{subtitle}</Field.Label>
        <Textarea value={text} onChange={(e) => setText(e.target.value)} rows={4} maxLength={2000} />
      </Field.Root>
    </CaseDialog>
  );
}
