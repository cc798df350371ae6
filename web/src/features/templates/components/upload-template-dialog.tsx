import { Box, Checkbox, Field, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { GENERIC_DOCUMENT_TYPE_ID, TEMPLATE_MESSAGES } from '@portal/contracts';
import { useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { GENERIC_ERROR } from '../../../lib/errors';
import { useCreateTemplate } from '../api/create-template';
import { useMerchantMids } from '../api/get-merchant-mids';
import { useTemplateTypes } from '../api/get-template-types';
import { checkTemplateFile, type CheckedFile } from './check-template-file';

/** Upload Template: name, type, document type, MIDs and one JPEG or PDF, checked before it is sent. */
export function UploadTemplateDialog({
  merchantId,
  onClose,
  onDone,
}: {
  merchantId: number;
  onClose: () => void;
  onDone: () => void;
}) {
  const types = useTemplateTypes();
  const mids = useMerchantMids(merchantId);
  const create = useCreateTemplate();
  const [name, setName] = useState('');
  const [documentTypeId, setDocumentTypeId] = useState(String(GENERIC_DOCUMENT_TYPE_ID));
  const [midIds, setMidIds] = useState<number[]>([]);
  const [file, setFile] = useState<CheckedFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);

  const nameError = touched && !name.trim() ? 'Template name is required.' : null;
  const valid = !!name.trim() && !!file && !fileError && !checking;

  async function pick(f: File | undefined) {
    setFile(null);
    setFileError(null);
    setError(null);
    if (!f) return;
    setChecking(true);
    try {
      const checked = await checkTemplateFile(f);
      setFile(checked);
      if (!name.trim()) setName(f.name.replace(/\.[^.]+$/, ''));
    } catch (e) {
      setFileError((e as Error).message);
    } finally {
      setChecking(false);
    }
  }

  function submit() {
    setTouched(true);
    if (!file) {
      setFileError(TEMPLATE_MESSAGES.noFile);
      return;
    }
    if (!valid) return;
    setError(null);
    create.mutate(
      { merchantId, name: name.trim(), documentTypeId: Number(documentTypeId) || null, midIds, file },
      { onSuccess: onDone, onError: (e) => setError(e.message || GENERIC_ERROR) },
    );
  }

  return (
    <DialogFrame
      title="Upload Template"
      testId="upload-template-dialog"
      onClose={onClose}
      footer={
        <DialogActions
          onCancel={onClose}
          primary={{
            label: 'Upload',
            onClick: submit,
            disabled: !valid,
            loading: create.isPending || checking,
            loadingText: 'Uploading',
          }}
        />
      }
    >
      <Stack gap="4">
        <Field.Root required invalid={!!nameError}>
          <Field.Label>Template Name</Field.Label>
          <Input
            name="template-name"
            value={name}
            maxLength={200}
            onChange={(e) => setName(e.target.value)}
            onBlur={() => setTouched(true)}
          />
          {nameError && <Field.ErrorText>{nameError}</Field.ErrorText>}
        </Field.Root>
        <Field.Root>
          <Field.Label>Template Type</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field name="template-type" value="1" onChange={() => undefined}>
              {(types.data?.template_types ?? [{ id: 1, name: 'Basic' }]).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Field.Root>
          <Field.Label>Document Type</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              name="document-type"
              value={documentTypeId}
              onChange={(e) => setDocumentTypeId(e.target.value)}
            >
              {(types.data?.document_types ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {types.data && !types.data.document_types.length && (
            <Field.HelperText>No document types found.</Field.HelperText>
          )}
        </Field.Root>
        <Box>
          <Text fontWeight="medium" fontSize="sm" mb="1">
            MIDs (optional)
          </Text>
          <Box
            maxH="120px"
            overflowY="auto"
            borderWidth="1px"
            borderRadius="md"
            p="2"
            data-testid="template-mids"
          >
            {mids.data?.data.length ? (
              mids.data.data.map((m) => (
                <Checkbox.Root
                  key={m.id}
                  size="sm"
                  display="flex"
                  checked={midIds.includes(m.id)}
                  onCheckedChange={(e) =>
                    setMidIds((ids) => (e.checked ? [...ids, m.id] : ids.filter((i) => i !== m.id)))
                  }
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>{m.alias ? `${m.mid} (${m.alias})` : m.mid}</Checkbox.Label>
                </Checkbox.Root>
              ))
            ) : (
              <Text color="gray.500" fontSize="sm">
                {mids.isLoading ? 'Loading…' : 'No results found'}
              </Text>
            )}
          </Box>
        </Box>
        <Field.Root required invalid={!!fileError}>
          <Field.Label>File (JPG or PDF)</Field.Label>
          <Input
            type="file"
            name="template-file"
            accept=".jpg,.jpeg,.pdf,image/jpeg,application/pdf"
            p="1"
            onChange={(e) => void pick(e.target.files?.[0])}
          />
          {file && !fileError && (
            <Field.HelperText data-testid="template-file-info">
              {`${file.file.name}: ${file.pages} page${file.pages === 1 ? '' : 's'}`}
            </Field.HelperText>
          )}
          {fileError && <Field.ErrorText data-testid="template-file-error">{fileError}</Field.ErrorText>}
        </Field.Root>
        {error && (
          <Text color="red.600" data-testid="upload-template-error">
            {error}
          </Text>
        )}
      </Stack>
    </DialogFrame>
  );
}
