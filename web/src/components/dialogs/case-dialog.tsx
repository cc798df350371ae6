import { Button } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { DialogFrame } from '../dialog-frame';

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
    <DialogFrame
      title={title}
      testId={testId}
      onClose={onClose}
      size={size}
      footer={
        <>
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
        </>
      }
    >
      {children}
    </DialogFrame>
  );
}
