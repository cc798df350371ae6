import type { ReactNode } from 'react';
import { DialogActions, DialogFrame, type DialogAction } from '../dialog-frame';

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
  primary?: DialogAction;
  testId: string;
  size?: 'sm' | 'md' | 'lg' | 'xl';
}) {
  return (
    <DialogFrame
      title={title}
      testId={testId}
      onClose={onClose}
      size={size}
      footer={<DialogActions onCancel={onClose} primary={primary} />}
    >
      {children}
    </DialogFrame>
  );
}
