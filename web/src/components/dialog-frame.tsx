import { Button, CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useFinalFocus } from './dialog-focus';

export interface DialogFrameProps {
  /** The heading; without one the dialog has no header (its body says what it is). */
  title?: ReactNode;
  /** More of the header, under the title (a sub-heading, a case's facts, steps). */
  subheader?: ReactNode;
  testId: string;
  /** Escape, the X, a click beside it (unless turned off): the caller decides whether it closes. */
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  placement?: 'center' | 'top';
  /** 'alertdialog' puts the first focus on the X (on the first button when there is none). */
  role?: 'dialog' | 'alertdialog';
  /**
   * Left out, the dialog is open while it is mounted. Given, it is open while this holds; its
   * content is mounted then only, and focus returns by Ark's own rule (the dialog outlives its opener).
   */
  open?: boolean;
  /** The X in the corner: shown unless false; a label other than 'Close', or disabled for a while. */
  closeButton?: boolean | { label?: string; disabled?: boolean };
  /** False where a click beside the dialog must not close it (the page behind takes focus back). */
  closeOnInteractOutside?: boolean;
  scrollBehavior?: 'inside' | 'outside';
  /** data-* attributes of the content, for tests that read the dialog's state. */
  data?: Record<`data-${string}`, string | number | boolean | undefined>;
}

/** A modal dialog frame: title, body, footer, close icon (one look for every dialog). */
export function DialogFrame({
  title,
  subheader,
  testId,
  onClose,
  children,
  footer,
  size = 'md',
  placement = 'center',
  role,
  open,
  closeButton = true,
  closeOnInteractOutside,
  scrollBehavior,
  data,
}: DialogFrameProps) {
  const finalFocus = useFinalFocus();
  const controlled = open !== undefined;
  const close = closeButton === true ? {} : closeButton || null;
  // Ark's Dialog traps focus, closes on Escape and returns focus (to the opener: useFinalFocus).
  return (
    <Dialog.Root
      open={open ?? true}
      onOpenChange={(e) => !e.open && onClose()}
      size={size}
      placement={placement}
      role={role}
      closeOnInteractOutside={closeOnInteractOutside}
      scrollBehavior={scrollBehavior}
      finalFocusEl={controlled ? undefined : finalFocus}
      lazyMount={controlled}
      unmountOnExit={controlled}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId} {...data}>
            {title !== undefined && (
              <Dialog.Header
                {...(subheader ? { flexDirection: 'column', alignItems: 'stretch', gap: '1' } : {})}
              >
                <Dialog.Title>{title}</Dialog.Title>
                {subheader}
              </Dialog.Header>
            )}
            {/* Without a header the body keeps clear of the dialog's top edge. */}
            <Dialog.Body pt={title === undefined ? '5' : undefined}>{children}</Dialog.Body>
            {footer && <Dialog.Footer>{footer}</Dialog.Footer>}
            {close && (
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={close.label ?? 'Close'} disabled={close.disabled} />
              </Dialog.CloseTrigger>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

export interface DialogAction {
  label: ReactNode;
  onClick: () => void;
  disabled?: boolean;
  loading?: boolean;
  loadingText?: string;
  testId?: string;
  /** 'red' for an action that deletes or discards. */
  colorPalette?: 'brand' | 'red';
}

/** The usual footer of a dialog: Cancel (or another way out) and the primary action. */
export function DialogActions({
  onCancel,
  cancelLabel = 'Cancel',
  cancelDisabled,
  cancelTestId,
  primary,
}: {
  onCancel: () => void;
  cancelLabel?: string;
  cancelDisabled?: boolean;
  cancelTestId?: string;
  primary?: DialogAction;
}) {
  return (
    <>
      <Button variant="outline" onClick={onCancel} disabled={cancelDisabled} data-testid={cancelTestId}>
        {cancelLabel}
      </Button>
      {primary && (
        <Button
          colorPalette={primary.colorPalette ?? 'brand'}
          onClick={primary.onClick}
          disabled={primary.disabled}
          loading={primary.loading}
          loadingText={primary.loadingText}
          data-testid={primary.testId}
        >
          {primary.label}
        </Button>
      )}
    </>
  );
}
