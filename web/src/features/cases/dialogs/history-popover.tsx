import type { CaseRow } from '@portal/contracts';
import { Button, CloseButton, Popover, Portal, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { CaseHistoryGrid } from './history-dialog';

/** Popover widths by breakpoint (spec 2 §2.3); breakpoints at 600, 900, 1200 and 1536 px. */
export const HISTORY_POPOVER_WIDTHS = { xs: 445, sm: 600, md: 900, lg: 1200, xl: 1535 } as const;

const WIDTH_CSS = {
  width: `${HISTORY_POPOVER_WIDTHS.xs}px`,
  maxWidth: 'calc(100vw - 16px)',
  '@media (min-width: 600px)': { width: `${HISTORY_POPOVER_WIDTHS.sm}px` },
  '@media (min-width: 900px)': { width: `${HISTORY_POPOVER_WIDTHS.md}px` },
  '@media (min-width: 1200px)': { width: `${HISTORY_POPOVER_WIDTHS.lg}px` },
  '@media (min-width: 1536px)': { width: `${HISTORY_POPOVER_WIDTHS.xl}px` },
};

/**
 * The popover 'Case History' of the data-grid lists, anchored to the row's
 * actions (`children`); the same grid as the modal.
 */
export function HistoryPopover({
  row,
  open,
  onOpenChange,
  children,
}: {
  row: CaseRow;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}) {
  return (
    <Popover.Root
      open={open}
      onOpenChange={(e) => onOpenChange(e.open)}
      positioning={{ placement: 'bottom-end', flip: true }}
      lazyMount
      unmountOnExit
    >
      <Popover.Anchor asChild>{children}</Popover.Anchor>
      <Portal>
        <Popover.Positioner>
          <Popover.Content css={WIDTH_CSS} data-testid="history-popover">
            <Popover.Header pb="1">
              <Popover.Title fontWeight="semibold">Case History</Popover.Title>
              <Text fontSize="xs" color="fg.muted">
                Case No: {row.case_no}
              </Text>
            </Popover.Header>
            <Popover.Body pt="2">
              <CaseHistoryGrid caseId={row.id} />
            </Popover.Body>
            <Popover.Footer justifyContent="flex-end">
              <Button size="sm" onClick={() => onOpenChange(false)}>
                Close History
              </Button>
            </Popover.Footer>
            <Popover.CloseTrigger asChild position="absolute" top="2" insetEnd="2">
              <CloseButton size="sm" />
            </Popover.CloseTrigger>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
