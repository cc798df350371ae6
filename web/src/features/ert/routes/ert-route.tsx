import { ErtRecords } from '../components/ert-records';

/** /ert and /ert-legacy. */
export default function ErtRoute() {
  return <ErtRecords />;
}
