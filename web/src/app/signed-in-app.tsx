import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { useTenant } from '../lib/tenant-config';
import { createAppRouter } from './router';

/**
 * Everything behind sign-in: the router with the shell, the menu and the route
 * catalogue. app.tsx loads it lazily, so the sign-in page's first load carries
 * none of it (nor react-router).
 */
export function SignedInApp() {
  const tenant = useTenant();
  const [router] = useState(() => createAppRouter(tenant));
  return <RouterProvider router={router} />;
}
