import { Text } from '@chakra-ui/react';
import type { Template } from '@portal/contracts';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';

/** Delete with confirmation. */
export function DeleteTemplateDialog({
  template,
  busy,
  onConfirm,
  onClose,
}: {
  template: Template;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <DialogFrame
      title="Delete Template"
      testId="delete-template-dialog"
      onClose={onClose}
      size="sm"
      role="alertdialog"
      footer={
        <DialogActions
          onCancel={onClose}
          primary={{ label: 'Delete', onClick: onConfirm, loading: busy, colorPalette: 'red' }}
        />
      }
    >
      <Text>{`Are you sure you want to delete the template '${template.name}'?`}</Text>
    </DialogFrame>
  );
}
