import { CaseList } from '../components/case-list';

/** /chargebacks and /chargebacks-new (spec 2 §2.1). */
export default function ChargebacksRoute() {
  return <CaseList view="chargebacks" />;
}
