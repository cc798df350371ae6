import type { CaseRow } from '@portal/contracts';
import { Button, HStack, IconButton, Menu, Portal } from '@chakra-ui/react';

export type RowAction = 'edit' | 'flag' | 'assign' | 'dnr' | 'revert' | 'history';

/**
 * The Actions cell: an actions menu (absent for read-only users) and the
 * 'Case Menu' with its one item 'Case History' (spec 2 §2.3, §4, §6).
 */
export function RowActions({
  row,
  readOnly,
  onAction,
}: {
  row: CaseRow;
  readOnly: boolean;
  onAction: (action: RowAction, row: CaseRow) => void;
}) {
  const p = row.properties;
  const dnrLabel = p.is_revert_dnr_enabled ? 'Revert Do Not Represent' : 'Do Not Represent';
  const dnrEnabled = p.is_revert_dnr_enabled || p.is_dnr_enabled;
  return (
    <HStack gap="1" h="full" data-testid={`row-actions-${row.id}`}>
      {!readOnly && (
        <Menu.Root positioning={{ placement: 'bottom-end' }}>
          <Menu.Trigger asChild>
            <Button size="2xs" variant="outline" aria-label={`Actions for case ${row.id}`}>
              Actions
            </Button>
          </Menu.Trigger>
          <Portal>
            <Menu.Positioner>
              <Menu.Content minW="52">
                <Menu.Item value="edit" onSelect={() => onAction('edit', row)}>
                  Edit Chargeback
                </Menu.Item>
                <Menu.Item value="flag" onSelect={() => onAction('flag', row)}>
                  {row.flag?.is_flagged ? 'Unflag Chargeback' : 'Flag Chargeback'}
                </Menu.Item>
                <Menu.Item
                  value="assign"
                  disabled={!p.is_assign_user_enabled}
                  onSelect={() => onAction('assign', row)}
                >
                  {row.assigned_user ? 'Reassign / Unassign' : 'Assign Case'}
                </Menu.Item>
                <Menu.Item
                  value="dnr"
                  disabled={!dnrEnabled}
                  title={dnrEnabled ? undefined : `Case ${row.status_group}`}
                  onSelect={() => onAction(p.is_revert_dnr_enabled ? 'revert' : 'dnr', row)}
                >
                  {dnrEnabled ? dnrLabel : `Do Not Represent (Case ${row.status_group})`}
                </Menu.Item>
              </Menu.Content>
            </Menu.Positioner>
          </Portal>
        </Menu.Root>
      )}
      <Menu.Root positioning={{ placement: 'bottom-end' }}>
        <Menu.Trigger asChild>
          <IconButton size="2xs" variant="ghost" aria-label="Case Menu" title="Case Menu">
            ⋮
          </IconButton>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content>
              <Menu.Item value="history" onSelect={() => onAction('history', row)}>
                Case History
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
    </HStack>
  );
}
