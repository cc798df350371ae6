import type { TenantBootstrap } from '@portal/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { FullScreenMessage } from '../components/full-screen-message';
import { ForcedUpdateForm } from '../features/auth/components/forced-update-form';
import { SignedOutScreen } from '../features/auth/components/signed-out-screen';
import { useAuth } from '../lib/auth/auth-context';
import { useTenant } from '../lib/tenant-config';
import { AppProvider } from './provider';
import { createAppRouter } from './router';
import { preloadLandingScreen } from './routes/preload';

export const LOADING_UI = 'Loading UI...';
export const SSO_WAIT = 'Please wait while we log you in...';

function SignedInApp() {
  const tenant = useTenant();
  const [router] = useState(() => createAppRouter(tenant));
  return <RouterProvider router={router} />;
}

function Gate() {
  const { state, profile } = useAuth();
  const tenant = useTenant();
  const queryClient = useQueryClient();
  const signedIn = state.name === 'signedIn';
  useEffect(() => {
    if (signedIn) preloadLandingScreen(window.location.pathname, queryClient, tenant);
  }, [signedIn, queryClient, tenant]);
  switch (state.name) {
    case 'starting':
      return <FullScreenMessage text="Loading..." />;
    case 'sso':
      return <FullScreenMessage text={SSO_WAIT} />;
    case 'passwordResetRequired':
      return <ForcedUpdateForm />;
    case 'signedIn':
      return profile ? <SignedInApp /> : <FullScreenMessage text={LOADING_UI} />;
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
