import { REVIEW_ACTIONS, REVIEW_MESSAGES, type CaseRow } from '@portal/contracts';
import { Button, HStack, Menu, Portal } from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { toaster } from '../../../components/toaster';
import { AssignedIconCell } from '../../../components/case-cells';
import { AssignDialog } from '../../../components/dialogs/assign-dialog';
import { ResultDialog, type ActionResult } from '../../../components/dialogs/result-dialog';
import { MSG, serverOr } from '../../../lib/case-messages';
import { useReviewCases } from '../api/review-cases';
import { ReviewActionDialog } from './review-action-dialog';
import { useRowMenu } from '../../../lib/row-menu-state';

/**
 * The two admin review writes of PATCH /cm/review, with the spec's texts
 * (§8 'Mark reviewed', 'Assign'), for one case or many: the row controls, the
 * case view and the bulk menu all submit through here.
 */
export function useReviewWrites(done: () => void) {
  const review = useReviewCases();
  const [result, setResult] = useState<ActionResult | null>(null);
  const act = (ids: number[], actionId: number, note: string, close: () => void) =>
    review.mutate(
      { ids, actionId, note },
      {
        onSuccess: () => {
          close();
          setResult({ ok: true, message: REVIEW_MESSAGES.reviewed });
          done();
        },
        onError: (e) => {
          close();
          setResult({ ok: false, message: serverOr(e, REVIEW_MESSAGES.failed) });
        },
      },
    );
  const assign = (ids: number[], userId: number | null, close: () => void) => {
    const one = ids.length === 1;
    const fallback =
      userId === null
        ? one
          ? MSG.unassignOneError
          : MSG.unassignManyError
        : one
          ? MSG.assignOneError
          : MSG.assignManyError;
    review.mutate(
      { ids, assignId: userId },
      {
        onSuccess: (r) => {
          close();
          setResult({ ok: true, message: r.message });
          done();
        },
        onError: (e) => {
          close();
          setResult({ ok: false, message: serverOr(e, fallback) });
        },
      },
    );
  };
  const dialog = result && <ResultDialog result={result} onClose={() => setResult(null)} />;
  return { act, assign, busy: review.isPending, dialog };
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
  const writes = useReviewWrites(done);
  const enabled = !readOnly && row.properties.is_assign_user_enabled;
  return (
    <HStack h="full" gap="1">
      <AssignedIconCell row={row} />
      {enabled && (
        // The name starts with the visible word (WCAG 2.5.3 Label in Name).
        <Button
          size="2xs"
          variant="ghost"
          onClick={() => setOpen(true)}
          aria-label={`${row.assigned_user ? 'Change' : 'Assign'} case ${row.id}`}
        >
          {row.assigned_user ? 'Change' : 'Assign'}
        </Button>
      )}
      {open && (
        <AssignDialog
          cases={[row]}
          onSubmit={(userId) => writes.assign([row.id], userId, () => setOpen(false))}
          onClose={() => setOpen(false)}
          busy={writes.busy}
        />
      )}
      {writes.dialog}
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
  const writes = useReviewWrites(done);
  // Held by the grid (see row-menu-state): a redrawn row keeps its menu open.
  const [menuOpen, setMenuOpen] = useRowMenu(row.id, 'review');
  return (
    <HStack h="full" gap="1" data-testid={`review-actions-${row.id}`}>
      {!readOnly && (
        <Menu.Root
          defaultOpen={menuOpen}
          onOpenChange={(e) => setMenuOpen(e.open)}
          positioning={{ placement: 'bottom-end' }}
        >
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
          onSubmit={(id, note) => writes.act([row.id], id, note, () => setActionId(null))}
          onClose={() => setActionId(null)}
          busy={writes.busy}
        />
      )}
      {writes.dialog}
    </HStack>
  );
}

type BulkOpen = { kind: 'action'; actionId: number; rows: CaseRow[] } | { kind: 'assign'; rows: CaseRow[] };

/**
 * Admin review bulk actions on the selected New cases (the grid selects only
 * status 1): an action by id with an optional note, or the admin review
 * variant of Bulk Assign; nothing selected gives the spec's notice.
 */
export function ReviewBulkActions({ rows, done }: { rows: CaseRow[]; done: () => void }) {
  const [open, setOpen] = useState<BulkOpen | null>(null);
  const writes = useReviewWrites(done);
  const start = (next: (rows: CaseRow[]) => BulkOpen) => {
    if (!rows.length) return toaster.create({ type: 'error', description: MSG.selectOne });
    setOpen(next(rows));
  };
  const close = () => setOpen(null);
  const ids = open?.rows.map((r) => r.id) ?? [];
  const label =
    ids.length === 1 ? `Case ${open?.rows[0]?.case_no} (CB ID ${ids[0]})` : `${ids.length} cases selected.`;
  return (
    <>
      <Menu.Root>
        <Menu.Trigger asChild>
          <Button size="sm" variant="outline" data-testid="bulk-menu">
            Bulk Actions{rows.length ? ` (${rows.length})` : ''}
          </Button>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content minW="52">
              {REVIEW_ACTIONS.map((a) => (
                <Menu.Item
                  key={a.id}
                  value={`action-${a.id}`}
                  onSelect={() => start((r) => ({ kind: 'action', actionId: a.id, rows: r }))}
                >
                  {a.name}
                </Menu.Item>
              ))}
              <Menu.Separator />
              <Menu.Item value="assign" onSelect={() => start((r) => ({ kind: 'assign', rows: r }))}>
                Bulk Assign
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      {open?.kind === 'action' && (
        <ReviewActionDialog
          caseLabel={label}
          initialAction={open.actionId}
          onSubmit={(actionId, note) => writes.act(ids, actionId, note, close)}
          onClose={close}
          busy={writes.busy}
        />
      )}
      {open?.kind === 'assign' && (
        <AssignDialog
          cases={open.rows}
          onSubmit={(userId) => writes.assign(ids, userId, close)}
          onClose={close}
          busy={writes.busy}
        />
      )}
      {writes.dialog}
    </>
  );
}
