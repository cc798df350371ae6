import { Dialog, Portal, Text } from '@chakra-ui/react';
import { useEffect } from 'react';

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
          <Dialog.Content data-testid="result-dialog" data-ok={result.ok}>
            <Dialog.Header>
              <Dialog.Title color={result.ok ? 'green.600' : 'red.600'}>
                {result.title ?? (result.ok ? 'Success.' : 'Error.')}
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body pb="6">
              <Text>{result.message}</Text>
            </Dialog.Body>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
