import { useProfile } from '../../../lib/auth/auth-context';
import { CaseList } from '../../cases/components/case-list';
import { ReviewAssignControl, ReviewRowActions } from '../components/review-controls';

/** /review and /review-legacy: admin review of open cases with its assign control and actions by id (spec 2 §2.5). */
export default function AdminReviewListRoute() {
  const readOnly = useProfile().is_read_only;
  return (
    <CaseList
      view="admin-review"
      baseQuery={{ filter_group: 'working_cases' }}
      renderAssign={(row, done) => <ReviewAssignControl row={row} readOnly={readOnly} done={done} />}
      extraRowAction={(row, done) => <ReviewRowActions row={row} readOnly={readOnly} done={done} />}
    />
  );
}
