import { Text } from '@chakra-ui/react';
import { ONBOARDING_MESSAGES as M } from '@portal/contracts';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { toaster } from '../../../components/toaster';
import { useDiscardOnboarding } from '../api/onboarding-api';

/**
 * Asks before an unfinalized upload is discarded (issue 29: abandoned uploads
 * piled up in the history); the server refuses a file that is finalizing or
 * finalized and its message is shown.
 */
export function DiscardOnboardingDialog({
  file,
  onClose,
  onDiscarded,
}: {
  file: { id: number; name: string };
  onClose: () => void;
  onDiscarded?: () => void;
}) {
  const discard = useDiscardOnboarding();
  function confirm() {
    discard.mutate(file.id, {
      onSuccess: (r) => {
        toaster.create({ type: 'success', description: r.message || M.discarded });
        onClose();
        onDiscarded?.();
      },
      onError: (e) => toaster.create({ type: 'error', description: e.message || M.error }),
    });
  }
  return (
    <DialogFrame
      title="Discard Upload"
      testId="onboarding-discard-dialog"
      onClose={onClose}
      size="sm"
      footer={
        <DialogActions
          onCancel={onClose}
          primary={{
            label: 'Discard',
            onClick: confirm,
            loading: discard.isPending,
            colorPalette: 'red',
            testId: 'onboarding-discard-confirm',
          }}
        />
      }
    >
      <Text>{M.discardConfirm(file.name)}</Text>
    </DialogFrame>
  );
}
