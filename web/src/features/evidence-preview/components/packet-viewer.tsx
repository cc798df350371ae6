import { Box, HStack, Icon, IconButton, Spinner, Stack, Text } from '@chakra-ui/react';
import { RotateCw, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Notice } from '../../../components/notice';
import { usePacketPdf } from '../api/get-packet-pdf';
import { openPdf, type PDFDocumentProxy } from '../lib/pdfjs';
import { PageCanvas } from './page-canvas';

export interface ViewerPage {
  /** 1-based page of the packet. */
  page: number;
  label: string;
  /** A second line: the source document's SHA-256, a note that the page is masked. */
  detail?: string;
  title?: string;
}

const THUMB = 104;
const MAIN = 440;

/**
 * A packet PDF drawn with pdf.js: thumbnails of every page (each labelled by
 * the document it came from), the selected page large, and per page the
 * arrangement actions when the caller allows them.
 */
export function PacketViewer({
  pdfPath,
  pages,
  onRotate,
  onRemove,
  canArrange,
  busy,
}: {
  pdfPath: string;
  pages: readonly ViewerPage[];
  onRotate?: (page: number) => void;
  onRemove?: (page: number) => void;
  /** Whether the actions apply to a page (default: every page); a page they do not apply to shows none. */
  canArrange?: (page: number) => boolean;
  busy?: boolean;
}) {
  const bytes = usePacketPdf(pdfPath);
  // The document opened from these bytes (or its failure): older bytes' document is never drawn.
  const [opened, setOpened] = useState<{ of: ArrayBuffer; pdf: PDFDocumentProxy | null } | null>(null);
  const [selected, setSelected] = useState(1);

  useEffect(() => {
    if (!bytes.data) return;
    const of = bytes.data;
    let live = true;
    let doc: PDFDocumentProxy | null = null;
    openPdf(of)
      .then((d) => {
        doc = d;
        if (live) setOpened({ of, pdf: d });
        else void d.destroy();
      })
      .catch(() => live && setOpened({ of, pdf: null }));
    return () => {
      live = false;
      void doc?.destroy();
    };
  }, [bytes.data]);
  const shown = opened && opened.of === bytes.data ? opened : null;
  const pdf = shown?.pdf ?? null;
  const failed = shown !== null && shown.pdf === null;

  const current = Math.min(selected, pages.length) || 1;
  if (bytes.isError || failed)
    return <Notice status="error">The packet could not be shown. Please preview it again.</Notice>;
  if (!pdf)
    return (
      <HStack color="fg.muted" data-testid="packet-viewer-loading">
        <Spinner size="sm" />
        <Text>Drawing the packet…</Text>
      </HStack>
    );
  const info = pages[current - 1];
  const arrangeable = canArrange ? canArrange(current) : true;
  return (
    <HStack align="start" gap="3" data-testid="packet-viewer" data-pdf={pdfPath}>
      <Stack gap="2" maxH="560px" overflowY="auto" pr="1" flexShrink={0} data-testid="packet-thumbs">
        {pages.map((p) => (
          <Box
            key={`${pdfPath}:${p.page}`}
            as="button"
            onClick={() => setSelected(p.page)}
            borderWidth="2px"
            borderColor={p.page === current ? 'brand.500' : 'transparent'}
            borderRadius="sm"
            p="1"
            textAlign="left"
            title={p.title}
            data-testid="packet-thumb"
            data-page={p.page}
          >
            <PageCanvas pdf={pdf} page={p.page} width={THUMB} testId="packet-thumb-canvas" />
            <Text fontSize="2xs" mt="1" maxW={`${THUMB}px`} truncate data-testid="packet-page-label">
              {p.page}. {p.label}
            </Text>
          </Box>
        ))}
      </Stack>
      <Stack gap="2" flex="1" minW="0">
        <HStack justify="space-between">
          <Stack gap="0" minW="0">
            <Text fontSize="sm" fontWeight="semibold" truncate data-testid="packet-current-label">
              Page {current} of {pages.length}: {info?.label}
            </Text>
            {info?.detail && (
              <Text
                fontSize="xs"
                color="fg.muted"
                truncate
                title={info.title}
                data-testid="packet-current-detail"
              >
                {info.detail}
              </Text>
            )}
          </Stack>
          <HStack gap="0">
            {onRotate && arrangeable && (
              <IconButton
                aria-label={`Rotate page ${current}`}
                size="xs"
                variant="ghost"
                disabled={busy}
                onClick={() => onRotate(current)}
                data-testid="packet-rotate"
              >
                <Icon size="sm">
                  <RotateCw />
                </Icon>
              </IconButton>
            )}
            {onRemove && arrangeable && (
              <IconButton
                aria-label={`Remove page ${current}`}
                size="xs"
                variant="ghost"
                disabled={busy}
                onClick={() => onRemove(current)}
                data-testid="packet-remove"
              >
                <Icon size="sm">
                  <Trash2 />
                </Icon>
              </IconButton>
            )}
          </HStack>
        </HStack>
        <Box overflow="auto" maxH="560px">
          <PageCanvas
            key={`${pdfPath}:${current}`}
            pdf={pdf}
            page={current}
            width={MAIN}
            testId="packet-page-canvas"
          />
        </Box>
      </Stack>
    </HStack>
  );
}
