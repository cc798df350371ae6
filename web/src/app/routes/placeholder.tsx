import { Badge, Box, Heading, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { switchGridView } from '../shell/menu';

/** A screen of a later release: a clear 'coming soon' notice inside the shell. */
export function PlaceholderRoute({ title }: { title: string }) {
  const { pathname } = useLocation();
  const other = switchGridView(pathname);
  return (
    <Box p={{ base: 4, md: 8 }} data-testid="coming-soon">
      <Stack gap="4" bg="white" borderRadius="lg" borderWidth="1px" p="8" maxW="3xl">
        <Badge alignSelf="flex-start" colorPalette="orange" size="lg">
          Coming soon
        </Badge>
        <Heading size="xl">{title}</Heading>
        <Text color="fg.muted">This screen is coming soon: it is part of a later release of the portal.</Text>
        <Text fontSize="sm" color="fg.subtle">
          Route: <code>{pathname}</code>
        </Text>
        {other && (
          <Link asChild color="brand.fg">
            <RouterLink to={other}>
              {other.endsWith('-new') ? 'Switch to the data-grid view' : 'Switch to the classic view'}
            </RouterLink>
          </Link>
        )}
      </Stack>
    </Box>
  );
}
