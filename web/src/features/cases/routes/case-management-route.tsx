import { CASE_TABS, CaseList } from '../components/case-list';

/** /case-management and /case-management-legacy: the list with its tabs (spec 2 §2.1). */
export default function CaseManagementRoute() {
  return <CaseList view="case-management" tabs={CASE_TABS} />;
}
