import type { PacketPage, PacketPreview, PageBox, PageOp, PreviewBody } from '@portal/contracts';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/errors';
import { postUploadForm } from '../../../lib/post-upload-form';
import { getUploadLink } from '../api/get-upload-link';
import { previewPacket } from '../api/preview-packet';
import type { StagedDocument } from './representment-checks';

/**
 * 'Preview packet' of the upload modal (issue 34): the staged files go to the
 * store once (the preview and the upload name the same keys), the server
 * compiles and checks the packet, and every change (order, a page turned,
 * removed or masked) previews again. Page operations live on the staged
 * documents; the upload sends them and the server applies them.
 */
export function usePacketPreview({
  caseId,
  staged,
  setStaged,
  onError,
}: {
  caseId: number;
  staged: StagedDocument[];
  setStaged: (update: (current: StagedDocument[]) => StagedDocument[]) => void;
  onError: (message: string | null) => void;
}) {
  const [open, setOpen] = useState(false);
  const [preview, setPreview] = useState<PacketPreview | null>(null);
  const [pending, setPending] = useState(false);
  const [note, setNote] = useState('');
  const keys = useRef(new Map<string, string>());
  const seq = useRef(0);

  /** Stores the files not stored yet; their keys are kept for the preview and the upload. */
  async function upload(
    items: readonly StagedDocument[],
    onProgress?: (key: string, fraction: number) => void,
    signal?: AbortSignal,
  ) {
    for (const d of items) {
      if (d.type !== 'file' || !d.file || !d.contentType || keys.current.has(d.key)) continue;
      const link = await getUploadLink(caseId, { name: d.label, type: d.contentType });
      await postUploadForm(link, d.file, (f) => onProgress?.(d.key, f), signal);
      keys.current.set(d.key, link.fields.key!);
    }
  }

  /** The staged set as the calls name it: stored keys and templates in order, with their page operations. */
  function packetOf(items: readonly StagedDocument[]): Pick<PreviewBody, 'files' | 'templates'> {
    const ops = (d: StagedDocument) => (d.ops?.length ? { page_ops: d.ops } : {});
    return {
      files: items.flatMap((d, order) =>
        d.type === 'file' && d.contentType && keys.current.has(d.key)
          ? [
              {
                s3_key: keys.current.get(d.key)!,
                filename: d.label,
                content_type: d.contentType,
                size: d.size,
                order_num: order,
                ...ops(d),
              },
            ]
          : [],
      ),
      templates: items.flatMap((d, order) =>
        d.type === 'template' && d.templateId ? [{ id: d.templateId, order_num: order, ...ops(d) }] : [],
      ),
    };
  }

  useEffect(() => {
    if (!open || !staged.length) return;
    const n = ++seq.current;
    void (async () => {
      setPending(true);
      try {
        await upload(staged);
        const answer = await previewPacket({ case_id: caseId, ...packetOf(staged) });
        if (n !== seq.current) return;
        setPreview(answer);
        onError(null);
      } catch (e) {
        if (n === seq.current)
          onError(
            e instanceof ApiError && e.status > 0 && e.status < 500
              ? e.message
              : 'The packet could not be previewed. Please try again.',
          );
      } finally {
        if (n === seq.current) setPending(false);
      }
    })();
    // upload/packetOf read refs only; the preview follows the staged set.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, staged, caseId]);

  /** The staged document a page of the preview came from. */
  function sourceOf(page: PacketPage): StagedDocument | undefined {
    const d = preview?.documents[page.document];
    if (!d) return undefined;
    return staged.find((s) =>
      d.s3_key
        ? keys.current.get(s.key) === d.s3_key
        : s.type === 'template' && s.templateId === d.template_id,
    );
  }

  function addOp(page: PacketPage, op: PageOp) {
    const doc = sourceOf(page);
    if (!doc) return;
    setStaged((current) =>
      current.map((s) => (s.key === doc.key ? { ...s, ops: [...(s.ops ?? []), op] } : s)),
    );
  }

  return {
    open,
    setOpen,
    preview: open && staged.length ? preview : null,
    pending,
    note,
    setNote,
    upload,
    packetOf,
    rotate: (page: PacketPage) => addOp(page, { op: 'rotate', page: page.source_page, degrees: 90 }),
    remove: (page: PacketPage) => {
      const doc = sourceOf(page);
      const left = preview?.page_map.filter((p) => p.document === page.document).length ?? 0;
      // The last page of a document goes with its document (the server refuses a document with no page).
      if (doc && left <= 1) setStaged((current) => current.filter((s) => s.key !== doc.key));
      else addOp(page, { op: 'remove', page: page.source_page });
    },
    mask: (mask: { document: number; page: number; boxes: PageBox[] }) => {
      const page = preview?.page_map.find((p) => p.document === mask.document && p.source_page === mask.page);
      if (page) addOp(page, { op: 'mask', page: mask.page, boxes: mask.boxes });
    },
  };
}
