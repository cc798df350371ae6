import { ChakraProvider } from '@chakra-ui/react';
import type { TenantBootstrap } from '@portal/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { AuthProvider } from '../lib/auth/auth-provider';
import { useAuth } from '../lib/auth/auth-context';
import { TenantContext } from '../lib/tenant-config';
import { applyFavicon, lookFor, systemFromLook } from '../lib/theme';
import { Toaster } from '../components/toaster';

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
    },
  });
}

/** Chakra with the tenant's look, or its partner-branded variant once the profile says theme_variant > 1. */
function ThemedChakra({ tenant, children }: { tenant: TenantBootstrap; children: ReactNode }) {
  const { profile } = useAuth();
  const variant = profile?.theme_variant ?? 1;
  const look = lookFor(tenant, variant);
  const system = useMemo(() => systemFromLook(look), [look]);
  useEffect(() => applyFavicon(look.favicon_url), [look.favicon_url]);
  useEffect(() => {
    document.documentElement.dataset.themeVariant = variant > 1 ? 'partner' : 'default';
    document.documentElement.dataset.tenant = tenant.id;
  }, [variant, tenant.id]);
  return (
    <ChakraProvider value={system}>
      {children}
      <Toaster />
    </ChakraProvider>
  );
}

export function AppProvider({ tenant, children }: { tenant: TenantBootstrap; children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TenantContext.Provider value={tenant}>
        <AuthProvider>
          <ThemedChakra tenant={tenant}>{children}</ThemedChakra>
        </AuthProvider>
      </TenantContext.Provider>
    </QueryClientProvider>
  );
}
