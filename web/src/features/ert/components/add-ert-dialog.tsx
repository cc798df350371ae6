import { Field, Input, Stack, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { GENERIC_ERROR } from '../../../lib/errors';
import { addErt } from '../api/ert-api';

/** Add ERT (spec 2 §2.4, spec 3 §5): a case id and the required content; Add disabled until valid and changed. */
export function AddErtDialog({
  onClose,
  onDone,
}: {
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [caseId, setCaseId] = useState('');
  const [content, setContent] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const validCase = /^[0-9]{1,15}$/.test(caseId.trim());
  const valid = validCase && content.trim().length > 0;

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      const r = await addErt(Number(caseId.trim()), content.trim());
      onDone(r.message);
    } catch (e) {
      setError((e as Error).message || GENERIC_ERROR);
    } finally {
      setBusy(false);
    }
  }

  return (
    <DialogFrame
      title="Add ERT"
      testId="add-ert-dialog"
      onClose={onClose}
      footer={
        <DialogActions
          onCancel={onClose}
          primary={{ label: 'Add', onClick: () => void submit(), disabled: !valid || busy, loading: busy }}
        />
      }
    >
      <Stack gap="3">
        <Field.Root required invalid={touched && !validCase}>
          <Field.Label>CB ID</Field.Label>
          <Input
            name="case-id"
            value={caseId}
            onChange={(e) => setCaseId(e.target.value)}
            onBlur={() => setTouched(true)}
          />
          {touched && !validCase && <Field.ErrorText>A case id is required.</Field.ErrorText>}
        </Field.Root>
        <Field.Root required invalid={touched && !content.trim()}>
          <Field.Label>Content</Field.Label>
          <Textarea
            name="content"
            rows={4}
            maxLength={10000}
            value={content}
            onChange={(e) => setContent(e.target.value)}
            onBlur={() => setTouched(true)}
          />
          {touched && !content.trim() && <Field.ErrorText>This field is required</Field.ErrorText>}
        </Field.Root>
        {error && <Notice status="error">{error}</Notice>}
      </Stack>
    </DialogFrame>
  );
}
