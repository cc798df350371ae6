import type { TenantBootstrap } from '@portal/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { FullScreenMessage } from '../components/full-screen-message';
import { ForcedUpdateForm } from '../features/auth/components/forced-update-form';
import { SignedOutScreen } from '../features/auth/components/signed-out-screen';
import { useAuth } from '../lib/auth/auth-context';
import { useTenant } from '../lib/tenant-config';
import { AppProvider } from './provider';
import { preloadLandingScreen } from './routes/preload';

export const LOADING_UI = 'Loading UI...';
export const SSO_WAIT = 'Please wait while we log you in...';

// The router, shell and route catalogue load after sign-in (fetched as soon as a session exists, while
// whoami loads), keeping them and react-router out of the sign-in page's first load.
const loadSignedInApp = () => import('./signed-in-app');
const SignedInApp = lazy(() => loadSignedInApp().then((m) => ({ default: m.SignedInApp })));

function Gate() {
  const { state, profile } = useAuth();
  const tenant = useTenant();
  const queryClient = useQueryClient();
  const signedIn = state.name === 'signedIn';
  useEffect(() => {
    if (!signedIn) return;
    void loadSignedInApp();
    preloadLandingScreen(window.location.pathname, queryClient, tenant);
  }, [signedIn, queryClient, tenant]);
  switch (state.name) {
    case 'starting':
      return <FullScreenMessage text="Loading..." />;
    case 'sso':
      return <FullScreenMessage text={SSO_WAIT} />;
    case 'passwordResetRequired':
      return <ForcedUpdateForm />;
    case 'signedIn':
      return profile ? (
        <Suspense fallback={<FullScreenMessage text={LOADING_UI} />}>
          <SignedInApp />
        </Suspense>
      ) : (
        <FullScreenMessage text={LOADING_UI} />
      );
    default:
      return <SignedOutScreen state={state} />;
  }
}

export function App({ tenant }: { tenant: TenantBootstrap }) {
  return (
    <AppProvider tenant={tenant}>
      <Gate />
    </AppProvider>
  );
}
