import { Alert } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** An inline notice (error, info, success) used by forms and panels; data-status names its kind (tests find errors by it). */
export function Notice({
  status = 'info',
  title,
  children,
  testId,
}: {
  status?: 'error' | 'info' | 'success' | 'warning';
  title?: string;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <Alert.Root status={status} data-status={status} data-testid={testId} borderRadius="md">
      <Alert.Indicator />
      <Alert.Content>
        {title && <Alert.Title>{title}</Alert.Title>}
        {children && <Alert.Description>{children}</Alert.Description>}
      </Alert.Content>
    </Alert.Root>
  );
}
