import { CloseButton, Drawer, Portal, useBreakpointValue } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { DialogFrame } from '../../../components/dialog-frame';

/** Add/Edit opens in a dialog on wide screens and in a right drawer on small ones (spec 3 §2). */
export function ResponsivePanel({
  open,
  title,
  onClose,
  children,
  testId,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId: string;
}) {
  const wide = useBreakpointValue({ base: false, md: true }) ?? true;
  const change = (e: { open: boolean }) => {
    if (!e.open) onClose();
  };
  if (wide)
    return (
      <DialogFrame
        title={title}
        testId={testId}
        onClose={onClose}
        open={open}
        size="lg"
        placement="top"
        scrollBehavior="inside"
      >
        {children}
      </DialogFrame>
    );
  return (
    <Drawer.Root open={open} onOpenChange={change} placement="end" size="md" lazyMount unmountOnExit>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid={testId}>
            <Drawer.Header>
              <Drawer.Title>{title}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>{children}</Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
