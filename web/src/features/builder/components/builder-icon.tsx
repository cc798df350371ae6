import type { CaseRow } from '@portal/contracts';
import { IconButton } from '@chakra-ui/react';
import { LineIcon } from './builder-icons';

export function BuilderIcon({
  row,
  state,
  onOpen,
}: {
  row: CaseRow;
  state: 'disabled' | 'enabled';
  onOpen: (row: CaseRow) => void;
}) {
  return (
    <IconButton
      size="2xs"
      variant="ghost"
      aria-label={`Case Builder for case ${row.id}`}
      title={state === 'enabled' ? 'Case Builder' : 'Case Builder (assign the case to yourself first)'}
      disabled={state === 'disabled'}
      onClick={() => onOpen(row)}
      data-testid={`builder-icon-${row.id}`}
    >
      <LineIcon name="wrench" size={14} />
    </IconButton>
  );
}
