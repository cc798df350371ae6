import { CaseList } from '../components/case-list';

/** /review and /review-legacy: admin review of open cases (spec 2 §2.5). */
export default function AdminReviewRoute() {
  return <CaseList view="admin-review" baseQuery={{ filter_group: 'working_cases' }} />;
}
