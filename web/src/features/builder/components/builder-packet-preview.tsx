import type { AcceptedWarnings, PacketPage, PacketPreview, PageOp } from '@portal/contracts';
import { Button, Stack } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { Notice } from '../../../components/notice';
import { ApiError } from '../../../lib/errors';
import { previewVerdict, usePacketPreviewSlots } from '../../../lib/packet-preview-slot';
import { previewBuilderPacket } from '../api/preview-builder-packet';
import { builderPacketOf, type StagedDoc } from '../lib/staged';

/**
 * The builder's last step (issue 34): 'Preview packet' shows the packet the
 * submission will compile (the case summary, then the saved documents in
 * order) with the server's checks, before it goes. As in the upload modal,
 * pages of the documents can be turned, removed or masked (page operations
 * kept on the staged documents, sent with the submission and applied by the
 * server), and every change previews again; warnings are accepted with a
 * note for exactly the packet previewed. The case summary's pages are the
 * server's own and stay as they are.
 */
export function BuilderPacketPreview({
  caseId,
  staged,
  onStaged,
  onAccepted,
}: {
  caseId: number;
  staged: readonly StagedDoc[];
  onStaged: (update: (current: StagedDoc[]) => StagedDoc[]) => void;
  /** The warnings accepted for the packet shown, or null (none, not accepted, or not previewed). */
  onAccepted: (accepted: AcceptedWarnings | null) => void;
}) {
  const { PreviewPanel } = usePacketPreviewSlots();
  const [open, setOpen] = useState(false);
  const [preview, setPreview] = useState<PacketPreview | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const seq = useRef(0);

  // The preview follows the staged set (order, page operations) while it is open.
  useEffect(() => {
    if (!open) return;
    const n = ++seq.current;
    void (async () => {
      setPending(true);
      setError(null);
      try {
        const answer = await previewBuilderPacket({ case_id: caseId, ...builderPacketOf(staged) });
        if (n === seq.current) setPreview(answer);
      } catch (e) {
        if (n === seq.current)
          setError(
            e instanceof ApiError && e.status > 0 && e.status < 500
              ? e.message
              : 'The packet could not be previewed. Please try again.',
          );
      } finally {
        if (n === seq.current) setPending(false);
      }
    })();
  }, [open, staged, caseId]);

  const shown = open ? preview : null;
  const verdict = previewVerdict(shown, note);
  useEffect(
    () => onAccepted(shown && verdict.accepted ? { note: note.trim(), sha256: shown.sha256 } : null),
    [shown, verdict.accepted, note, onAccepted],
  );

  if (!PreviewPanel) return null;

  /** The staged document a page came from; none for the case summary's pages. */
  function sourceOf(page: PacketPage): StagedDoc | undefined {
    const d = shown?.documents[page.document];
    if (!d || d.kind === 'generated') return undefined;
    return staged.find((s) =>
      s.kind === 'file' ? d.s3_key !== null && s.s3Key === d.s3_key : s.templateId === d.template_id,
    );
  }
  function addOp(page: PacketPage, op: PageOp) {
    const doc = sourceOf(page);
    if (doc)
      onStaged((all) => all.map((s) => (s.key === doc.key ? { ...s, ops: [...(s.ops ?? []), op] } : s)));
  }

  return (
    <Stack gap="2" mt="4" data-testid="builder-packet-preview">
      <Button
        alignSelf="start"
        size="sm"
        variant="outline"
        loading={pending && !shown}
        onClick={() => setOpen((o) => !o)}
        data-testid="builder-preview"
      >
        {open ? 'Hide preview' : 'Preview packet'}
      </Button>
      {error && <Notice status="error">{error}</Notice>}
      {shown && (
        <PreviewPanel
          preview={shown}
          busy={pending}
          onRotatePage={(page) => addOp(page, { op: 'rotate', page: page.source_page, degrees: 90 })}
          onRemovePage={(page) => {
            const doc = sourceOf(page);
            const left = shown.page_map.filter((p) => p.document === page.document).length;
            // The last page of a document goes with its document (the server refuses a document with no page).
            if (doc && left <= 1) onStaged((all) => all.filter((s) => s.key !== doc.key));
            else addOp(page, { op: 'remove', page: page.source_page });
          }}
          canArrangePage={(page) => sourceOf(page) !== undefined}
          onMask={(mask) => {
            const page = shown.page_map.find(
              (p) => p.document === mask.document && p.source_page === mask.page,
            );
            if (page) addOp(page, { op: 'mask', page: mask.page, boxes: mask.boxes });
          }}
          note={note}
          onNote={setNote}
        />
      )}
    </Stack>
  );
}
