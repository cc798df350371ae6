import { CaseList } from '../components/case-list';
import { CASE_TABS } from '../components/case-list-tabs';

/** /case-management and /case-management-legacy: the list with its tabs (spec 2 §2.1). */
export default function CaseManagementRoute() {
  return <CaseList view="case-management" tabs={CASE_TABS} />;
}
