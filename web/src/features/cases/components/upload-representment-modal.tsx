import {
  EVIDENCE_MESSAGES as E,
  REPRESENTMENT_FILE_MAX_BYTES,
  REPRESENTMENT_MESSAGES as M,
  UPLOAD_ORIGIN,
  bytesToMb,
  type CaseRow,
  type RepresentmentUploadAnswer,
} from '@portal/contracts';
import {
  Badge,
  Box,
  Button,
  Checkbox,
  Field,
  HStack,
  Icon,
  IconButton,
  Spinner,
  Stack,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { ArrowDown, ArrowUp, X } from 'lucide-react';
import { Suspense, useEffect, useRef, useState, type DragEvent } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { useProfile } from '../../../lib/auth/auth-context';
import { hasResource } from '../../../lib/auth/resources';
import { clearPendingCasePatch, markCases, setPendingCasePatch } from '../../../lib/case-patch';
import { ApiError } from '../../../lib/errors';
import { useTenant } from '../../../lib/tenant-config';
import { useCaseSlots } from '../lib/case-slots';
import { useRepresentmentTemplates } from '../../../lib/get-representment-templates';
import { useStackConfig } from '../../../lib/get-stack-config';
import { usePacketPreviewSlots, previewVerdict } from '../../../lib/packet-preview-slot';
import { useUploadRepresentment } from '../api/upload-representment';
import { useProcessorSlots } from '../../../lib/processor-slot';
import { checkRepresentmentFile, checkStaged, type StagedDocument } from '../lib/representment-checks';
import { usePacketPreview } from '../lib/use-packet-preview';

const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en-US')} KB`;
let nextKey = 1;

/**
 * The Upload representment modal (spec 2 §2.6, §4 'Upload representment', §5):
 * a drag-and-drop area (PDF or JPEG, one file at a time), the merchant's
 * templates, the reorderable list of staged documents, Case Comments, the
 * optional 'Send the case for Quality Review' checkbox, and Upload. Opening it
 * for a first upload holds the case (case patch 16, type upload); closing
 * without uploading releases it (1). Each file goes to the object store
 * through its own upload form, with progress, before the upload call names
 * the stored keys; the docs service checks everything again.
 */
export function UploadRepresentmentModal({
  row,
  isReupload = false,
  legacyTitle = false,
  onClose,
  onUploaded,
}: {
  row: Pick<CaseRow, 'id' | 'merchant_id' | 'properties'>;
  isReupload?: boolean;
  /** The older title 'Upload Representment - {id}' (QC area). */
  legacyTitle?: boolean;
  onClose: () => void;
  onUploaded: (answer: RepresentmentUploadAnswer) => void;
}) {
  const profile = useProfile();
  const { remedy } = useCaseSlots();
  const stack = useStackConfig();
  const templates = useRepresentmentTemplates(row.merchant_id ?? null);
  const upload = useUploadRepresentment();
  const { SaveDraftButton } = useProcessorSlots();
  const [hold, setHold] = useState<'pending' | 'held' | { error: string }>(isReupload ? 'held' : 'pending');
  const [staged, setStaged] = useState<StagedDocument[]>([]);
  const [comment, setComment] = useState('');
  const [qcReview, setQcReview] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<Record<string, number>>({});
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const [remedyOpen, setRemedyOpen] = useState(false);
  // The compelling-evidence panel: tenants with HAS_REMEDY, first uploads (spec 2 §2.6, §2.8).
  const showRemedy = useTenant().flags?.HAS_REMEDY === true && !isReupload && !legacyTitle;
  const [dragOver, setDragOver] = useState(false);
  const input = useRef<HTMLInputElement | null>(null);
  const uploaded = useRef(false);
  const abort = useRef<AbortController | null>(null);
  // 'Preview packet' (issue 34): compiled and checked by the server, arranged here, applied at compile time.
  const { PreviewPanel } = usePacketPreviewSlots();
  const packet = usePacketPreview({ caseId: row.id, staged, setStaged, onError: setError });

  const maxBytes = stack.data?.max_representment_upload_size;
  const maxPages = stack.data?.max_representment_page_count;
  const showQc = hasResource(profile, 'QC_REVIEW_CHECKBOX') && !isReupload;
  const title = legacyTitle
    ? `Upload Representment - ${row.id}`
    : `Upload Case Document (${row.id})${showRemedy && row.properties.can_remedy ? ' or Start CE 3.0 Remedy' : ''}`;

  // Step 1 of spec 2 §4: a first upload holds the case (16, type upload) before anything else.
  useEffect(() => {
    if (isReupload) return;
    let live = true;
    markCases({ ids: [row.id], status: 16, type: 'upload' })
      .then(() => {
        setPendingCasePatch({ ids: [row.id], type: 'upload' });
        if (live) setHold('held');
      })
      .catch((e: unknown) => live && setHold({ error: e instanceof ApiError ? e.message : M.failed }));
    return () => {
      live = false;
    };
  }, [row.id, isReupload]);

  /** Closing without an upload releases the case (1, type upload); after an upload the server has moved it on. */
  const close = () => {
    abort.current?.abort();
    if (!isReupload && !uploaded.current && hold === 'held') {
      clearPendingCasePatch();
      void markCases({ ids: [row.id], status: 1, type: 'upload' }).catch(() => undefined);
    }
    onClose();
  };
  const requestClose = () => {
    if (busy) return;
    if (staged.length || comment.trim()) setConfirmDiscard(true);
    else close();
  };

  async function addFile(file: File | undefined) {
    if (!file || maxBytes === undefined) {
      if (file) setError(M.failed);
      return;
    }
    setError(null);
    const panelLimit = Math.min(maxBytes, REPRESENTMENT_FILE_MAX_BYTES);
    if (file.size > panelLimit) return setError(M.tooLarge(bytesToMb(panelLimit)));
    setChecking(true);
    const checked = await checkRepresentmentFile(file, maxBytes);
    setChecking(false);
    if (!checked.ok) return setError(checked.message);
    const doc: StagedDocument = {
      key: `f${nextKey++}`,
      type: 'file',
      label: file.name,
      size: file.size,
      pages: checked.pages,
      file,
      contentType: checked.contentType,
    };
    const message = checkStaged([...staged, doc], { maxBytes, maxPages });
    if (message) return setError(message);
    setStaged((s) => [...s, doc]);
  }

  function addTemplate(t: { id: number; name: string; file: { size: number; pages: number | null } }) {
    setError(null);
    const doc: StagedDocument = {
      key: `t${nextKey++}`,
      type: 'template',
      label: t.name,
      size: t.file.size,
      pages: t.file.pages || 1,
      templateId: t.id,
    };
    const message = checkStaged([...staged, doc], { maxBytes, maxPages });
    if (message) return setError(message);
    setStaged((s) => [...s, doc]);
  }

  const move = (i: number, by: -1 | 1) =>
    setStaged((s) => {
      const j = i + by;
      if (j < 0 || j >= s.length) return s;
      const next = [...s];
      [next[i], next[j]] = [next[j]!, next[i]!];
      return next;
    });

  async function submit(saveAsDraft = false) {
    const removes = staged.some((d) => d.ops?.some((op) => op.op === 'remove'));
    const message = checkStaged(staged, { maxBytes, maxPages: removes ? 0 : maxPages });
    if (message) return setError(message);
    // The previewed packet: what blocks it is fixed first, its warnings are accepted with a note.
    const verdict = previewVerdict(packet.preview, packet.note);
    if (packet.preview && verdict.blocked)
      return setError(packet.preview.checks.find((c) => c.level === 'blocked')!.message);
    if (packet.preview && verdict.warnings && !verdict.accepted) return setError(E.acceptWarnings);
    setError(null);
    setBusy(true);
    abort.current = new AbortController();
    try {
      await packet.upload(staged, (key, f) => setProgress((p) => ({ ...p, [key]: f })), abort.current.signal);
      const accepted =
        packet.preview && verdict.accepted
          ? { accepted_warnings: { note: packet.note.trim(), sha256: packet.preview.sha256 } }
          : {};
      const answer = await upload.mutateAsync({
        case_id: row.id,
        origin: UPLOAD_ORIGIN,
        ...packet.packetOf(staged),
        qc_review: showQc && qcReview,
        is_reupload: isReupload,
        comment: comment.trim() || null,
        ...accepted,
        ...(saveAsDraft ? { save_as_draft: true } : {}),
      });
      uploaded.current = true;
      clearPendingCasePatch();
      onUploaded(answer);
      onClose();
    } catch (e) {
      if ((e as Error).name !== 'AbortError')
        setError(e instanceof ApiError && e.status < 500 && e.status > 0 ? e.message : M.failed);
    } finally {
      setBusy(false);
    }
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragOver(false);
    if (busy || profile.is_read_only) return;
    void addFile(e.dataTransfer.files[0]);
  };

  const totalSize = staged.reduce((n, d) => n + d.size, 0);
  const totalPages = staged.reduce((n, d) => n + d.pages, 0);

  return (
    <>
      <DialogFrame
        title={title}
        testId="upload-representment-modal"
        onClose={requestClose}
        size={packet.open ? 'xl' : 'lg'}
        footer={
          hold === 'held' && (
            <>
              {SaveDraftButton && (
                <SaveDraftButton
                  caseId={row.id}
                  onSaveDraft={() => void submit(true)}
                  disabled={busy || checking || profile.is_read_only || packet.pending}
                />
              )}
              <DialogActions
                onCancel={requestClose}
                cancelDisabled={busy}
                primary={{
                  label: 'Upload',
                  onClick: () => void submit(),
                  loading: busy,
                  loadingText: M.uploading,
                  disabled: checking || profile.is_read_only || packet.pending,
                  testId: 'upload-submit',
                }}
              />
            </>
          )
        }
      >
        {typeof hold === 'object' ? (
          <Stack gap="3" data-testid="upload-hold-error">
            <Notice status="error">{M.prepareFailed}</Notice>
            <Text fontSize="sm">
              Case {row.id}: {hold.error}
            </Text>
            <Button alignSelf="start" onClick={onClose}>
              Back to cases
            </Button>
          </Stack>
        ) : hold === 'pending' ? (
          <HStack color="fg.muted">
            <Spinner size="sm" />
            <Text>Preparing the case…</Text>
          </HStack>
        ) : (
          <Stack gap="4">
            {showRemedy && remedy && (
              <remedy.Launcher
                canRemedy={row.properties.can_remedy}
                disabled={busy || profile.is_read_only}
                onStart={() => setRemedyOpen(true)}
              />
            )}
            <Box
              data-testid="upload-dropzone"
              borderWidth="2px"
              borderStyle="dashed"
              borderColor={dragOver ? 'brand.500' : 'border'}
              bg={dragOver ? 'bg.emphasized' : 'bg.subtle'}
              borderRadius="md"
              p="5"
              textAlign="center"
              onDragOver={(e) => {
                e.preventDefault();
                setDragOver(true);
              }}
              onDragLeave={() => setDragOver(false)}
              onDrop={onDrop}
            >
              <Text fontWeight="medium">Drag and drop a PDF or JPG file here</Text>
              <Text fontSize="sm" color="fg.muted" mb="2">
                One file at a time, up to{' '}
                {maxBytes !== undefined ? bytesToMb(Math.min(maxBytes, REPRESENTMENT_FILE_MAX_BYTES)) : '–'}
                MB; {maxPages ? `${maxPages} pages in total` : 'no page limit'}
              </Text>
              <Button
                size="sm"
                variant="outline"
                onClick={() => input.current?.click()}
                disabled={busy}
                loading={checking}
              >
                Browse files
              </Button>
              <input
                ref={input}
                type="file"
                hidden
                data-testid="upload-file-input"
                accept=".pdf,.jpg,.jpeg,application/pdf,image/jpeg"
                onChange={(e) => {
                  void addFile(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
            </Box>

            <Box>
              <Text fontWeight="semibold" mb="1">
                Templates
              </Text>
              {templates.isPending && row.merchant_id != null ? (
                <Spinner size="xs" />
              ) : !templates.data?.length ? (
                <Text fontSize="sm" color="fg.muted" data-testid="upload-no-templates">
                  {M.noTemplates}
                </Text>
              ) : (
                <Stack gap="1" maxH="32" overflowY="auto" data-testid="upload-templates">
                  {templates.data.map((t) => (
                    <HStack key={t.id} justify="space-between" fontSize="sm">
                      <Text>
                        {t.name}{' '}
                        <Text as="span" color="fg.muted">
                          ({kb(t.file.size)}, {t.file.pages || 1} p.)
                        </Text>
                      </Text>
                      <Button size="xs" variant="ghost" onClick={() => addTemplate(t)} disabled={busy}>
                        Add
                      </Button>
                    </HStack>
                  ))}
                </Stack>
              )}
            </Box>

            <Box>
              <HStack justify="space-between" mb="1">
                <Text fontWeight="semibold">Documents</Text>
                <Text fontSize="sm" color="fg.muted" data-testid="upload-totals">
                  {staged.length ? `${kb(totalSize)} · ${totalPages} page(s)` : ''}
                </Text>
              </HStack>
              {staged.length === 0 ? (
                <Text fontSize="sm" color="fg.muted">
                  No documents staged yet.
                </Text>
              ) : (
                <Stack gap="1" data-testid="upload-staged">
                  {staged.map((d, i) => (
                    <Box
                      key={d.key}
                      borderWidth="1px"
                      borderRadius="sm"
                      px="2"
                      py="1"
                      data-testid="upload-staged-item"
                    >
                      <HStack justify="space-between" fontSize="sm">
                        <HStack gap="2" minW="0">
                          <Text color="fg.muted">{i + 1}.</Text>
                          <Text truncate>{d.label}</Text>
                          <Badge size="sm" variant="subtle">
                            {d.type === 'template'
                              ? 'Template'
                              : d.contentType === 'image/jpeg'
                                ? 'JPG'
                                : 'PDF'}
                          </Badge>
                          <Text color="fg.muted" whiteSpace="nowrap">
                            {kb(d.size)} · {d.pages} p.
                          </Text>
                        </HStack>
                        <HStack gap="0">
                          <IconButton
                            aria-label="Move up"
                            size="xs"
                            variant="ghost"
                            disabled={busy || i === 0}
                            onClick={() => move(i, -1)}
                          >
                            <Icon size="sm">
                              <ArrowUp />
                            </Icon>
                          </IconButton>
                          <IconButton
                            aria-label="Move down"
                            size="xs"
                            variant="ghost"
                            disabled={busy || i === staged.length - 1}
                            onClick={() => move(i, 1)}
                          >
                            <Icon size="sm">
                              <ArrowDown />
                            </Icon>
                          </IconButton>
                          <IconButton
                            aria-label="Remove"
                            size="xs"
                            variant="ghost"
                            disabled={busy}
                            onClick={() => setStaged((s) => s.filter((x) => x.key !== d.key))}
                          >
                            <Icon size="sm">
                              <X />
                            </Icon>
                          </IconButton>
                        </HStack>
                      </HStack>
                      {busy && d.type === 'file' && (
                        <Box
                          h="1"
                          bg="bg.muted"
                          borderRadius="full"
                          mt="1"
                          overflow="hidden"
                          data-testid="upload-progress"
                        >
                          <Box
                            h="full"
                            bg="brand.500"
                            width={`${Math.round((progress[d.key] ?? 0) * 100)}%`}
                          />
                        </Box>
                      )}
                    </Box>
                  ))}
                </Stack>
              )}
            </Box>

            {PreviewPanel && staged.length > 0 && (
              <Stack gap="2">
                <Button
                  alignSelf="start"
                  size="sm"
                  variant="outline"
                  onClick={() => packet.setOpen(!packet.open)}
                  disabled={busy}
                  loading={packet.pending}
                  data-testid="upload-preview"
                >
                  {packet.open ? 'Hide preview' : 'Preview packet'}
                </Button>
                {packet.preview && (
                  <PreviewPanel
                    preview={packet.preview}
                    onRotatePage={packet.rotate}
                    onRemovePage={packet.remove}
                    onMask={packet.mask}
                    note={packet.note}
                    onNote={packet.setNote}
                    busy={busy || packet.pending || profile.is_read_only}
                  />
                )}
              </Stack>
            )}

            <Field.Root>
              <Field.Label>Case Comments</Field.Label>
              <Textarea
                value={comment}
                onChange={(e) => setComment(e.target.value)}
                rows={3}
                maxLength={4000}
                disabled={busy}
                data-testid="upload-comment"
              />
            </Field.Root>

            {showQc && (
              <Checkbox.Root
                checked={qcReview}
                onCheckedChange={(e) => setQcReview(e.checked === true)}
                disabled={busy}
                data-testid="upload-qc-review"
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>Send the case for Quality Review</Checkbox.Label>
              </Checkbox.Root>
            )}

            {error && (
              <Notice status="error" testId="upload-error">
                {error}
              </Notice>
            )}
          </Stack>
        )}
      </DialogFrame>
      {remedyOpen && remedy && (
        <Suspense fallback={null}>
          <remedy.Wizard
            caseId={row.id}
            onClose={() => setRemedyOpen(false)}
            onCompleted={() => {
              // The server attached the CE document and moved the case on: nothing to release.
              uploaded.current = true;
              clearPendingCasePatch();
              setRemedyOpen(false);
              onClose();
            }}
          />
        </Suspense>
      )}
      {confirmDiscard && (
        <DialogFrame
          title={M.discardTitle}
          testId="upload-discard"
          onClose={() => setConfirmDiscard(false)}
          size="sm"
          role="alertdialog"
          closeButton={false}
          footer={
            <DialogActions
              onCancel={() => setConfirmDiscard(false)}
              primary={{ label: M.discard, onClick: close, colorPalette: 'red' }}
            />
          }
        >
          <Text>{M.discardText}</Text>
        </DialogFrame>
      )}
    </>
  );
}

export default UploadRepresentmentModal;
