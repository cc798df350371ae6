import { Box, Flex, Heading, Image, Link, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useAuth } from '../../../lib/auth/auth-context';
import { usePageTitle } from '../../../lib/page-title';
import { useTenant } from '../../../lib/tenant-config';

/** The card every signed-out form sits in: tenant logo, site name, the form's title. */
export function SignedOutLayout({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId: string;
}) {
  const tenant = useTenant();
  usePageTitle(title);
  return (
    // The page's main landmark and its one h1 (the signed-in shell has its own).
    <Flex as="main" minH="100vh" align="center" justify="center" bg="app.bg" px="4" data-testid={testId}>
      <Box
        bg="white"
        borderRadius="lg"
        boxShadow="lg"
        p={{ base: 6, md: 10 }}
        w="full"
        maxW="md"
        borderTopWidth="6px"
        borderTopColor="brand.solid"
      >
        <Stack gap="6">
          <Stack gap="2" align="center">
            {tenant.look.logo_url ? (
              <Image src={tenant.look.logo_url} alt={tenant.site_name} maxH="64px" />
            ) : null}
            <Text color="fg.muted" fontSize="sm">
              {tenant.site_name}
            </Text>
            <Heading as="h1" size="xl" textAlign="center">
              {title}
            </Heading>
          </Stack>
          {children}
        </Stack>
      </Box>
    </Flex>
  );
}

/** 'Login Instead': back to the sign-in form from the reset and new-password forms. */
export function LoginInsteadLink(props: { alignSelf?: 'center' }) {
  const { dispatch } = useAuth();
  return (
    <Link as="button" color="brand.fg" {...props} onClick={() => dispatch({ type: 'LOGIN_INSTEAD' })}>
      Login Instead
    </Link>
  );
}
