import { Box, HStack, Stack, Text } from '@chakra-ui/react';
import type { PacketPreviewPanelProps } from '../../../lib/packet-preview-slot';
import { ChecksPanel } from './checks-panel';
import { PacketViewer } from './packet-viewer';

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(bytes < 1048576 ? 2 : 1)} MB`;

/**
 * The packet as it will be submitted (issue 34): page count and size against
 * the user's limits, the viewer with thumbnails labelled by source document,
 * the page actions, and the checks.
 */
export function PreviewPanel({
  preview,
  onRotatePage,
  onRemovePage,
  canArrangePage,
  onMask,
  note,
  onNote,
  busy,
}: PacketPreviewPanelProps) {
  const { limits } = preview;
  const overPages = limits.max_pages > 0 && preview.pages > limits.max_pages;
  const overSize = preview.size > limits.max_bytes;
  const pages = preview.page_map.map((p) => {
    const d = preview.documents[p.document];
    const turned = p.rotation ? `, turned ${p.rotation}°` : '';
    return {
      page: p.page,
      label: `${d?.filename ?? 'Document'} p.${p.source_page + 1}`,
      detail: `${p.masked ? 'Masked · ' : ''}SHA-256 ${d?.sha256.slice(0, 12) ?? ''}…${turned}`,
      title: d ? `${d.filename}, page ${p.source_page + 1} · SHA-256 ${d.sha256}` : undefined,
    };
  });
  return (
    <Stack gap="3" borderWidth="1px" borderRadius="md" p="3" data-testid="packet-preview">
      <HStack justify="space-between" wrap="wrap">
        <Text fontWeight="semibold">Packet preview</Text>
        <Text fontSize="sm" data-testid="packet-totals">
          <Box as="span" color={overPages ? 'red.600' : undefined}>
            {preview.pages} page(s){limits.max_pages > 0 ? ` of ${limits.max_pages}` : ''}
          </Box>
          {' · '}
          <Box as="span" color={overSize ? 'red.600' : undefined}>
            {mb(preview.size)} of {mb(limits.max_bytes)}
          </Box>
        </Text>
      </HStack>
      <ChecksPanel checks={preview.checks} onMask={onMask} note={note} onNote={onNote} busy={busy} />
      <PacketViewer
        pdfPath={preview.pdf_path}
        pages={pages}
        onRotate={onRotatePage && ((n) => onRotatePage(preview.page_map[n - 1]!))}
        onRemove={onRemovePage && ((n) => onRemovePage(preview.page_map[n - 1]!))}
        canArrange={canArrangePage && ((n) => canArrangePage(preview.page_map[n - 1]!))}
        busy={busy}
      />
      <Text fontSize="xs" color="fg.muted" data-testid="packet-sha">
        Packet SHA-256 {preview.sha256}
      </Text>
    </Stack>
  );
}

export default PreviewPanel;
