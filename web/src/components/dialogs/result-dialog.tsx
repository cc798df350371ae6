import { Text } from '@chakra-ui/react';
import { useEffect } from 'react';
import { DialogFrame } from '../dialog-frame';

export interface ActionResult {
  ok: boolean;
  message: string;
  /** Default 'Success.' / 'Error.'. */
  title?: string;
}

/** Success/error dialog that closes itself after 2 s (spec 2 §2.3, §9). */
export function ResultDialog({
  result,
  onClose,
  autoCloseMs = 2000,
}: {
  result: ActionResult;
  onClose: () => void;
  autoCloseMs?: number;
}) {
  useEffect(() => {
    const t = setTimeout(onClose, autoCloseMs);
    return () => clearTimeout(t);
  }, [result, onClose, autoCloseMs]);
  return (
    <DialogFrame
      title={
        <Text as="span" color={result.ok ? 'green.600' : 'red.600'}>
          {result.title ?? (result.ok ? 'Success.' : 'Error.')}
        </Text>
      }
      testId="result-dialog"
      data={{ 'data-ok': result.ok }}
      onClose={onClose}
      size="sm"
      role="alertdialog"
      closeButton={false}
    >
      <Text>{result.message}</Text>
    </DialogFrame>
  );
}
