import type { CaseRow } from '@portal/contracts';
import { Icon, IconButton } from '@chakra-ui/react';
import { Wrench } from 'lucide-react';

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
      <Icon boxSize="3.5">
        <Wrench />
      </Icon>
    </IconButton>
  );
}
