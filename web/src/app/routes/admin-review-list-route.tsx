import { useProfile } from '../../lib/auth/auth-context';
import { CaseList } from '../../features/cases/components/case-list';
import {
  ReviewAssignControl,
  ReviewBulkActions,
  ReviewRowActions,
} from '../../features/review/components/review-controls';

/**
 * /review and /review-legacy: admin review of open cases with its assign
 * control, actions by id and the bulk variants of both on selected New cases
 * (spec 2 §2.5). Read-only users get neither selection nor actions.
 */
export default function AdminReviewListRoute() {
  const readOnly = useProfile().is_read_only;
  return (
    <CaseList
      view="admin-review"
      baseQuery={{ filter_group: 'working_cases' }}
      renderAssign={(row, done) => <ReviewAssignControl row={row} readOnly={readOnly} done={done} />}
      extraRowAction={(row, done) => <ReviewRowActions row={row} readOnly={readOnly} done={done} />}
      bulkActions={(rows, done) => <ReviewBulkActions rows={rows} done={done} />}
    />
  );
}
