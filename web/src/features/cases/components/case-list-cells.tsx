import type { CaseRow, StackConfig, UserProfile } from '@portal/contracts';
import { HStack } from '@chakra-ui/react';
import { useCallback, type ReactNode } from 'react';
import type { CaseColumn } from '../lib/case-columns';
import { editRule } from '../lib/edit-rules';
import { useCaseSlots } from '../lib/case-slots';
import { AssignedIconCell, DocumentCell, FlagCell } from '../../../components/case-cells';
import { IssuerDocsCell } from './issuer-docs-cell';
import { RowActions, type HistoryVariant, type RowAction } from './row-actions';

/**
 * The custom cells of a case list's grid (flag, document, issuer documents,
 * assignment, row actions with the case builder icon), for the view's user
 * and tab; the view may bring its own assign control and row action.
 */
export function useCaseCellRenderer({
  profile,
  tab,
  stackConfig,
  historyVariant,
  clientKind,
  renderAssign,
  extraRowAction,
  afterWrite,
  onAction,
  onUpload,
  onBuilder,
}: {
  profile: UserProfile;
  tab: string | null;
  stackConfig: StackConfig | undefined;
  historyVariant: HistoryVariant;
  clientKind: Parameters<typeof DocumentCell>[0]['clientKind'];
  renderAssign?: (row: CaseRow, done: () => void) => ReactNode;
  extraRowAction?: (row: CaseRow, done: () => void) => ReactNode;
  afterWrite: () => void;
  onAction: (action: RowAction, row: CaseRow) => void;
  onUpload: (row: CaseRow) => void;
  onBuilder: (row: CaseRow) => void;
}) {
  const readOnly = profile.is_read_only;
  const { builder } = useCaseSlots();
  return useCallback(
    (kind: CaseColumn['kind'], row: CaseRow): ReactNode => {
      switch (kind) {
        case 'flag':
          return <FlagCell row={row} />;
        case 'document':
          return <DocumentCell row={row} onUpload={onUpload} readOnly={readOnly} clientKind={clientKind} />;
        case 'issuer-docs':
          return <IssuerDocsCell row={row} />;
        case 'assigned-icon':
          return <AssignedIconCell row={row} />;
        case 'assign-control':
          return renderAssign ? renderAssign(row, afterWrite) : <AssignedIconCell row={row} />;
        case 'actions':
          return extraRowAction ? (
            extraRowAction(row, afterWrite)
          ) : (
            // Keyed by case: a row node that now shows another case starts a fresh cell.
            <HStack key={row.id} gap="1" h="full">
              {/* The case builder icon (spec 2 §2.1, §6: tabs new_cases, assigned, in_progress; elsewhere
                  when the case itself qualifies, issue 29). */}
              {builder && builder.iconState(profile, tab, row) !== 'hidden' && (
                <builder.Icon
                  row={row}
                  state={builder.iconState(profile, tab, row) === 'enabled' ? 'enabled' : 'disabled'}
                  onOpen={onBuilder}
                />
              )}
              <RowActions
                row={row}
                readOnly={readOnly}
                edit={editRule(row, stackConfig, readOnly)}
                history={historyVariant}
                onAction={onAction}
              />
            </HStack>
          );
        default:
          return null;
      }
    },
    [
      readOnly,
      onAction,
      onUpload,
      onBuilder,
      builder,
      renderAssign,
      extraRowAction,
      afterWrite,
      stackConfig,
      historyVariant,
      clientKind,
      profile,
      tab,
    ],
  );
}
