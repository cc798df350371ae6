import { useLocation } from 'react-router-dom';
import { OnboardingHistory } from '../components/onboarding-history';

/** /onboarding and /onboarding-legacy. */
export default function OnboardingRoute() {
  return <OnboardingHistory legacy={useLocation().pathname.startsWith('/onboarding-legacy')} />;
}
