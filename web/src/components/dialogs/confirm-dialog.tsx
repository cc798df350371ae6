import { Text } from '@chakra-ui/react';
import { CaseDialog } from './case-dialog';

/** The generic confirm dialog (DNR, revert, approval, overwrite). */
export function ConfirmDialog({
  title,
  message,
  confirmLabel = 'Continue',
  onConfirm,
  onClose,
  busy,
  testId = 'confirm-dialog',
}: {
  title: string;
  message: string;
  confirmLabel?: string;
  onConfirm: () => void;
  onClose: () => void;
  busy?: boolean;
  testId?: string;
}) {
  return (
    <CaseDialog
      title={title}
      onClose={onClose}
      testId={testId}
      primary={{ label: confirmLabel, onClick: onConfirm, loading: busy }}
    >
      <Text>{message}</Text>
    </CaseDialog>
  );
}
