import { REMEDY_MESSAGES as M, REMEDY_RULES as R, type RemedyViolation } from '@portal/contracts';
import { Alert, Box, Stack, Text } from '@chakra-ui/react';
import { useEffect } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { groupViolations } from '../lib/remedy-form';

/**
 * 'Errors Submitting Remedy' (spec 2 §8 'Remedy failure'): error intent, hides
 * after 10 s; the server's message, then a block per undisputed transaction
 * ('-- Errors for 1st Undistputed Transaction --') with the label and text of
 * each violation. With no violations, only the message.
 */
export function RemedyErrorsDialog({
  message,
  violations,
  onClose,
}: {
  message: string;
  violations: readonly RemedyViolation[];
  onClose: () => void;
}) {
  useEffect(() => {
    const timer = setTimeout(onClose, R.failureHideMs);
    return () => clearTimeout(timer);
  }, [onClose]);
  const groups = groupViolations(violations);
  return (
    <DialogFrame
      testId="remedy-errors"
      onClose={onClose}
      role="alertdialog"
      closeButton={false}
      footer={<DialogActions onCancel={onClose} cancelLabel="Close" cancelTestId="remedy-errors-close" />}
    >
      <Alert.Root status="error" borderRadius="md" alignItems="flex-start">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title data-testid="remedy-errors-title">{M.dialogTitle}</Alert.Title>
          <Alert.Description>
            <Stack gap="2" mt="1" fontSize="sm">
              <Text data-testid="remedy-errors-message">{message}</Text>
              {groups.general.map((v, i) => (
                <Text key={`g${i}`}>
                  <b>{v.label}:</b> {v.title}
                </Text>
              ))}
              {groups.transactions.map((t) => (
                <Box key={t.heading} data-testid="remedy-errors-block">
                  <Text fontWeight="semibold">{t.heading}</Text>
                  {t.items.map((v, i) => (
                    <Text key={i}>
                      <b>{v.label}:</b> {v.title}
                    </Text>
                  ))}
                </Box>
              ))}
            </Stack>
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
    </DialogFrame>
  );
}
