import { Button, CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** The frame of every case dialog: title, body, footer with Cancel and a primary action. */
export function CaseDialog({
  title,
  children,
  onClose,
  primary,
  testId,
  size = 'md',
}: {
  title: string;
  children: ReactNode;
  onClose: () => void;
  primary?: {
    label: string;
    onClick: () => void;
    disabled?: boolean;
    loading?: boolean;
    loadingText?: string;
  };
  testId: string;
  size?: 'sm' | 'md' | 'lg' | 'xl';
}) {
  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size={size} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId}>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{children}</Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                Cancel
              </Button>
              {primary && (
                <Button
                  colorPalette="brand"
                  onClick={primary.onClick}
                  disabled={primary.disabled}
                  loading={primary.loading}
                  loadingText={primary.loadingText}
                >
                  {primary.label}
                </Button>
              )}
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
