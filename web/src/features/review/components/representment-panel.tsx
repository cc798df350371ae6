import { DOCS_MESSAGES, REPRESENTMENT_MESSAGES } from '@portal/contracts';
import { Box, Button, HStack, Link, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ApiError } from '../../../lib/errors';
import { formatCaseDate } from '../../../lib/format-case';
import { usePacketPreviewSlots } from '../../../lib/packet-preview-slot';
import { useRepresentment } from '../api/get-representment';

const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en-US')} KB`;

/**
 * The case's representment document (spec 2 §2.4): a link that opens the
 * file in a new tab, who uploaded it and when, and its case comments; 'No
 * document yet' when the case has none; the spec's texts when it is archived
 * or cannot be retrieved; 'Doc(s)
 * compiling...' while the compile job runs, and its failure when it gave up.
 */
export function RepresentmentPanel({ caseId }: { caseId: number }) {
  const doc = useRepresentment(caseId);
  // The compiled packet page by page, each page with its document and SHA-256 (issue 34).
  const { CompiledPacketViewer } = usePacketPreviewSlots();
  const [viewing, setViewing] = useState(false);
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" bg="bg.subtle" data-testid="representment-panel">
      <Text fontSize="xs" color="fg.muted" textTransform="uppercase" letterSpacing="wide" mb="1">
        Representment Document
      </Text>
      {doc.isPending ? (
        <HStack color="fg.muted">
          <Spinner size="xs" />
          <Text>Loading representment document…</Text>
        </HStack>
      ) : doc.isError &&
        doc.error instanceof ApiError &&
        doc.error.status === 404 &&
        doc.error.message === DOCS_MESSAGES.noDocument ? (
        // A case with nothing uploaded yet is not a failure (issue 29); the error text stays for real ones.
        <Text color="fg.muted" data-testid="representment-none">
          {DOCS_MESSAGES.noDocumentYet}
        </Text>
      ) : doc.isError ? (
        <Text color="fg.muted" data-testid="representment-error">
          {doc.error instanceof ApiError && doc.error.status === 410
            ? DOCS_MESSAGES.archived
            : DOCS_MESSAGES.retrieveFailed}
        </Text>
      ) : !doc.data.link && doc.data.versions[0]?.state === 'failed' ? (
        <Text color="red.600" data-testid="representment-failed">
          {REPRESENTMENT_MESSAGES.compileFailed}
        </Text>
      ) : !doc.data.link ? (
        <HStack color="fg.muted" data-testid="representment-compiling">
          <Spinner size="xs" />
          <Text>{REPRESENTMENT_MESSAGES.tooltipCompiling}</Text>
        </HStack>
      ) : (
        <Stack gap="1" data-testid="representment">
          <HStack gap="2" flexWrap="wrap">
            <Link
              href={doc.data.link ?? undefined}
              // The docs service answers `Content-Disposition: attachment` (and a sandboxing CSP):
              // a download, not a page in a new tab.
              download={doc.data.filename}
              colorPalette="brand"
              fontWeight="semibold"
              data-testid="representment-link"
            >
              {doc.data.filename}
            </Link>
            <Text fontSize="sm" color="fg.muted">
              PDF · {kb(doc.data.size)}
              {doc.data.compiled ? ` · ${doc.data.compiled.pages} page(s)` : ''}
              {doc.data.version ? ` · version ${doc.data.version}` : ''} · uploaded{' '}
              {formatCaseDate(doc.data.date_created)}
              {doc.data.created_by ? ` by ${doc.data.created_by}` : ''}
            </Text>
          </HStack>
          <Text fontSize="sm" data-testid="representment-comments">
            <Text as="span" fontWeight="medium">
              Case Comments:
            </Text>{' '}
            {doc.data.case_comments || 'None'}
          </Text>
          {doc.data.documents.length > 0 && (
            <Stack gap="0" fontSize="xs" color="fg.muted" data-testid="representment-documents">
              {doc.data.documents.map((d) => (
                <Text key={d.order_num} title={`SHA-256 ${d.sha256}`}>
                  {d.order_num + 1}. {d.filename} ({d.content_type === 'image/jpeg' ? 'JPG' : 'PDF'},{' '}
                  {kb(d.size)}, {d.pages} p.)
                </Text>
              ))}
              {doc.data.compiled && (
                <Text data-testid="representment-compiled-hash">
                  Compiled SHA-256 {doc.data.compiled.sha256.slice(0, 16)}…
                </Text>
              )}
            </Stack>
          )}
          {doc.data.compiled && CompiledPacketViewer && (
            <Stack gap="2">
              <Button
                alignSelf="start"
                size="xs"
                variant="outline"
                onClick={() => setViewing((v) => !v)}
                data-testid="representment-view-pages"
              >
                {viewing ? 'Hide pages' : 'View pages'}
              </Button>
              {viewing && <CompiledPacketViewer caseId={caseId} />}
            </Stack>
          )}
        </Stack>
      )}
    </Box>
  );
}
