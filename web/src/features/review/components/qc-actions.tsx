import { QC_ACTION, QC_DNR_FLAG, QC_MESSAGES, REUPLOADABLE_STATUSES, type QcCase } from '@portal/contracts';
import { Button, HStack } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { useProfile } from '../../../lib/auth/auth-context';
import { useTenant } from '../../../lib/tenant-config';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import type { ActionResult } from '../../../components/dialogs/result-dialog';
import { forgetCasePatch } from '../../../lib/case-patch';
import { invalidateCaseFigures } from '../../../lib/case-writes';
import { MSG, serverOr } from '../../../lib/case-messages';
import { useAddErt } from '../api/add-ert';
import { qcAction, qcDoNotRepresent } from '../api/qc-action';
import { hasResource } from '../lib/review-access';
import { ErtDialog } from './ert-dialog';
import { useReviewSlots } from '../lib/review-slots';

type Open = 'approve' | 'dnr' | 'ert' | 'reupload' | null;

// The upload modal (and its PDF checks) loads only when a reviewer re-uploads.

/**
 * The QC actions of a case (spec 2 §2.4): approve after 'Confirm Approval',
 * Do Not Represent when the client flag is on, Add ERT with QC_REVIEW_ADD_ERT,
 * and Re-upload: the upload modal as a re-upload (spec 2 §4: the case is not
 * held again, closing releases nothing, no Quality Review checkbox; the docs
 * service then compiles and transports the new version). After approve, DNR
 * or a re-upload the next case loads (onNext).
 */
export function QcActions({
  c,
  blocked,
  onNext,
  onResult,
}: {
  c: QcCase;
  blocked: boolean;
  onNext: () => void;
  /** Shown by the route: the view unmounts these actions while the next case loads. */
  onResult: (result: ActionResult) => void;
}) {
  const profile = useProfile();
  const { UploadRepresentmentModal } = useReviewSlots();
  const tenant = useTenant();
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState(false);
  const addErt = useAddErt();
  const queryClient = useQueryClient();
  const readOnly = profile.is_read_only;
  const canErt = !readOnly && hasResource(profile, 'QC_REVIEW_ADD_ERT');
  const canDnr = tenant.flags[QC_DNR_FLAG] === true;
  // Spec 2 §2.4 gates uploads from this area on properties.is_upload_representment_enabled, which
  // the case service sets for first uploads (New, Working) only; a QC case (DocUploaded) takes a
  // re-upload, so the docs service's own rule (REUPLOADABLE_STATUSES) decides here.
  const canReupload =
    !readOnly &&
    (c.properties.is_upload_representment_enabled || REUPLOADABLE_STATUSES.includes(c.status_id));

  const act = async (outcome: 'approve' | 'dnr') => {
    setBusy(true);
    try {
      if (outcome === 'approve') await qcAction({ id: c.id, action_id: QC_ACTION.Approve });
      else await qcDoNotRepresent({ id: c.id });
      forgetCasePatch(c.id);
      // The reports and the dashboard; not the case queries: a QC case is claimed on every read.
      void invalidateCaseFigures(queryClient);
      setOpen(null);
      onResult({
        ok: true,
        message: outcome === 'approve' ? QC_MESSAGES.approved(c.id) : QC_MESSAGES.dnr(c.id),
      });
      onNext();
    } catch (e) {
      setOpen(null);
      onResult({
        ok: false,
        message: outcome === 'dnr' ? QC_MESSAGES.failed : serverOr(e, QC_MESSAGES.failed),
      });
    } finally {
      setBusy(false);
    }
  };

  const saveErt = (content: string) =>
    addErt.mutate(
      { caseId: c.id, merchantId: c.merchant_id, userId: profile.id, content },
      {
        onSuccess: () => {
          setOpen(null);
          onResult({ ok: true, message: QC_MESSAGES.ertSaved });
        },
        onError: () => onResult({ ok: false, message: QC_MESSAGES.ertFailed }),
      },
    );

  return (
    <>
      <HStack gap="2" flexWrap="wrap">
        <Button colorPalette="brand" disabled={readOnly || blocked} onClick={() => setOpen('approve')}>
          Approve
        </Button>
        {canDnr && (
          <Button
            variant="outline"
            colorPalette="red"
            disabled={readOnly || blocked}
            onClick={() => setOpen('dnr')}
          >
            Do Not Represent
          </Button>
        )}
        {canErt && (
          <Button variant="outline" onClick={() => setOpen('ert')}>
            Add ERT
          </Button>
        )}
        {canReupload && (
          <Button
            variant="outline"
            disabled={blocked}
            onClick={() => setOpen('reupload')}
            data-testid="qc-reupload"
          >
            Re-upload Representment
          </Button>
        )}
      </HStack>
      {open === 'reupload' && UploadRepresentmentModal && (
        <Suspense fallback={null}>
          <UploadRepresentmentModal
            row={c}
            isReupload
            legacyTitle
            onClose={() => setOpen(null)}
            onUploaded={(answer) => {
              onResult({ ok: true, title: answer.title, message: answer.message });
              onNext();
            }}
          />
        </Suspense>
      )}
      {open === 'approve' && (
        <ConfirmDialog
          title="Approve Case"
          message={`Approve case ${c.case_no} (CB ID ${c.id}) and send its representment to transport?`}
          confirmLabel="Confirm Approval"
          onConfirm={() => void act('approve')}
          onClose={() => setOpen(null)}
          busy={busy}
          testId="qc-approve-dialog"
        />
      )}
      {open === 'dnr' && (
        <ConfirmDialog
          title="Move Case to Do Not Represent"
          message={MSG.dnrConfirm}
          onConfirm={() => void act('dnr')}
          onClose={() => setOpen(null)}
          busy={busy}
        />
      )}
      {open === 'ert' && (
        <ErtDialog onSubmit={saveErt} onClose={() => setOpen(null)} busy={addErt.isPending} />
      )}
    </>
  );
}
