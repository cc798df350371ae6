import { Button, Stack, Text, Link as ChakraLink } from '@chakra-ui/react';
import { Page, PageHeader } from '../../components/page-header';
import { useNavigate } from 'react-router-dom';
import { usePageTitle } from '../../lib/page-title';
import { useTenant } from '../../lib/tenant-config';

export const NOT_FOUND_TITLE = 'Page Not Found';
export const NOT_FOUND_TEXT =
  'We were unable to find the content you were looking for. Here are some things you can try:';

export function NotFoundRoute() {
  const navigate = useNavigate();
  const tenant = useTenant();
  usePageTitle(NOT_FOUND_TITLE);
  return (
    <Page maxW="2xl" data-testid="not-found">
      <PageHeader title={NOT_FOUND_TITLE} />
      <Text mb="5">{NOT_FOUND_TEXT}</Text>
      <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
        <Button variant="outline" colorPalette="brand" onClick={() => navigate(-1)}>
          Go Back
        </Button>
        <Button colorPalette="brand" onClick={() => navigate('/')}>
          Go Home
        </Button>
        <Button asChild variant="ghost" colorPalette="brand">
          <ChakraLink href={`mailto:${tenant.support_email}`}>Contact Support</ChakraLink>
        </Button>
      </Stack>
    </Page>
  );
}
