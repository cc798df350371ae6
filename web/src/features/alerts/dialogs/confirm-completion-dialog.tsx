import { Text } from '@chakra-ui/react';
import type { AlertRow } from '@portal/contracts';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';

/** Confirm Completion: completing is final (spec 2 §4). */
export function ConfirmCompletionDialog({
  alert,
  busy,
  onConfirm,
  onClose,
}: {
  alert: AlertRow;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <DialogFrame
      title="Confirm Completion"
      testId="confirm-completion-dialog"
      onClose={onClose}
      size="sm"
      footer={
        <DialogActions
          onCancel={onClose}
          primary={{ label: 'Confirm', onClick: onConfirm, loading: busy, testId: 'confirm-completion' }}
        />
      }
    >
      <Text>{`Complete alert record ${alert.alert_id} with the outcome '${alert.outcome ?? ''}'? A completed alert can no longer be changed.`}</Text>
    </DialogFrame>
  );
}
