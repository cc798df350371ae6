import { CaseList } from '../components/case-list';

/**
 * /invalid-chargebacks and /invalid-chargebacks-new: the chargebacks layout
 * over the cases that can no longer be represented (Expired, status 5). The
 * spec names the page (feature cm-invalid-case) but not its filter.
 */
export default function InvalidChargebacksRoute() {
  return <CaseList view="chargebacks" title="Invalid Chargebacks" baseQuery={{ status_id: '5' }} />;
}
