import { Button, Heading, Stack, Text, Link as ChakraLink } from '@chakra-ui/react';
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
    <Stack gap="5" p={{ base: 4, md: 10 }} maxW="2xl" data-testid="not-found">
      <Heading size="2xl">{NOT_FOUND_TITLE}</Heading>
      <Text>{NOT_FOUND_TEXT}</Text>
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
    </Stack>
  );
}
