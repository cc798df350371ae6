import { Button, CloseButton, Dialog, Portal, Text } from '@chakra-ui/react';
import type { Template } from '@portal/contracts';

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
    <Dialog.Root
      open
      onOpenChange={(e) => !e.open && onClose()}
      size="sm"
      placement="center"
      role="alertdialog"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="delete-template-dialog">
            <Dialog.Header>
              <Dialog.Title>Delete Template</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text>{`Are you sure you want to delete the template '${template.name}'?`}</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button colorPalette="red" onClick={onConfirm} loading={busy}>
                Delete
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
