import { CaseUpdater } from '../components/case-updater';

/** /case-updater and /case-updater-legacy. */
export default function CaseUpdaterRoute() {
  return <CaseUpdater />;
}
