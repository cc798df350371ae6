import { CaseList } from '../components/case-list';

/** /case-qc-review and /case-qc-review-new: cases with an uploaded representment awaiting QC (spec 2 §2.4). */
export default function QcReviewRoute() {
  return <CaseList view="qc-review" baseQuery={{ status_id: '3' }} />;
}
