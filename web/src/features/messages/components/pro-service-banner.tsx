import { Alert, Box, CloseButton } from '@chakra-ui/react';
import { useCloseProServiceBanner, useProServiceBanner } from '../api/pro-service-banner';

/** Banner pages by route: the chargebacks lists are page 'cb' (spec 3 §7). */
const PAGES: Record<string, string> = { '/chargebacks': 'cb', '/chargebacks-new': 'cb' };

export function proServicePage(pathname: string): string | null {
  return PAGES[pathname] ?? null;
}

/** The pro-service offer the user service decides to show, until the user closes it. */
export function ProServiceBanner({ page }: { page: string }) {
  const banner = useProServiceBanner(page);
  const close = useCloseProServiceBanner(page);
  if (!banner.data?.show) return null;
  return (
    <Box px={{ base: 2, md: 6 }} pt="4">
      <Alert.Root status="info" borderRadius="md" data-testid="pro-service-banner">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{banner.data.title}</Alert.Title>
          <Alert.Description>{banner.data.message}</Alert.Description>
        </Alert.Content>
        <CloseButton
          size="sm"
          alignSelf="flex-start"
          aria-label="Close banner"
          onClick={() => close.mutate()}
          data-testid="pro-service-banner-close"
        />
      </Alert.Root>
    </Box>
  );
}
