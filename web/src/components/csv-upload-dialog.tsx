import { Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { useRef, useState, type ReactNode } from 'react';
import { pickSingleCsv } from '../lib/csv-upload';
import { GENERIC_ERROR } from '../lib/errors';
import { DialogActions, DialogFrame } from './dialog-frame';
import { Notice } from './notice';

/**
 * An upload dialog for one CSV (onboarding, case updater, ERT files): a drop
 * zone, template downloads, optional fields (`children`) and Upload, enabled
 * once a file is chosen and `ready` holds. The caller's `onUpload` does the work.
 */
export function CsvUploadDialog({
  title,
  templates = [],
  children,
  ready = true,
  onUpload,
  onClose,
  testId = 'csv-upload-dialog',
}: {
  title: string;
  templates?: Array<{ label: string; download: () => Promise<void> }>;
  children?: ReactNode;
  ready?: boolean;
  onUpload: (file: File) => Promise<void>;
  onClose: () => void;
  testId?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);

  function choose(files: FileList | null) {
    setError(null);
    try {
      setFile(pickSingleCsv(files));
    } catch (e) {
      setFile(null);
      setError((e as Error).message);
    }
  }

  async function upload() {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      await onUpload(file);
    } catch (e) {
      setError((e as Error).message || GENERIC_ERROR);
    } finally {
      setBusy(false);
    }
  }

  return (
    <DialogFrame
      title={title}
      testId={testId}
      onClose={onClose}
      footer={
        <DialogActions
          onCancel={onClose}
          cancelLabel="Close"
          primary={{
            label: 'Upload',
            onClick: () => void upload(),
            disabled: !file || !ready || busy,
            loading: busy,
          }}
        />
      }
    >
      <Stack gap="4">
        <Box
          data-testid="csv-drop-zone"
          borderWidth="2px"
          borderStyle="dashed"
          borderColor={over ? 'brand.solid' : 'border'}
          borderRadius="md"
          p="6"
          textAlign="center"
          cursor="pointer"
          onClick={() => input.current?.click()}
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault();
            setOver(false);
            choose(e.dataTransfer.files);
          }}
        >
          <Text fontSize="sm">{file ? file.name : 'Drop a CSV file here, or click to choose one.'}</Text>
          <input
            ref={input}
            type="file"
            accept=".csv,text/csv"
            hidden
            data-testid="csv-file-input"
            onChange={(e) => choose(e.target.files)}
          />
        </Box>
        {templates.length > 0 && (
          <Flex gap="2" wrap="wrap">
            {templates.map((t) => (
              <Button
                key={t.label}
                size="xs"
                variant="outline"
                onClick={() => t.download().catch((e: Error) => setError(e.message || GENERIC_ERROR))}
              >
                {t.label}
              </Button>
            ))}
          </Flex>
        )}
        {children}
        {error && (
          <Notice status="error" testId="csv-upload-error">
            {error}
          </Notice>
        )}
      </Stack>
    </DialogFrame>
  );
}
