import type { CaseRow } from '@portal/contracts';
import { Button, HStack, Icon, IconButton, Menu, Portal } from '@chakra-ui/react';
import { EllipsisVertical } from 'lucide-react';
import { HistoryPopover } from '../dialogs/history-popover';
import type { EditRule } from '../lib/edit-rules';
import { useRowMenu } from '../../../lib/row-menu-state';

export type RowAction = 'edit' | 'flag' | 'assign' | 'dnr' | 'revert' | 'history' | 'comment';

/** Where 'Case History' opens: the modal (classic lists) or the popover (data-grid lists). */
export type HistoryVariant = 'modal' | 'popover';

/**
 * The Actions cell: an actions menu (absent for read-only users) and the
 * 'Case Menu' with its one item 'Case History' (spec 2 §2.3, §4, §6).
 *
 * Open states are reported to the grid (useRowMenu), and a cell drawn anew
 * starts from them, so a redrawn row keeps its menu open. The menus stay
 * uncontrolled otherwise: a controlled close hands focus back to the
 * trigger only after React has rendered, which is after the dialog an item
 * opens has taken focus, and that dialog then closes as 'focus outside'.
 */
export function RowActions({
  row,
  readOnly,
  edit,
  history,
  onAction,
}: {
  row: CaseRow;
  readOnly: boolean;
  edit: EditRule;
  history: HistoryVariant;
  onAction: (action: RowAction, row: CaseRow) => void;
}) {
  const [actionsOpen, setActionsOpen] = useRowMenu(row.id, 'actions');
  const [caseMenuOpen, setCaseMenuOpen] = useRowMenu(row.id, 'case');
  const [historyOpen, setHistoryOpen] = useRowMenu(row.id, 'history');
  const p = row.properties;
  const dnrLabel = p.is_revert_dnr_enabled ? 'Revert Do Not Represent' : 'Do Not Represent';
  const dnrEnabled = p.is_revert_dnr_enabled || p.is_dnr_enabled;
  const cell = (
    <HStack gap="1" h="full" data-testid={`row-actions-${row.id}`}>
      {!readOnly && (
        <Menu.Root
          defaultOpen={actionsOpen}
          onOpenChange={(e) => setActionsOpen(e.open)}
          positioning={{ placement: 'bottom-end' }}
        >
          <Menu.Trigger asChild>
            <Button size="2xs" variant="outline" aria-label={`Actions for case ${row.id}`}>
              Actions
            </Button>
          </Menu.Trigger>
          <Portal>
            <Menu.Positioner>
              <Menu.Content minW="52" data-testid={`row-menu-${row.id}`}>
                <Menu.Item
                  value="edit"
                  disabled={!!edit.disabledReason}
                  title={edit.disabledReason ?? undefined}
                  onSelect={() => onAction('edit', row)}
                >
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
                <Menu.Item value="comment" onSelect={() => onAction('comment', row)}>
                  Add Comment
                </Menu.Item>
              </Menu.Content>
            </Menu.Positioner>
          </Portal>
        </Menu.Root>
      )}
      <Menu.Root
        defaultOpen={caseMenuOpen}
        onOpenChange={(e) => setCaseMenuOpen(e.open)}
        positioning={{ placement: 'bottom-end' }}
      >
        <Menu.Trigger asChild>
          <IconButton size="2xs" variant="ghost" aria-label="Case Menu" title="Case Menu">
            <Icon size="sm">
              <EllipsisVertical />
            </Icon>
          </IconButton>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content data-testid={`case-menu-${row.id}`}>
              <Menu.Item
                value="history"
                onSelect={() => (history === 'popover' ? setHistoryOpen(true) : onAction('history', row))}
              >
                Case History
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
    </HStack>
  );
  if (history === 'modal') return cell;
  return (
    <HistoryPopover row={row} open={historyOpen} onOpenChange={setHistoryOpen}>
      {cell}
    </HistoryPopover>
  );
}
