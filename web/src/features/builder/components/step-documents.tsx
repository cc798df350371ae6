import { BUILDER_MESSAGES as M, type DocType } from '@portal/contracts';
import { Badge, Box, Button, Field, HStack, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { useRef, useState } from 'react';
import { useRepresentmentTemplates } from '../../../lib/get-representment-templates';
import {
  BUILDER_FILE_ACCEPT,
  checkAddition,
  fileType,
  kb,
  stagedFormat,
  type StagedDoc,
} from '../lib/staged';

let nextKey = 1;

/**
 * Step 3: the document types (required ones marked), a JPG or PDF file (as
 * the representment upload takes, issue 29) or a library template per chosen
 * type, and the staged list. Files go to the store when the step is saved.
 */
export function StepDocuments({
  types,
  merchantId,
  staged,
  onStaged,
  maxBytes,
  error,
  onError,
}: {
  types: readonly DocType[];
  merchantId: number;
  staged: StagedDoc[];
  /** An update of the list: files are checked asynchronously, so an addition applies to the list as it is then. */
  onStaged: (update: (current: StagedDoc[]) => StagedDoc[]) => void;
  maxBytes: number | undefined;
  error: string | null;
  onError: (text: string | null) => void;
}) {
  const templates = useRepresentmentTemplates(merchantId);
  const [docType, setDocType] = useState('');
  const [template, setTemplate] = useState('');
  const input = useRef<HTMLInputElement | null>(null);
  const typeName = (id: number) => types.find((t) => t.id === id)?.name ?? String(id);

  async function addFile(file: File | undefined) {
    if (!file) return;
    const problem = await checkAddition(
      staged,
      { docTypeId: Number(docType) || null, file, size: file.size },
      maxBytes,
    );
    const contentType = problem ? null : await fileType(file);
    onError(problem);
    if (contentType)
      onStaged((current) => [
        ...current,
        {
          key: nextKey++,
          kind: 'file',
          docTypeId: Number(docType),
          file,
          contentType,
          size: file.size,
          s3Key: null,
        },
      ]);
    if (input.current) input.current.value = '';
  }
  async function addTemplate() {
    const t = templates.data?.find((x) => x.id === Number(template));
    if (!t) return;
    const problem = await checkAddition(
      staged,
      { docTypeId: Number(docType) || null, templateId: t.id, size: t.file.size },
      maxBytes,
    );
    onError(problem);
    if (!problem)
      onStaged((current) => [
        ...current,
        {
          key: nextKey++,
          kind: 'template',
          docTypeId: Number(docType),
          templateId: t.id,
          name: t.name,
          size: t.file.size,
        },
      ]);
  }

  return (
    <Stack gap="4">
      <Box>
        <Text fontWeight="semibold" mb="1">
          Document Types
        </Text>
        {!types.length && <Text>{M.noDocTypes}</Text>}
        <HStack wrap="wrap" gap="2">
          {types.map((t) => (
            <Badge key={t.id} colorPalette={t.required ? 'red' : 'gray'} data-testid={`doc-type-${t.id}`}>
              {t.name}
              {t.required ? ' (required)' : ''}
            </Badge>
          ))}
        </HStack>
      </Box>
      <HStack align="end" gap="3" wrap="wrap">
        <Field.Root maxW="64">
          <Field.Label htmlFor="builder-doc-type">Document Type</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              id="builder-doc-type"
              value={docType}
              onChange={(e) => setDocType(e.target.value)}
            >
              <option value="">Select...</option>
              {types.map((t) => (
                <option key={t.id} value={String(t.id)}>
                  {t.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <input
          ref={input}
          type="file"
          accept={BUILDER_FILE_ACCEPT}
          hidden
          data-testid="builder-file-input"
          onChange={(e) => void addFile(e.target.files?.[0])}
        />
        <Button
          variant="outline"
          onClick={() => (docType ? input.current?.click() : onError(M.selectDocType))}
        >
          Add JPG or PDF File
        </Button>
        <Field.Root maxW="64">
          <Field.Label htmlFor="builder-template">Template</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              id="builder-template"
              value={template}
              onChange={(e) => setTemplate(e.target.value)}
            >
              <option value="">Select...</option>
              {templates.data?.map((t) => (
                <option key={t.id} value={String(t.id)}>
                  {t.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Button variant="outline" disabled={!template} onClick={() => void addTemplate()}>
          Add Template
        </Button>
      </HStack>
      {error && (
        <Text color="fg.error" data-testid="builder-doc-error">
          {error}
        </Text>
      )}
      <Table.Root size="sm" data-testid="builder-staged">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Document</Table.ColumnHeader>
            <Table.ColumnHeader>Type</Table.ColumnHeader>
            <Table.ColumnHeader>Format</Table.ColumnHeader>
            <Table.ColumnHeader>Size</Table.ColumnHeader>
            <Table.ColumnHeader />
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {staged.map((s) => (
            <Table.Row key={s.key}>
              <Table.Cell>{s.kind === 'file' ? s.file.name : s.name}</Table.Cell>
              <Table.Cell>{typeName(s.docTypeId)}</Table.Cell>
              <Table.Cell>{stagedFormat(s)}</Table.Cell>
              <Table.Cell>{kb(s.size)}</Table.Cell>
              <Table.Cell textAlign="end">
                <Button
                  size="2xs"
                  variant="ghost"
                  onClick={() => onStaged((current) => current.filter((x) => x.key !== s.key))}
                >
                  Remove
                </Button>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Stack>
  );
}
