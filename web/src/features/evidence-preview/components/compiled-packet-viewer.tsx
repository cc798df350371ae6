import { HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { useCompiledPacket } from '../api/get-compiled-packet';
import { PacketViewer } from './packet-viewer';

/**
 * The QC reviewer's view of the compiled packet (issue 34): every page
 * labelled by the document it came from and that document's SHA-256, the
 * provenance kept since upload.
 */
export function CompiledPacketViewer({ caseId }: { caseId: number }) {
  const packet = useCompiledPacket(caseId);
  if (packet.isPending)
    return (
      <HStack color="fg.muted">
        <Spinner size="xs" />
        <Text>Loading the packet…</Text>
      </HStack>
    );
  if (packet.isError) return null;
  const p = packet.data;
  const pages = p.page_map.map((x) => {
    const d = p.documents[x.document];
    return {
      page: x.page,
      label: `${d?.filename ?? 'Document'} p.${x.source_page + 1}`,
      detail: `${x.masked ? 'Masked · ' : ''}SHA-256 ${d?.sha256 ?? ''}`,
      title: d ? `${d.filename}, page ${x.source_page + 1} · SHA-256 ${d.sha256}` : undefined,
    };
  });
  return (
    <Stack gap="2" data-testid="compiled-packet">
      <Text fontSize="sm" color="fg.muted">
        Version {p.version} · {p.pages} page(s) · SHA-256 {p.sha256.slice(0, 16)}…
      </Text>
      <PacketViewer pdfPath={p.pdf_path} pages={pages} />
    </Stack>
  );
}

export default CompiledPacketViewer;
