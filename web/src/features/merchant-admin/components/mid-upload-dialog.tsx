import { Box, Button, Input, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { downloadMidTemplate, UPLOAD_TEXT, useUploadMids } from '../api/upload-mids';

/** Bulk MID upload for one merchant: CSV file, template download, all rows or none. */
export function MidUploadDialog({
  merchant,
  onClose,
}: {
  merchant: { id: number; name: string };
  onClose: () => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<{ message: string; rows: string[] } | null>(null);
  const [done, setDone] = useState(false);
  const upload = useUploadMids();
  return (
    <DialogFrame
      title="Upload MIDs"
      testId="mid-upload-dialog"
      onClose={onClose}
      placement="top"
      footer={
        <Button
          colorPalette="brand"
          disabled={!file || upload.isPending}
          loading={upload.isPending}
          onClick={() =>
            upload.mutate(
              { merchantId: merchant.id, file: file! },
              {
                onSuccess: () => {
                  setDone(true);
                  setError(null);
                },
                onError: (e) =>
                  setError({
                    message: e.message || UPLOAD_TEXT.failed,
                    rows: (e as Error & { rows?: string[] }).rows ?? [],
                  }),
              },
            )
          }
        >
          Upload
        </Button>
      }
    >
      <Stack gap="3">
        <Text fontSize="sm">Merchant: {merchant.name}</Text>
        <Input
          type="file"
          accept=".csv,text/csv"
          aria-label="MID CSV file"
          onChange={(e) => {
            const files = e.target.files;
            setDone(false);
            if (files && files.length > 1) {
              setError({ message: UPLOAD_TEXT.single, rows: [] });
              setFile(null);
            } else {
              setError(null);
              setFile(files?.[0] ?? null);
            }
          }}
        />
        <Box>
          <Button
            size="xs"
            variant="plain"
            onClick={() =>
              downloadMidTemplate().catch(() => setError({ message: UPLOAD_TEXT.template, rows: [] }))
            }
          >
            Download MID CSV template
          </Button>
        </Box>
        {done && <Notice status="success">{UPLOAD_TEXT.ok}</Notice>}
        {error && (
          <Notice status="error" testId="mid-upload-error">
            {error.message}
            {error.rows.length > 1 && (
              <Box as="ul" mt="1" pl="4">
                {error.rows.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </Box>
            )}
          </Notice>
        )}
      </Stack>
    </DialogFrame>
  );
}
