import { ChakraProvider } from '@chakra-ui/react';
import { withEmotionCache } from '@emotion/react';
import type { TenantBootstrap } from '@portal/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { AuthProvider } from '../lib/auth/auth-provider';
import { useAuth } from '../lib/auth/auth-context';
import { LiveCaseFigures } from '../lib/case-writes';
import { LiveUpdates } from '../lib/live-events';
import { TenantContext } from '../lib/tenant-config';
import { applyFavicon, lookFor, systemFromLook } from '../lib/theme';
import { Toaster } from '../components/toaster';
import { FeatureSlots } from './feature-slots';
import { applyChartNonce, cspNonce } from '../lib/csp-nonce';

// Before any chart module loads (they load with their routes).
applyChartNonce(cspNonce());

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
    },
  });
}

/**
 * The CSP nonce on emotion's style sheets (Chakra styles with emotion's cache
 * from context). Emotion creates its <style> elements lazily, on the first
 * insert, with `sheet.nonce`, and its Global sheets copy the nonce from the
 * cache's sheet; this runs during render, before any child inserts a style.
 * (A CacheProvider with createCache({ key: 'css', nonce }) would do the same
 * but needs @emotion/cache as a direct dependency.)
 */
const EmotionNonce = withEmotionCache(function EmotionNonce(
  { nonce, children }: { nonce: string | undefined; children: ReactNode },
  cache,
) {
  if (nonce && cache.sheet.nonce !== nonce) cache.sheet.nonce = nonce;
  return <>{children}</>;
});

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
    <EmotionNonce nonce={cspNonce()}>
      <ChakraProvider value={system}>
        {children}
        <Toaster />
      </ChakraProvider>
    </EmotionNonce>
  );
}

export function AppProvider({ tenant, children }: { tenant: TenantBootstrap; children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TenantContext.Provider value={tenant}>
        <AuthProvider>
          <LiveUpdates />
          <LiveCaseFigures />
          <ThemedChakra tenant={tenant}>
            <FeatureSlots>{children}</FeatureSlots>
          </ThemedChakra>
        </AuthProvider>
      </TenantContext.Provider>
    </QueryClientProvider>
  );
}
