import { CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useFinalFocus } from './dialog-focus';

/** A modal dialog frame: title, body, footer, close icon (one look for every small dialog). */
export function DialogFrame({
  title,
  testId,
  onClose,
  children,
  footer,
  size = 'md',
}: {
  title: string;
  testId: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg' | 'xl';
}) {
  const finalFocus = useFinalFocus();
  // Ark's Dialog traps focus, closes on Escape and returns focus (to the opener: useFinalFocus).
  return (
    <Dialog.Root
      open
      onOpenChange={(e) => !e.open && onClose()}
      size={size}
      placement="center"
      finalFocusEl={finalFocus}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId}>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{children}</Dialog.Body>
            {footer && <Dialog.Footer>{footer}</Dialog.Footer>}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
