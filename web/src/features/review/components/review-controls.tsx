import { REVIEW_MESSAGES, type CaseRow } from '@portal/contracts';
import { Button, HStack, Menu, Portal } from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { AssignedIconCell } from '../../cases/components/case-cells';
import { AssignDialog } from '../../cases/dialogs/assign-dialog';
import { ResultDialog, type ActionResult } from '../../cases/dialogs/result-dialog';
import { MSG, serverOr } from '../../cases/lib/case-messages';
import { useReviewCases } from '../api/review-cases';
import { ReviewActionDialog } from './review-action-dialog';
import { REVIEW_ACTIONS } from '@portal/contracts';

function useReviewResult() {
  const [result, setResult] = useState<ActionResult | null>(null);
  const dialog = result && <ResultDialog result={result} onClose={() => setResult(null)} />;
  return { setResult, dialog };
}

/** The Assigned control of admin review: assignee and an assign/unassign dialog through PATCH /cm/review. */
export function ReviewAssignControl({
  row,
  readOnly,
  done,
}: {
  row: CaseRow;
  readOnly: boolean;
  done: () => void;
}) {
  const [open, setOpen] = useState(false);
  const review = useReviewCases();
  const { setResult, dialog } = useReviewResult();
  const enabled = !readOnly && row.properties.is_assign_user_enabled;
  const submit = (userId: number | null) =>
    review.mutate(
      { ids: [row.id], assignId: userId },
      {
        onSuccess: (r) => {
          setOpen(false);
          setResult({ ok: true, message: r.message });
          done();
        },
        onError: (e) => {
          setOpen(false);
          setResult({
            ok: false,
            message: serverOr(e, userId === null ? MSG.unassignOneError : MSG.assignOneError),
          });
        },
      },
    );
  return (
    <HStack h="full" gap="1">
      <AssignedIconCell row={row} />
      {enabled && (
        <Button size="2xs" variant="ghost" onClick={() => setOpen(true)} aria-label={`Assign case ${row.id}`}>
          {row.assigned_user ? 'Change' : 'Assign'}
        </Button>
      )}
      {open && (
        <AssignDialog
          cases={[row]}
          onSubmit={submit}
          onClose={() => setOpen(false)}
          busy={review.isPending}
        />
      )}
      {dialog}
    </HStack>
  );
}

/** The Actions cell of admin review: actions by id (optional note) and the case view. */
export function ReviewRowActions({
  row,
  readOnly,
  done,
}: {
  row: CaseRow;
  readOnly: boolean;
  done: () => void;
}) {
  const [actionId, setActionId] = useState<number | null>(null);
  const review = useReviewCases();
  const { setResult, dialog } = useReviewResult();
  const submit = (id: number, note: string) =>
    review.mutate(
      { ids: [row.id], actionId: id, note },
      {
        onSuccess: () => {
          setActionId(null);
          setResult({ ok: true, message: REVIEW_MESSAGES.reviewed });
          done();
        },
        onError: (e) => {
          setActionId(null);
          setResult({ ok: false, message: serverOr(e, REVIEW_MESSAGES.failed) });
        },
      },
    );
  return (
    <HStack h="full" gap="1" data-testid={`review-actions-${row.id}`}>
      {!readOnly && (
        <Menu.Root positioning={{ placement: 'bottom-end' }}>
          <Menu.Trigger asChild>
            <Button size="2xs" variant="outline" aria-label={`Review actions for case ${row.id}`}>
              Actions
            </Button>
          </Menu.Trigger>
          <Portal>
            <Menu.Positioner>
              <Menu.Content minW="48">
                {REVIEW_ACTIONS.map((a) => (
                  <Menu.Item key={a.id} value={String(a.id)} onSelect={() => setActionId(a.id)}>
                    {a.name}
                  </Menu.Item>
                ))}
              </Menu.Content>
            </Menu.Positioner>
          </Portal>
        </Menu.Root>
      )}
      <Button asChild size="2xs" variant="ghost">
        <RouterLink to={`/review/view-case/${row.id}`}>View</RouterLink>
      </Button>
      {actionId !== null && (
        <ReviewActionDialog
          caseLabel={`Case ${row.case_no} (CB ID ${row.id})`}
          initialAction={actionId}
          onSubmit={submit}
          onClose={() => setActionId(null)}
          busy={review.isPending}
        />
      )}
      {dialog}
    </HStack>
  );
}
