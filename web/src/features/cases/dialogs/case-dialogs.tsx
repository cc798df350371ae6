import { CASE_STATUS, type CaseEditBody, type CaseRow } from '@portal/contracts';
import { useAddCaseComment } from '../api/add-case-comment';
import { useAssignCases } from '../api/assign-cases';
import { useChangeCaseStatus } from '../api/change-case-status';
import { useEditCases } from '../api/edit-cases';
import { useFlagCases } from '../api/flag-cases';
import { MSG, serverOr } from '../../../lib/case-messages';
import { AddCommentDialog } from './add-comment-dialog';
import { AssignDialog } from '../../../components/dialogs/assign-dialog';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { EditChargebackDialog } from './edit-chargeback-dialog';
import { FlagDialog } from './flag-dialog';
import { HistoryDialog } from './history-dialog';
import type { ActionResult } from '../../../components/dialogs/result-dialog';

export type CaseDialogState =
  | { kind: 'flag' | 'assign' | 'dnr' | 'revert'; cases: CaseRow[] }
  | { kind: 'edit'; cases: CaseRow[]; verdictOnly: boolean }
  | { kind: 'history' | 'comment'; cases: [CaseRow] }
  | { kind: 'warning'; message: string; cases: CaseRow[] };

/** Opens the dialog of a case action, runs its call and reports the spec's success/error text. */
export function CaseDialogs({
  state,
  onClose,
  onDone,
}: {
  state: CaseDialogState;
  onClose: () => void;
  onDone: (result: ActionResult) => void;
}) {
  const flag = useFlagCases();
  const assign = useAssignCases();
  const status = useChangeCaseStatus();
  const edit = useEditCases();
  const comment = useAddCaseComment();
  const { cases } = state;
  const bulk = cases.length > 1;

  switch (state.kind) {
    case 'warning':
      return (
        <ConfirmDialog
          title="Warning"
          message={state.message}
          confirmLabel="OK"
          onConfirm={onClose}
          onClose={onClose}
          testId="warning-dialog"
        />
      );
    case 'history':
      return <HistoryDialog row={state.cases[0]} onClose={onClose} />;
    case 'comment':
      return (
        <AddCommentDialog
          busy={comment.isPending}
          onClose={onClose}
          onSubmit={(text) =>
            comment.mutate(
              { id: state.cases[0].id, comment: text },
              {
                onSuccess: () => onDone({ ok: true, message: MSG.success }),
                onError: (e) => onDone({ ok: false, message: serverOr(e, MSG.generic) }),
              },
            )
          }
        />
      );
    case 'flag':
      return (
        <FlagDialog
          cases={cases}
          busy={flag.isPending}
          onClose={onClose}
          onSubmit={(on, comment) =>
            flag.mutate(
              { cases, flag: on, comment },
              {
                onSuccess: () => onDone({ ok: true, message: MSG.success }),
                onError: () =>
                  onDone({
                    ok: false,
                    message: bulk
                      ? on
                        ? MSG.bulkFlagError
                        : MSG.bulkUnflagError
                      : on
                        ? MSG.flagError
                        : MSG.unflagError,
                  }),
              },
            )
          }
        />
      );
    case 'assign':
      return (
        <AssignDialog
          cases={cases}
          busy={assign.isPending}
          onClose={onClose}
          onSubmit={(userId) =>
            assign.mutate(
              { ids: cases.map((c) => c.id), userId },
              {
                onSuccess: () =>
                  onDone({
                    ok: true,
                    message: bulk
                      ? userId
                        ? MSG.assignedMany
                        : MSG.unassignedMany
                      : userId
                        ? MSG.assignedOne
                        : MSG.unassignedOne,
                  }),
                onError: (e) =>
                  onDone({
                    ok: false,
                    message: serverOr(
                      e,
                      bulk
                        ? userId
                          ? MSG.assignManyError
                          : MSG.unassignManyError
                        : userId
                          ? MSG.assignOneError
                          : MSG.unassignOneError,
                    ),
                  }),
              },
            )
          }
        />
      );
    case 'dnr':
    case 'revert': {
      const revert = state.kind === 'revert';
      return (
        <ConfirmDialog
          title={revert ? 'Revert Do Not Represent' : 'Move Case to Do Not Represent'}
          message={revert ? MSG.revertConfirm : MSG.dnrConfirm}
          confirmLabel="Continue"
          busy={status.isPending}
          onClose={onClose}
          testId="dnr-dialog"
          onConfirm={() =>
            status.mutate(
              {
                ids: cases.map((c) => c.id),
                statusId: revert ? CASE_STATUS.New : CASE_STATUS.DoNotRepresent,
              },
              {
                onSuccess: () => onDone({ ok: true, message: MSG.success }),
                onError: () =>
                  onDone({
                    ok: false,
                    message: bulk ? (revert ? MSG.bulkRevertError : MSG.bulkDnrError) : MSG.dnrError,
                  }),
              },
            )
          }
        />
      );
    }
    case 'edit':
      return (
        <EditChargebackDialog
          cases={cases}
          verdictOnly={state.verdictOnly}
          busy={edit.isPending}
          onClose={onClose}
          onSubmit={(body: CaseEditBody) =>
            edit.mutate(
              bulk ? { ids: cases.map((c) => c.id), verdictId: body.verdict_id } : { id: cases[0]!.id, body },
              {
                onSuccess: () => onDone({ ok: true, message: MSG.editSuccess }),
                onError: () => onDone({ ok: false, message: MSG.editError }),
              },
            )
          }
        />
      );
  }
}
