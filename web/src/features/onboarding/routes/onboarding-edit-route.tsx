import { Navigate, useLocation, useParams } from 'react-router-dom';
import { OnboardingEdit } from '../components/onboarding-edit';

/** /onboarding/edit/{onboardingId} and its legacy twin. */
export default function OnboardingEditRoute() {
  const id = Number(useParams().onboardingId);
  const legacy = useLocation().pathname.startsWith('/onboarding-legacy');
  if (!Number.isInteger(id) || id < 1) return <Navigate to="/not-found" replace />;
  return <OnboardingEdit key={id} id={id} legacy={legacy} />;
}
