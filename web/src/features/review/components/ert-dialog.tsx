import { Field, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { CaseDialog } from '../../../components/dialogs/case-dialog';

/** Add ERT: content is required; Add stays disabled until the form is valid and changed. */
export function ErtDialog({
  onSubmit,
  onClose,
  busy,
}: {
  onSubmit: (content: string) => void;
  onClose: () => void;
  busy: boolean;
}) {
  const [content, setContent] = useState('');
  const valid = content.trim().length > 0;
  return (
    <CaseDialog
      title="Add ERT"
      onClose={onClose}
      testId="ert-dialog"
      primary={{ label: 'Add', onClick: () => onSubmit(content.trim()), disabled: !valid, loading: busy }}
    >
      <Field.Root required invalid={content.length > 0 && !valid}>
        <Field.Label>
          Content <Field.RequiredIndicator />
        </Field.Label>
        <Textarea
          aria-label="Content"
          value={content}
          onChange={(e) => setContent(e.target.value)}
          rows={5}
          maxLength={10000}
        />
        <Field.ErrorText>Content is required.</Field.ErrorText>
      </Field.Root>
    </CaseDialog>
  );
}
