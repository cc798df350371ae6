import type { TenantBootstrap } from '@portal/contracts';
import { createBrowserRouter, Navigate } from 'react-router-dom';
import { ErrorFallback } from '../components/error-boundary';
import { routesFor } from './routes/catalogue';
import { RouteFrame, RouteLoading } from './routes/route-frame';
import { AppShell } from './shell/app-shell';

/** Every route of spec 2.2 inside the shell; / and /login go to /dashboard, anything else to /not-found. */
export function createAppRouter(tenant: TenantBootstrap) {
  return createBrowserRouter([
    {
      element: <AppShell />,
      errorElement: <ErrorFallback />,
      hydrateFallbackElement: <RouteLoading />,
      children: [
        { path: '/', element: <Navigate to="/dashboard" replace /> },
        { path: '/login', element: <Navigate to="/dashboard" replace /> },
        ...routesFor(tenant).map((def) => ({
          path: def.path,
          element: <RouteFrame def={def} key={def.path} />,
        })),
        { path: '*', element: <Navigate to="/not-found" replace /> },
      ],
    },
  ]);
}
