import type { PacketPreview } from '@portal/contracts';
import { Button, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { Notice } from '../../../components/notice';
import { ApiError } from '../../../lib/errors';
import { usePacketPreviewSlots } from '../../../lib/packet-preview-slot';
import { previewBuilderPacket } from '../api/preview-builder-packet';
import { builderPacketOf, type StagedDoc } from '../lib/staged';

/**
 * The builder's last step (issue 34): 'Preview packet' shows the packet the
 * submission will compile (the case summary, then the saved documents in
 * order) with the server's checks, before it goes.
 */
export function BuilderPacketPreview({ caseId, staged }: { caseId: number; staged: readonly StagedDoc[] }) {
  const { PreviewPanel } = usePacketPreviewSlots();
  const [preview, setPreview] = useState<PacketPreview | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!PreviewPanel) return null;

  async function run() {
    setPending(true);
    setError(null);
    try {
      setPreview(await previewBuilderPacket({ case_id: caseId, ...builderPacketOf(staged) }));
    } catch (e) {
      setError(
        e instanceof ApiError && e.status > 0 && e.status < 500
          ? e.message
          : 'The packet could not be previewed. Please try again.',
      );
    } finally {
      setPending(false);
    }
  }

  return (
    <Stack gap="2" mt="4" data-testid="builder-packet-preview">
      <Button
        alignSelf="start"
        size="sm"
        variant="outline"
        loading={pending}
        onClick={() => (preview ? setPreview(null) : void run())}
        data-testid="builder-preview"
      >
        {preview ? 'Hide preview' : 'Preview packet'}
      </Button>
      {error && <Notice status="error">{error}</Notice>}
      {preview && <PreviewPanel preview={preview} busy={pending} />}
    </Stack>
  );
}
